import type { CutroomDb } from "../src/db";
import type { PasswordChangeBody, PendingEmail, ResetPasswordBody } from "../api/account";
import type { User } from "../api/user";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";

/**
 * The rest of the account (issue 16): name, e-mail and password changes, other devices, the data export,
 * the account's deletion, and the password reset by e-mail. A pending e-mail change is mirrored in Dexie.
 */
export function createAccountActions(db: CutroomDb, call: ApiCall) {
  const keepPending = async (result: Result<PendingEmail>) => {
    if (result.ok) await db.meta.put({ key: "pendingEmail", value: result.data });
    return result;
  };
  const keepUser = async (result: Result<User>) => {
    if (result.ok) await db.users.put({ ...result.data, key: "me" });
    return result;
  };
  return {
    renameUser: async (firstName: string, lastName: string) => keepUser(await call("user.rename", { body: { first_name: firstName, last_name: lastName } })),
    requestEmailChange: async (email: string, password: string) => keepPending(await call("user.changeEmail", { body: { email, password } })),
    refreshPendingEmail: async () => keepPending(await call("user.pendingEmail")),
    cancelEmailChange: async () => keepPending(await call("user.cancelEmailChange")),
    changePassword: (body: PasswordChangeBody) => call("user.changePassword", { body }),
    signOutOtherDevices: () => call("user.signOutOthers"),
    /** A short-lived link the page hands to the browser as a plain download. */
    dataExportLink: () => call("user.exportData"),
    /** Deleted: everything of the account leaves this device too. */
    async deleteAccount(password: string) {
      const result = await call("user.delete", { body: { password } });
      if (result.ok) await db.signOutLocally();
      return result;
    },
    forgotPassword: (email: string) => call("user.forgotPassword", { body: { email } }),
    /** A reset signs out every session, this device's too: the mirror forgets the user at once. */
    async resetPassword(body: ResetPasswordBody) {
      const result = await call("user.resetPassword", { body });
      if (result.ok) await db.signOutLocally();
      return result;
    },
  };
}
