import type { CutroomDb } from "../src/db";
import type { ApiCall } from "./api-client";

/**
 * Issue 16, deals-marketplace licences: redeeming a code answers the user with the lifetime tier, stored
 * at once so every view (the plan picker goes, the Upgrade button goes, limits follow) sees it; the
 * marketplace's upgrade link is asked when the account page shows the licence.
 */
export function createLicenceActions(db: CutroomDb, call: ApiCall, refreshAccount: () => Promise<unknown>) {
  return {
    async redeemLicence(code: string) {
      const result = await call("licence.redeem", { body: { code } });
      if (result.ok) {
        await db.users.put({ ...result.data, key: "me" });
        await refreshAccount();
      }
      return result;
    },
    licenceUpgradeLink: () => call("appsumo.upgradeLink"),
  };
}
