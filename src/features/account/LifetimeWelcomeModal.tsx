import { Trans, useLingui } from "@lingui/react/macro";
import type { UserRow } from "../../db";
import { formatDecimal1 } from "../../lib/format";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";
import { worker } from "../../worker";
import { formatMinutes, lifetimeTierNumber } from "./format";
import { useAccountMeta } from "./hooks";

/**
 * SPEC §2 Account: the welcome modal for lifetime-deal users on their first visit while show_wizard is set. It
 * lists what the tier gives (SPEC §9: about 150 GB of storage, 90 minutes a file, 5 GB an upload, 1080p);
 * closing it, however it is closed, turns show_wizard off (PUT /user/wizard/toggle/0), so it shows once.
 */
export function LifetimeWelcomeModal({ user }: { user: UserRow }) {
  const { t, i18n } = useLingui();
  const limits = useAccountMeta("limits");
  const open = user.show_wizard === 1 && !!user.ltd_tier;
  if (!open) return null;
  const tier = lifetimeTierNumber(user.ltd_tier!);
  const storage = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 0 }).format(user.max_storage / 1024 ** 3);
  const close = () => void worker.setWelcomeWizard(false);
  const minutes = limits ? formatMinutes(limits.monthly_minutes, i18n.locale) : null;
  const fileMinutes = limits?.upload_max_length_minutes;
  const fileGb = limits ? formatDecimal1(limits.upload_max_size_mb / 1024, i18n.locale) : null;
  return (
    <Dialog
      isOpen
      onOpenChange={(isOpen) => !isOpen && close()}
      title={tier !== null ? t`Welcome to Cutroom Lifetime, Tier ${tier}` : t`Welcome to Cutroom Lifetime`}
      actions={
        <Button onPress={close}>
          <Trans>Start editing</Trans>
        </Button>
      }
    >
      <p>
        <Trans>Your lifetime deal is active. It includes:</Trans>
      </p>
      <ul className="lifetime-limits">
        <li>
          <Trans>About {storage} GB of free storage</Trans>
        </li>
        {minutes && (
          <li>
            <Trans>{minutes} of AI editing per month</Trans>
          </li>
        )}
        {fileMinutes !== undefined && (
          <li>
            <Trans>Up to {fileMinutes} minutes per file</Trans>
          </li>
        )}
        {fileGb && (
          <li>
            <Trans>Up to {fileGb} GB per upload</Trans>
          </li>
        )}
        <li>
          <Trans>1080p exports without the watermark</Trans>
        </li>
      </ul>
    </Dialog>
  );
}
