import { z } from "zod";
import { Locale } from "./locales";
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from "./limits";

const requiredText = (max: number) =>
  z.string({ error: "required" }).trim().min(1, { error: "required" }).max(max, { error: "too_long" });

const email = () =>
  requiredText(EMAIL_MAX).pipe(z.email({ error: "email_invalid" }));

const password = () =>
  z
    .string({ error: "required" })
    .min(1, { error: "required" })
    .min(PASSWORD_MIN, { error: "password_short" })
    .max(PASSWORD_MAX, { error: "too_long" });

/** A "must equal" check that still runs when other fields already failed, so every error shows at once. */
const sameAs = (field: string, other: string, message: "emails_different" | "passwords_different") => ({
  path: [field],
  message,
  when: (payload: { value: unknown }) => {
    const value = payload.value as Record<string, unknown> | undefined;
    return typeof value?.[field] === "string" && typeof value?.[other] === "string";
  },
});

/** The fields the form and the server share. */
const registrationFields = {
  locale: Locale,
  first_name: requiredText(NAME_MAX),
  last_name: requiredText(NAME_MAX),
  email: email(),
  password: password(),
  terms: z.literal(true, { error: "terms_required" }),
};

/** What POST /register carries (SPEC §3 Registration payload; confirm_email is not sent). */
export const RegisterBody = z
  .object({
    ...registrationFields,
    password_confirmation: z.string({ error: "required" }).max(PASSWORD_MAX, { error: "too_long" }),
    "g-recaptcha-response": z.string().max(20_000).default(""),
    referral: z.string().trim().max(64).nullish(),
    clickid: z.string().trim().max(255).nullish(),
  })
  .refine((v) => v.password_confirmation === v.password, sameAs("password_confirmation", "password", "passwords_different"));
export type RegisterBody = z.input<typeof RegisterBody>;

/** The registration form: the payload plus confirm_email, which never leaves the browser. */
export const RegisterForm = z
  .object({ ...registrationFields, confirm_email: z.string(), password_confirmation: z.string() })
  .refine((v) => v.confirm_email.trim().toLowerCase() === v.email.trim().toLowerCase(), sameAs("confirm_email", "email", "emails_different"))
  .refine((v) => v.password_confirmation === v.password, sameAs("password_confirmation", "password", "passwords_different"));
export type RegisterForm = z.input<typeof RegisterForm>;

export const RegisterResponse = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  created_at: z.string(),
  locale: Locale,
});

export const LoginBody = z.object({
  email: email(),
  password: z.string({ error: "required" }).min(1, { error: "required" }).max(PASSWORD_MAX, { error: "too_long" }),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** The signed-in user (SPEC §3 User). */
export const User = z.object({
  id: z.number().int(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  email_verified_at: z.string().nullable(),
  locale: Locale,
  video_tier: z.number().int(),
  created_at: z.string(),
  total_used_storage: z.number(),
  max_storage: z.number(),
  render_notifications: z.union([z.literal(0), z.literal(1)]),
  show_wizard: z.union([z.literal(0), z.literal(1)]),
  ltd_tier: z.string().nullable(),
  ltd_renew_at: z.string().nullable(),
  appsumo_license_uuid: z.string().nullable(),
  stripe_id: z.string().nullable(),
  plan: z.object({ id: z.string(), nickname: z.string() }),
  features: z.array(z.string()),
});
export type User = z.infer<typeof User>;

export const LoginResponse = User.extend({ api_token: z.string() });
export type LoginResponse = z.infer<typeof LoginResponse>;

export const ProfileBody = z
  .object({
    first_name: requiredText(NAME_MAX),
    last_name: requiredText(NAME_MAX),
    locale: Locale,
    render_notifications: z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => (v ? 1 : 0)),
  })
  .partial();

export const RenameBody = z.object({ first_name: requiredText(NAME_MAX), last_name: requiredText(NAME_MAX) });

export const Msg = z.object({ msg: z.string() });

export const Limits = z.object({
  plan: z.object({ id: z.string(), nickname: z.string() }),
  monthly_minutes: z.number(),
  video_tier: z.number().int(),
  storage_gb: z.number(),
  upload_max_length_minutes: z.number(),
  upload_max_size_mb: z.number(),
});
export type Limits = z.infer<typeof Limits>;

/** What the user still has (SPEC §3 Quotas). */
export const Quotas = z.object({
  uploadMaxSizeBytes: z.number(),
  uploadMaxLengthMinutes: z.number(),
  processingMinutes: z.number(),
  storageBytes: z.number(),
});
export type Quotas = z.infer<typeof Quotas>;

export const HandoffCode = z.object({ code: z.string(), expires_at: z.string() });
export const HandoffExchangeBody = z.object({ code: z.string().min(1).max(200) });
