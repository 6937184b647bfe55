import { createHmac } from "node:crypto";
import type { Db } from "../db";
import type { User } from "../../api/user";
import { findPlan } from "../db/plans";
import { findLicenceByCode } from "../db/licences";
import { findUserById } from "../db/users";
import { licenceTier, upgradeLink } from "../domain/licences";
import { lifetimePlanId, lifetimeTierNumber } from "../domain/plans";
import { DomainError, notFound } from "./errors";

export interface LicencesDeps {
  db: Db;
  /** The signed-in user as the API answers it (accounts.get). */
  toUser: (userId: number) => Promise<User>;
  /** APPSUMO_UPGRADE_URL: the marketplace's upgrade page, `{uuid}` the licence's uuid; null: none. */
  upgradeUrl: string | null;
  /** TAWKTO_SECRET and IMPACT_SECRET; null: that hash is absent. */
  secrets: { tawkto: string | null; impact: string | null };
  now?: () => number;
}

/** A subscription that still renews and gives its plan. */
const LIVE = ["trialing", "active", "past_due"] as const;

/**
 * Deals-marketplace licences (SPEC §1, §3, §6; issue 16) and the user's support-chat and referral hashes.
 * A redeemed code gives the account the lifetime tier `{product}_tierN`, whose limits are those of the
 * lifetime plan `ltd_tierN` (SPEC §9: 90 min per file, 5 GB per upload, 150 GB, 1080p, no watermark).
 */
export function createLicences(deps: LicencesDeps) {
  const { db } = deps;
  const now = () => new Date(deps.now?.() ?? Date.now()).toISOString();

  async function mustUser(userId: number) {
    const user = await findUserById(db, userId);
    if (!user) throw new DomainError("unauthenticated", "Please authenticate");
    return user;
  }

  const hmac = (secret: string, value: string) => createHmac("sha256", secret).update(value).digest("hex");

  return {
    /**
     * A valid unused code → the account's lifetime tier. The same user sending their own code again gets the
     * same answer (a retried request). A spent code never says who spent it. A paid subscription that still
     * renews is refused: its renewal must be cancelled first, so nobody keeps paying for a plan a licence replaces.
     */
    async redeem(userId: number, code: string): Promise<User> {
      await db.transaction().execute(async (trx) => {
        const user = await findUserById(trx, userId);
        if (!user) throw new DomainError("unauthenticated", "Please authenticate");
        const licence = await findLicenceByCode(trx, code);
        if (!licence) throw new DomainError("licence_invalid", "This licence code is not valid");
        if (licence.status !== "available") {
          if (licence.redeemed_by === userId && user.appsumo_license_uuid === licence.uuid) return;
          throw new DomainError("licence_used", "This licence code has already been redeemed");
        }
        if (lifetimeTierNumber(user.ltd_tier) >= licence.tier) throw new DomainError("licence_held", "The account already has this lifetime tier or a higher one");
        const renewing = await trx
          .selectFrom("subscriptions")
          .select("id")
          .where("user_id", "=", userId)
          .where("status", "in", [...LIVE])
          .where("cancel_at", "is", null)
          .executeTakeFirst();
        if (renewing) throw new DomainError("licence_subscription_active", "Cancel the paid subscription's renewal first, then redeem the licence");
        const tier = licenceTier(licence.product, licence.tier);
        const plan = await findPlan(trx, lifetimePlanId(tier)!);
        // The operator's catalogue has no lifetime plan for this tier (the import checks; a later plans file may not).
        if (!plan) throw new DomainError("licence_invalid", "This licence's tier is not offered on this server");
        const at = now();
        const claimed = await trx
          .updateTable("licences")
          .set({ status: "redeemed", redeemed_by: userId, redeemed_at: at, updated_at: at })
          .where("id", "=", licence.id)
          .where("status", "=", "available")
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw new DomainError("licence_used", "This licence code has already been redeemed");
        await trx.updateTable("users").set({ ltd_tier: tier, appsumo_license_uuid: licence.uuid, plan_id: plan.id, ltd_renew_at: null, updated_at: at }).where("id", "=", userId).execute();
      });
      return deps.toUser(userId);
    },

    /** SPEC §7: the marketplace's upgrade page for the user's licence; 404 without one or without APPSUMO_UPGRADE_URL. */
    async upgradeLink(userId: number) {
      const user = await mustUser(userId);
      if (!deps.upgradeUrl || !user.appsumo_license_uuid) throw notFound("No licence upgrade link");
      return { url: upgradeLink(deps.upgradeUrl, user.appsumo_license_uuid) };
    },

    /** tawk.to's secure mode: HMAC-SHA256 of the visitor's e-mail with the property's API key, hex. */
    async tawktoHash(userId: number) {
      const user = await mustUser(userId);
      if (!deps.secrets.tawkto) throw notFound("The support chat is not configured");
      return { hash: hmac(deps.secrets.tawkto, user.email) };
    },

    /** The referral programme's identity hash: HMAC-SHA256 of the user's id with IMPACT_SECRET, hex. */
    async impactHash(userId: number) {
      const user = await mustUser(userId);
      if (!deps.secrets.impact) throw notFound("The referral programme is not configured");
      return { hash: hmac(deps.secrets.impact, String(user.id)) };
    },
  };
}

export type Licences = ReturnType<typeof createLicences>;
