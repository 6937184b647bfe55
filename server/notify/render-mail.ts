import type { I18n } from "@lingui/core";
import type { PushKind } from "../../api/push";
import type { Mail } from "./mail";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The render-finished e-mail (SPEC §3 render_notifications), in the user's language. */
export function renderFinishedMail(i18n: I18n, to: string, firstName: string, kind: PushKind, projectName: string, link: string): Mail {
  const name = projectName;
  const subject =
    kind === "render_ready" ? i18n._({ id: "mail.render.ready.subject", message: "“{name}” is rendered", values: { name } })
    : kind === "preview_ready" ? i18n._({ id: "mail.render.preview.subject", message: "The preview of “{name}” is ready", values: { name } })
    : i18n._({ id: "mail.render.failed.subject", message: "“{name}” could not be rendered", values: { name } });
  const body =
    kind === "render_ready" ? i18n._({ id: "mail.render.ready.body", message: "Your video “{name}” is rendered and ready to download and share.", values: { name } })
    : kind === "preview_ready" ? i18n._({ id: "mail.render.preview.body", message: "The preview of “{name}” is ready to watch. Refine its storyboard, then export it.", values: { name } })
    : i18n._({ id: "mail.render.failed.body", message: "The render of “{name}” did not finish. Open the storyboard to try again.", values: { name } });
  const action =
    kind === "render_ready" ? i18n._({ id: "mail.render.ready.action", message: "Download and share" })
    : kind === "preview_ready" ? i18n._({ id: "mail.render.preview.action", message: "Open the project" })
    : i18n._({ id: "mail.render.failed.action", message: "Open the storyboard" });
  const greeting = i18n._({ id: "mail.render.greeting", message: "Hi {firstName},", values: { firstName } });
  const settings = i18n._({
    id: "mail.render.settings",
    message: "You get this e-mail because render notifications are on. Turn them off in the account menu or in the project's options.",
  });
  return {
    to,
    subject,
    template: `render-${kind}`,
    links: [link],
    text: `${greeting}\n\n${body}\n\n${action}: ${link}\n\n${settings}\n`,
    html:
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p>${escapeHtml(settings)}</p>`,
  };
}
