import { Label, Meter as AriaMeter } from "react-aria-components";

export interface RingMeterProps {
  label: string;
  /** 0–100: how much of the whole is left (or used), as the ring fills. */
  value: number;
  /** The quantity in words, read out with the meter and written inside the ring. */
  valueLabel: string;
  /** A second line under the ring ("of 20 h"). */
  detail?: string;
  /** Turns the ring red (e.g. little storage left). */
  isWarning?: boolean;
}

const RADIUS = 42;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** A labelled quantity drawn as a ring (the /account quotas of SPEC §2), a react-aria Meter underneath. */
export function RingMeter({ label, value, valueLabel, detail, isWarning }: RingMeterProps) {
  const shown = Math.max(0, Math.min(100, value));
  return (
    <AriaMeter className="ring-meter" value={shown} valueLabel={valueLabel} data-warning={isWarning || undefined}>
      <Label className="ring-meter-label">{label}</Label>
      <span className="ring-meter-ring">
        <svg viewBox="0 0 100 100" aria-hidden="true">
          <circle className="ring-meter-track" cx="50" cy="50" r={RADIUS} />
          <circle
            className="ring-meter-fill"
            cx="50"
            cy="50"
            r={RADIUS}
            strokeDasharray={CIRCUMFERENCE}
            strokeDashoffset={CIRCUMFERENCE * (1 - shown / 100)}
          />
        </svg>
        <span className="ring-meter-value">{valueLabel}</span>
      </span>
      {detail && <span className="ring-meter-detail muted">{detail}</span>}
    </AriaMeter>
  );
}
