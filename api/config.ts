import { z } from "zod";
import { Promotion } from "./promotion";

/** What the server tells the app about how it is set up. Nothing secret. */
export const PublicConfig = z.object({
  captcha: z.object({
    provider: z.enum(["altcha", "recaptcha", "off"]),
    recaptchaSiteKey: z.string().nullable(),
  }),
  links: z.object({
    /** The newer AI version (banner and home notice); null: the operator hid them (NEW_AI_URL empty). */
    newAiApp: z.string().nullable(),
    /** The marketing site's pricing page; null: /pricing shows the in-app pricing view. */
    pricing: z.string().nullable(),
    /** An external billing app for users with no billing customer (SPEC §2 Account); null or absent: none. */
    billingApp: z.string().nullable().optional(),
    help: z.string(),
    contact: z.string(),
    terms: z.string(),
    /** An external password-reset page; null: the app's own reset by e-mail (/forgot-password). */
    forgotPassword: z.string().nullable(),
    /** The hosted AI product's link; null: hidden (AI_PRODUCT_URL empty). */
    aiProduct: z.string().nullable(),
    /** The home quick-tips video; null: hidden (TIPS_VIDEO_URL empty). */
    tipsVideo: z.string().nullable(),
  }),
  sunsetRedirectUrl: z.string().nullable(),
  betaHost: z.boolean(),
  /** Web Push: the VAPID public key to subscribe with; null when this server sends no pushes. */
  push: z.object({ vapidPublicKey: z.string().nullable() }),
  /** Video-site export: false when the server has no YouTube credentials (the app says it is temporarily unavailable). */
  youtube: z.object({ available: z.boolean() }).optional(),
  /** The seasonal promotion (issue 16) while its window has not ended; absent when none is configured. */
  promotion: Promotion.nullable().optional(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

/** An ALTCHA proof-of-work challenge. */
export const CaptchaChallenge = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  maxnumber: z.number().optional(),
  salt: z.string(),
  signature: z.string(),
});
export type CaptchaChallenge = z.infer<typeof CaptchaChallenge>;
