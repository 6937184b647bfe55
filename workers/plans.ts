import type { CutroomDb } from "../src/db";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";
import type { CallOutput } from "../api/route";
import type { Routes } from "../api/routes";

type SubscriptionUpdate = CallOutput<Routes["subscription.update"]>;

/**
 * Issue 16, plan selection: plans (anyone may read them, mirrored per interval), coupons (always asked
 * fresh) and the plan change; what a plan change unlocks reaches
 * the mirror through `refreshAccount`, which re-reads the user (tier, storage), the quotas and the
 * subscription that every view reads (workers/payments.ts keeps the subscription and cards).
 */
export function createPlanActions(db: CutroomDb, call: ApiCall, refreshAccount: () => Promise<unknown>) {
  return {
    /** GET /payment/plans?interval (no sign-in needed), kept in the mirror so the last prices seen show offline. */
    async refreshPlans(interval: "month" | "year") {
      const result = await call("plans.list", { query: { interval } });
      if (result.ok) await db.meta.put({ key: `plans:${interval}`, value: { plans: result.data, fetchedAt: new Date().toISOString() } });
      return result;
    },
    checkCoupon: (code: string, plan: string) => call("payment.coupon", { query: { code, plan } }),

    /** PUT /user/payment/subscription; the user and quotas are re-read whatever the outcome (a trial or upgrade changes the tier). */
    async updateSubscription(plan: string, payment: string | null, coupon: string | null): Promise<Result<SubscriptionUpdate>> {
      const result = await call("subscription.update", { body: { plan, payment, coupon } });
      if (result.ok) await refreshAccount();
      return result;
    },

    /** After a 3-D Secure step or while a payment settles: the subscription, user, limits and quotas again. */
    refreshAccount: () => refreshAccount().then(() => undefined),
  };
}
