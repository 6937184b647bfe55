import { Trans, useLingui } from "@lingui/react/macro";
import type { Plan } from "../../../api/plans";
import { formatDecimal1, formatUsd } from "../../lib/format";
import { formatMinutes, lifetimeTierNumber } from "../account/format";

/** Resolution by video_tier (SPEC §9): 2 = 1080p, 4 = 4k, otherwise 720p. */
const resolutionOf = (videoTier: number) => (videoTier >= 4 ? "4k" : videoTier >= 2 ? "1080p" : "720p");

/** What a lifetime tier gives, in the user's units (SPEC §9 lifetime deal: minutes per file, upload size, storage, resolution). */
export function LifetimeLimits({ plan }: { plan: Plan }) {
  const { i18n } = useLingui();
  const m = plan.metadata;
  const minutes = formatMinutes(m.monthly_minutes, i18n.locale);
  const storage = formatDecimal1(m.storage_gb, i18n.locale);
  const fileGb = formatDecimal1(m.upload_max_size_mb / 1024, i18n.locale);
  const fileMinutes = m.upload_max_length_minutes;
  const resolution = resolutionOf(m.video_tier);
  return (
    <ul className="lifetime-limits">
      <li>
        <Trans>{minutes} of AI editing per month</Trans>
      </li>
      <li>
        <Trans>{storage} GB of storage</Trans>
      </li>
      <li>
        <Trans>Up to {fileMinutes} minutes per file</Trans>
      </li>
      <li>
        <Trans>Up to {fileGb} GB per upload</Trans>
      </li>
      <li>
        <Trans>{resolution} exports without the watermark</Trans>
      </li>
    </ul>
  );
}

/** "Tier 2" from the plan id (ltd_tier2), else the nickname. */
export function tierTitle(plan: Plan): string | number {
  return lifetimeTierNumber(plan.id) ?? plan.nickname;
}

export function LifetimePrice({ plan }: { plan: Plan }) {
  return (
    <p className="lifetime-price">
      <span className="lifetime-amount">{formatUsd(plan.amount)}</span>{" "}
      <span className="field-description">
        <Trans>paid once</Trans>
      </span>
    </p>
  );
}
