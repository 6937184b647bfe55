import { Label, ProgressBar as AriaProgressBar } from "react-aria-components";

export interface ProgressBarProps {
  label: string;
  /** 0–100. */
  value: number;
  /** The value as the user reads it, e.g. "45.3%". */
  valueLabel: string;
  /** Hide the label visually; screen readers still read it. */
  hideLabel?: boolean;
}

/** A labelled progress bar; the value text is what screen readers announce. */
export function ProgressBar({ label, value, valueLabel, hideLabel }: ProgressBarProps) {
  return (
    <AriaProgressBar className="progress" value={value} valueLabel={valueLabel}>
      <div className="progress-head">
        <Label className={hideLabel ? "visually-hidden" : "progress-label"}>{label}</Label>
        <span className="progress-value">{valueLabel}</span>
      </div>
      <div className="progress-track">
        <div className="progress-fill" style={{ width: `${Math.max(0, Math.min(100, value))}%` }} />
      </div>
    </AriaProgressBar>
  );
}
