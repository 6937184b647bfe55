import type { CutroomDb } from "../src/db";
import type { LifetimeTier } from "../api/checkout";
import type { ApiCall } from "./api-client";

/**
 * Issue 16, one-time purchases: the lifetime tiers and the one-project export's price (read fresh: they are
 * money), a checkout session to pay on (the view then leaves for its page), and the lifetime welcome modal's
 * flag, stored at once so /account stops showing the modal.
 */
export function createCheckoutActions(db: CutroomDb, call: ApiCall, refreshAccount: () => Promise<unknown>) {
  return {
    checkoutOffers: () => call("checkout.offers"),
    startLifetimeCheckout: (tier: LifetimeTier) => call("checkout.ltd", { query: { ltd_tier: tier } }),
    startVideoCheckout: (projectId: number) => call("checkout.video", { query: { project: projectId } }),

    /** After the payment page: the user (ltd_tier), quotas and limits again, so the lifetime tier shows at once. */
    refreshAfterPurchase: refreshAccount,

    async setWelcomeWizard(show: boolean) {
      if (show === false) await db.users.update("me", { show_wizard: 0 });
      const result = await call("user.wizardToggle", { params: { value: show ? "1" : "0" } });
      if (result.ok) await db.users.put({ ...result.data, key: "me" });
      return result;
    },
  };
}
