import { Trans } from "@lingui/react/macro";
import type { Quotas } from "../../../api/user";
import { formatSize } from "../../lib/format";

/** The limits that apply to this upload (SPEC §2 Upload screen shows them). */
export function Limits({ quotas }: { quotas: Quotas | null | undefined }) {
  if (!quotas) return null;
  const perFileSize = formatSize(quotas.uploadMaxSizeBytes);
  const perFileMinutes = quotas.uploadMaxLengthMinutes;
  const minutesLeft = Math.floor(quotas.processingMinutes);
  const storageLeft = formatSize(quotas.storageBytes);
  return (
    <dl className="limits">
      <div>
        <dt>
          <Trans>Per file</Trans>
        </dt>
        <dd>
          <Trans>
            up to {perFileSize} and {perFileMinutes} min
          </Trans>
        </dd>
      </div>
      <div>
        <dt>
          <Trans>Processing left</Trans>
        </dt>
        <dd>
          <Trans>{minutesLeft} min</Trans>
        </dd>
      </div>
      <div>
        <dt>
          <Trans>Storage left</Trans>
        </dt>
        <dd>{storageLeft}</dd>
      </div>
    </dl>
  );
}
