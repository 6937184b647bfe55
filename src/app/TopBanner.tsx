import { Trans, useLingui } from "@lingui/react/macro";
import { Button } from "react-aria-components";
import { worker } from "../worker";
import { failureMessage } from "../features/errors";
import { toast } from "../ui/Toast";
import { BannerText } from "./BannerText";
import { useConfig, useCurrentUser } from "./hooks";

/** New projects are made in the newer AI version; hidden when the operator leaves NEW_AI_URL empty (issue 18). */
export function TopBanner() {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const config = useConfig();
  const href = config?.links.newAiApp;

  // Signed-in users get a single-use code in the link, never their api token.
  async function openSignedIn() {
    const tab = window.open("about:blank", "_blank");
    const result = await worker.newAiVersionLink();
    if (result.ok) {
      if (tab) tab.location.href = result.data;
      else window.location.href = result.data;
    } else {
      tab?.close();
      toast({ variant: "danger", title: t`Could not open the new version`, description: failureMessage(i18n, result.failure) });
    }
  }

  if (!href) return null;
  return (
    <div className="top-banner" role="region" aria-label={t`Announcement`}>
      <BannerText>
        <Trans>New projects are now created in our newer AI version.</Trans>
      </BannerText>
      {user ? (
        <Button className="banner-link" onPress={() => void openSignedIn()}>
          <Trans>Try the new version</Trans>
        </Button>
      ) : (
        <a className="banner-link" href={href} target="_blank" rel="noopener noreferrer">
          <Trans>Try the new version</Trans>
        </a>
      )}
    </div>
  );
}
