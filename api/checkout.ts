import { z } from "zod";
import { Plan } from "./plans";

/**
 * One-time purchases through a checkout session (SPEC §2 Lifetime-deal purchase, §6, §7; issue 16): a lifetime
 * deal (Tier 1–3) and the watermark-free 1080p export of one project. The client names what it buys; the
 * price is the server's catalogue's.
 */

/** SPEC §3 Lifetime tiers: ltd_tier1…3; the purchase route names them tier1…3 (SPEC §7 `ltd_tier={tier}`). */
export const LIFETIME_TIERS = ["tier1", "tier2", "tier3"] as const;
export const LifetimeTier = z.enum(LIFETIME_TIERS);
export type LifetimeTier = z.infer<typeof LifetimeTier>;
/** The plan id of a lifetime tier (also the user's ltd_tier once bought). */
export const lifetimePlanId = (tier: LifetimeTier) => `ltd_${tier}` as const;

/** `tier2`, or the plan's own name `ltd_tier2` (SPEC §3 Lifetime tiers). */
export const LtdCheckoutQuery = z.object({ ltd_tier: z.string().max(16).transform((v) => v.replace(/^ltd_/, "")).pipe(LifetimeTier) });
export const VideoCheckoutQuery = z.object({ project: z.coerce.number().int().positive() });

/** A checkout session: the page to pay on (SPEC §9: the app goes there 2 s after it loads). */
export const CheckoutSession = z.object({ id: z.string(), url: z.string() });
export type CheckoutSession = z.infer<typeof CheckoutSession>;

/** What can be bought once: the lifetime plans (prices and limits) and the one-project export's price. */
export const CheckoutOffers = z.object({
  lifetime: z.array(Plan),
  video_export: z.object({ amount: z.number().int() }),
});
export type CheckoutOffers = z.infer<typeof CheckoutOffers>;

/** SPEC §7 PUT /user/wizard/toggle/{value}: the lifetime welcome modal shows (1) or not (0). */
export const WizardToggleParams = z.object({ value: z.enum(["0", "1"]) });
