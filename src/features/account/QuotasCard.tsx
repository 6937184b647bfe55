import { Trans, useLingui } from "@lingui/react/macro";
import type { UserRow } from "../../db";
import { formatGB } from "../../lib/format";
import { STORAGE_WARNING_RATIO } from "../../lib/constants";
import { Button } from "../../ui/Button";
import { RingMeter } from "../../ui/RingMeter";
import { FALLBACK_MONTHLY_MINUTES, formatMinutes } from "./format";
import { useAccountMeta } from "./hooks";
import { focusPlanPicker } from "./plans-anchor";

const ratio = (left: number, total: number) => (total > 0 ? (Math.max(0, left) / total) * 100 : 0);

/**
 * SPEC §2 Account, quotas: the processing minutes and the storage left as rings, the per-file length and
 * size, and an Upgrade prompt on the storage side for free users (video_tier below 1).
 */
export function QuotasCard({ user }: { user: UserRow }) {
  const { t, i18n } = useLingui();
  const quotas = useAccountMeta("quotas");
  const limits = useAccountMeta("limits");
  const locale = i18n.locale;

  if (!quotas) {
    return (
      <section className="card account-card" aria-labelledby="quotas-title">
        <h2 id="quotas-title">
          <Trans>Quotas</Trans>
        </h2>
        {quotas === null ? (
          <p className="muted">
            <Trans>Your quotas show here once Cutroom reaches the server.</Trans>
          </p>
        ) : (
          <p className="muted">
            <Trans>Loading…</Trans>
          </p>
        )}
      </section>
    );
  }

  // SPEC §9: with no plan (or none known yet), the length ring counts against 1200 minutes.
  const totalMinutes = limits && limits.monthly_minutes > 0 ? limits.monthly_minutes : FALLBACK_MONTHLY_MINUTES;
  const minutesLeft = formatMinutes(quotas.processingMinutes, locale);
  const minutesTotal = formatMinutes(totalMinutes, locale);
  const storageLeft = `${formatGB(quotas.storageBytes, locale)} GB`;
  const storageTotal = `${formatGB(user.max_storage, locale)} GB`;
  const storageUsedRatio = user.max_storage > 0 ? user.total_used_storage / user.max_storage : 0;
  const perFileLength = formatMinutes(quotas.uploadMaxLengthMinutes, locale);
  const perFileSize = `${formatGB(quotas.uploadMaxSizeBytes, locale)} GB`;
  const free = user.video_tier < 1 && !user.ltd_tier;

  return (
    <section className="card account-card account-quotas" aria-labelledby="quotas-title">
      <h2 id="quotas-title">
        <Trans>Quotas</Trans>
      </h2>
      <div className="account-rings">
        <div className="account-ring">
          <RingMeter
            label={t`Available length`}
            value={ratio(quotas.processingMinutes, totalMinutes)}
            valueLabel={minutesLeft}
            detail={t`of ${minutesTotal} this period`}
          />
        </div>
        <div className="account-ring">
          <RingMeter
            label={t`Available size`}
            value={ratio(quotas.storageBytes, user.max_storage)}
            valueLabel={storageLeft}
            detail={t`of ${storageTotal}`}
            isWarning={storageUsedRatio >= STORAGE_WARNING_RATIO}
          />
          {free && (
            <div className="account-upgrade">
              <p className="muted">
                <Trans>Need more room and no watermark?</Trans>
              </p>
              <Button variant="primary" onPress={() => focusPlanPicker()}>
                <Trans>Upgrade</Trans>
              </Button>
            </div>
          )}
        </div>
      </div>
      <dl className="account-facts">
        <div>
          <dt>
            <Trans>Longest file</Trans>
          </dt>
          <dd>{perFileLength}</dd>
        </div>
        <div>
          <dt>
            <Trans>Largest file</Trans>
          </dt>
          <dd>{perFileSize}</dd>
        </div>
      </dl>
    </section>
  );
}
