import { z } from "zod";

/**
 * Deals-marketplace licences and the user's support-chat and referral hashes (SPEC §3, §7; issue 16).
 */

/** POST /user/licence/redeem: a code from the marketplace (spaces and case do not matter). */
export const LicenceRedeemBody = z.object({ code: z.string().trim().min(1, { error: "required" }).max(128, { error: "too_long" }) }).strict();

/** SPEC §7 GET /user/appsumo/upgradelink: the marketplace's page where the licence changes tier. */
export const UpgradeLink = z.object({ url: z.string() });

/** SPEC §7 GET /user/tawkto/hash and /user/impact/hash: an HMAC-SHA256, hex. */
export const UserHash = z.object({ hash: z.string() });
