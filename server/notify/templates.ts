import type { I18n } from "@lingui/core";
import type { Mail } from "./mail";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The verification email, in the user's language. */
export function verificationMail(i18n: I18n, to: string, firstName: string, link: string): Mail {
  const subject = i18n._({ id: "mail.verify.subject", message: "Confirm your email for Cutroom" });
  const greeting = i18n._({ id: "mail.verify.greeting", message: "Hi {firstName},", values: { firstName } });
  const body = i18n._({
    id: "mail.verify.body",
    message: "Confirm your email address to start editing with Cutroom. The link is valid for 24 hours.",
  });
  const action = i18n._({ id: "mail.verify.action", message: "Confirm email" });
  const ignore = i18n._({ id: "mail.verify.ignore", message: "If you did not create an account, ignore this message." });
  return {
    to,
    subject,
    template: "verification",
    links: [link],
    text: `${greeting}\n\n${body}\n\n${action}: ${link}\n\n${ignore}\n`,
    html:
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p>${escapeHtml(ignore)}</p>`,
  };
}
