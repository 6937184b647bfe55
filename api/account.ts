import { z } from "zod";
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from "./limits";

/**
 * The rest of the account (issue 16): e-mail and password changes, other devices, deletion, the data
 * export and the password reset by e-mail. Field messages are SPEC §5's (api/user.ts uses the same codes).
 */

const email = () =>
  z
    .string({ error: "required" })
    .trim()
    .min(1, { error: "required" })
    .max(EMAIL_MAX, { error: "too_long" })
    .pipe(z.email({ error: "email_invalid" }));

/** The password the user has now: only checked against the stored one. */
const currentPassword = () => z.string({ error: "required" }).min(1, { error: "required" }).max(PASSWORD_MAX, { error: "too_long" });

/** A new password: SPEC §5's rules (at least 8, at most 255). */
const newPassword = () =>
  z
    .string({ error: "required" })
    .min(1, { error: "required" })
    .min(PASSWORD_MIN, { error: "password_short" })
    .max(PASSWORD_MAX, { error: "too_long" });

const confirmation = () => z.string({ error: "required" }).max(PASSWORD_MAX, { error: "too_long" });

/** The confirmation check runs even when the password itself failed, so every message shows at once. */
const samePasswords = {
  path: ["password_confirmation"],
  message: "passwords_different",
  when: (payload: { value: unknown }) => {
    const value = payload.value as Record<string, unknown> | undefined;
    return typeof value?.password === "string" && typeof value?.password_confirmation === "string";
  },
};

/** POST /user/email: the new address, confirmed by the current password. */
export const EmailChangeBody = z.object({ email: email(), password: currentPassword() });
export type EmailChangeBody = z.infer<typeof EmailChangeBody>;

/** A change of address waiting for its link to be opened; null fields when none is. */
export const PendingEmail = z.object({ email: z.string().nullable(), expires_at: z.string().nullable() });
export type PendingEmail = z.infer<typeof PendingEmail>;

/** POST /user/password: the current password, then the new one twice. */
export const PasswordChangeBody = z
  .object({ current_password: currentPassword(), password: newPassword(), password_confirmation: confirmation() })
  .refine((v) => v.password_confirmation === v.password, samePasswords);
export type PasswordChangeBody = z.input<typeof PasswordChangeBody>;

/** POST /user/delete: deleting everything is confirmed by the password. */
export const AccountDeleteBody = z.object({ password: currentPassword() });

/** POST /user/password/forgot. */
export const ForgotPasswordBody = z.object({ email: email() });

/** POST /user/password/reset: the token from the mailed link and the new password twice. */
export const ResetPasswordBody = z
  .object({ token: z.string().min(1).max(200), password: newPassword(), password_confirmation: confirmation() })
  .refine((v) => v.password_confirmation === v.password, samePasswords);
export type ResetPasswordBody = z.input<typeof ResetPasswordBody>;

/** How many other sessions were signed out. */
export const SessionsRevoked = z.object({ msg: z.string(), revoked: z.number().int() });

/** GET /user/export: a short-lived link to the zip of the user's data (a plain browser download, no bearer header). */
export const DataExportLink = z.object({ url: z.string(), filename: z.string(), expires_at: z.string() });
export type DataExportLink = z.infer<typeof DataExportLink>;

export { EMAIL_CHANGE_STATUSES, type EmailChangeStatus } from "./email-change";

/** How long the mailed links stay good. */
export const PASSWORD_RESET_TTL_MINUTES = 60;
export const EMAIL_CHANGE_TTL_HOURS = 24;
