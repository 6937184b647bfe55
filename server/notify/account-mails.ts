import type { I18n } from "@lingui/core";
import type { Mail } from "./mail";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Paragraphs and an optional action link, as text and HTML. */
function compose(to: string, subject: string, template: string, paragraphs: string[], action?: { label: string; link: string }, after: string[] = []): Mail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.link}`] : []), ...after].join("\n\n") + "\n";
  const html =
    paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") +
    (action ? `<p><a href="${escapeHtml(action.link)}">${escapeHtml(action.label)}</a></p>` : "") +
    after.map((p) => `<p>${escapeHtml(p)}</p>`).join("");
  return { to, subject, template, links: action ? [action.link] : [], text, html };
}

/** The password reset link (issue 16), valid 60 minutes, once. */
export function passwordResetMail(i18n: I18n, to: string, firstName: string, link: string): Mail {
  return compose(
    to,
    i18n._({ id: "mail.reset.subject", message: "Reset your Cutroom password" }),
    "password-reset",
    [
      i18n._({ id: "mail.reset.greeting", message: "Hi {firstName},", values: { firstName } }),
      i18n._({ id: "mail.reset.body", message: "Someone asked to reset the password of your Cutroom account. Open the link to choose a new password. It works once, within 60 minutes." }),
    ],
    { label: i18n._({ id: "mail.reset.action", message: "Choose a new password" }), link },
    [i18n._({ id: "mail.reset.ignore", message: "If you did not ask for this, ignore this message: your password stays as it is." })],
  );
}

/** Sent to the NEW address: the change takes effect once this link is opened (24 hours, once). */
export function emailChangeConfirmMail(i18n: I18n, to: string, firstName: string, link: string): Mail {
  return compose(
    to,
    i18n._({ id: "mail.emailChange.subject", message: "Confirm your new email for Cutroom" }),
    "email-change",
    [
      i18n._({ id: "mail.emailChange.greeting", message: "Hi {firstName},", values: { firstName } }),
      i18n._({ id: "mail.emailChange.body", message: "Open the link to make this the email address of your Cutroom account. Until then, your account keeps its current address. The link works once, within 24 hours." }),
    ],
    { label: i18n._({ id: "mail.emailChange.action", message: "Confirm new email" }), link },
    [i18n._({ id: "mail.emailChange.ignore", message: "If you did not ask for this, ignore this message." })],
  );
}

/** Sent to the CURRENT address when a change is asked for: the owner hears of it before it happens. */
export function emailChangeNoticeMail(i18n: I18n, to: string, firstName: string, newAddress: string): Mail {
  return compose(to, i18n._({ id: "mail.emailNotice.subject", message: "A change of your Cutroom email was requested" }), "email-change-notice", [
    i18n._({ id: "mail.emailNotice.greeting", message: "Hi {firstName},", values: { firstName } }),
    i18n._({
      id: "mail.emailNotice.body",
      message: "Someone signed in to your Cutroom account asked to change its email address to {newAddress}. Nothing changes unless the link sent to that address is opened.",
      values: { newAddress },
    }),
    i18n._({ id: "mail.emailNotice.action", message: "If this was not you, change your password in Cutroom and sign out of your other devices." }),
  ]);
}

/** After a password change or reset: the owner hears of it. */
export function passwordChangedMail(i18n: I18n, to: string, firstName: string): Mail {
  return compose(to, i18n._({ id: "mail.passwordChanged.subject", message: "Your Cutroom password was changed" }), "password-changed", [
    i18n._({ id: "mail.passwordChanged.greeting", message: "Hi {firstName},", values: { firstName } }),
    i18n._({ id: "mail.passwordChanged.body", message: "The password of your Cutroom account was just changed, and your other devices were signed out." }),
    i18n._({ id: "mail.passwordChanged.action", message: "If this was not you, reset your password from the sign-in page now." }),
  ]);
}
