import { Label, Meter as AriaMeter } from "react-aria-components";

export interface MeterProps {
  label: string;
  /** 0–100. */
  value: number;
  valueLabel: string;
  /** Turns the meter red (e.g. storage at 90 % or more). */
  isWarning?: boolean;
}

/** A labelled quantity out of a maximum, such as storage used. */
export function Meter({ label, value, valueLabel, isWarning }: MeterProps) {
  return (
    <AriaMeter className="meter" value={value} valueLabel={valueLabel} data-warning={isWarning || undefined}>
      <div className="progress-head">
        <Label className="progress-label">{label}</Label>
        <span className="progress-value">{valueLabel}</span>
      </div>
      <div className="progress-track">
        <div className="progress-fill" style={{ width: `${Math.max(0, Math.min(100, value))}%` }} />
      </div>
    </AriaMeter>
  );
}
