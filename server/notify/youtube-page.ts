import type { I18n } from "@lingui/core";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page the consent window lands on after Google: says whether YouTube is connected, in the user's language. */
export function youtubeCallbackPage(i18n: I18n, outcome: { connected: true } | { connected: false; reason: "denied" | "expired" | "failed" }): string {
  const title = outcome.connected
    ? i18n._({ id: "youtube.callback.connected", message: "YouTube is connected" })
    : i18n._({ id: "youtube.callback.not_connected", message: "YouTube was not connected" });
  const body = outcome.connected
    ? i18n._({ id: "youtube.callback.connected.body", message: "Cutroom can now upload your finished videos to your channel. You can close this window." })
    : outcome.reason === "denied"
      ? i18n._({ id: "youtube.callback.denied", message: "You did not allow Cutroom to upload to your channel. Close this window and try again from Cutroom if you change your mind." })
      : outcome.reason === "expired"
        ? i18n._({ id: "youtube.callback.expired", message: "This connection request has expired or was already used. Close this window and connect again from Cutroom." })
        : i18n._({ id: "youtube.callback.failed", message: "Google did not confirm the connection. Close this window and try again from Cutroom in a few minutes." });
  return `<!doctype html>
<html lang="${escapeHtml(i18n.locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1f}h1{font-size:1.4rem}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></main></body>
</html>`;
}
