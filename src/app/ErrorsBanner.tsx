import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Button } from "react-aria-components";

/** SPEC §1: intermittent errors or endless loading are fixed by a refresh; say so. */
export function ErrorsBanner() {
  const { t } = useLingui();
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
  return (
    <div className="notice-banner" role="note">
      <span>
        <Trans>Seeing errors or a page that never finishes loading? Refresh the page.</Trans>
      </span>
      <Button className="banner-link" onPress={() => window.location.reload()}>
        <Trans>Refresh</Trans>
      </Button>
      <Button className="banner-close" aria-label={t`Dismiss`} onPress={() => setDismissed(true)}>
        ×
      </Button>
    </div>
  );
}
