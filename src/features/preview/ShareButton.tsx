import { Trans, useLingui } from "@lingui/react/macro";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";

/** Copies this page's link for sharing; if the clipboard is not allowed, the toast shows the link. */
export function ShareButton() {
  const { t } = useLingui();
  async function share() {
    const link = window.location.href;
    try {
      await navigator.clipboard.writeText(link);
      toast({ variant: "success", title: t`Link copied`, description: link });
    } catch {
      toast({ variant: "info", title: t`Copy this link to share`, description: link });
    }
  }
  return (
    <Button variant="secondary" onPress={() => void share()}>
      <svg className="icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M4 12v7h16v-7M12 3v12M7 8l5-5 5 5" />
      </svg>
      <Trans>Share</Trans>
    </Button>
  );
}
