import type { CutroomDb } from "../src/db";
import type { ApiCall } from "./api-client";

/**
 * The /account page's billing data (issue 16): the plan's limits, the subscription and the saved cards,
 * mirrored in Dexie so the page shows what was last known when the connection is gone. Card details never
 * pass here: the card form gives them to the gateway (Stripe.js or the local gateway) and saves only the
 * payment method's id.
 */
export function createPaymentActions(db: CutroomDb, call: ApiCall) {
  const fetchedAt = () => new Date().toISOString();
  const actions = {
    async refreshLimits() {
      const result = await call("user.limits");
      if (result.ok) await db.meta.put({ key: "limits", value: { ...result.data, fetchedAt: fetchedAt() } });
      return result;
    },
    async refreshSubscription() {
      const result = await call("subscription.get");
      if (result.ok) await db.meta.put({ key: "subscription", value: { ...result.data, fetchedAt: fetchedAt() } });
      return result;
    },
    async refreshPaymentMethods() {
      const result = await call("paymentMethods.list");
      if (result.ok) await db.meta.put({ key: "paymentMethods", value: { data: result.data.data, fetchedAt: fetchedAt() } });
      return result;
    },
    /** A setup intent's client secret for the card form, and which gateway takes the card. */
    paymentSetupIntent: () => call("payment.setupIntent"),
    /** Saves a card the gateway confirmed (by its payment method id), then lists the cards again. */
    async addPaymentMethod(paymentMethod: string) {
      const result = await call("paymentMethods.add", { body: { payment_method: paymentMethod } });
      if (result.ok) await actions.refreshPaymentMethods();
      return result;
    },
    async removePaymentMethod(id: string) {
      const result = await call("paymentMethods.remove", { params: { id } });
      if (result.ok) await db.meta.put({ key: "paymentMethods", value: { data: result.data.data, fetchedAt: fetchedAt() } });
      return result;
    },
  };
  return actions;
}
