import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Button } from "react-aria-components";
import { BannerText } from "./BannerText";

/** Closing the banner is remembered on this device (issue 18: it came back after every reload). */
export const ERRORS_BANNER_KEY = "cutroom:errors-banner-dismissed";

const wasDismissed = () => {
  try {
    return !!globalThis.localStorage?.getItem(ERRORS_BANNER_KEY);
  } catch {
    return false;
  }
};

/** SPEC §1: intermittent errors or endless loading are fixed by a refresh; say so. */
export function ErrorsBanner() {
  const { t } = useLingui();
  const [dismissed, setDismissed] = useState(wasDismissed);
  if (dismissed) return null;
  const dismiss = () => {
    try {
      globalThis.localStorage?.setItem(ERRORS_BANNER_KEY, new Date().toISOString());
    } catch {
      // Storage refused (private mode): the banner stays closed for this visit only.
    }
    setDismissed(true);
  };
  return (
    <div className="notice-banner" role="region" aria-label={t`Tip`}>
      <BannerText>
        <Trans>Seeing errors or a page that never finishes loading? Refresh the page.</Trans>
      </BannerText>
      <Button className="banner-link" onPress={() => window.location.reload()}>
        <Trans>Refresh</Trans>
      </Button>
      <Button className="banner-close" aria-label={t`Dismiss`} onPress={dismiss}>
        ×
      </Button>
    </div>
  );
}
