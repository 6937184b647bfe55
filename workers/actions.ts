import type { CutroomDb } from "../src/db";
import type { Locale } from "../api/locales";
import type { RegisterBody, User } from "../api/user";
import type { ApiCall } from "./api-client";
import { solveAltcha } from "./captcha";
import type { Result } from "./status";

type RegisterInput = Omit<RegisterBody, "g-recaptcha-response">;

/** Every action a view can ask of the sync worker. Views never call fetch. */
export function createActions(db: CutroomDb, call: ApiCall) {
  const storeUser = async (user: User) => {
    await db.users.put({ ...user, key: "me" });
  };

  const actions = {
    /** Loads the server's public set-up and, when signed in, the user. Works offline from the mirror. */
    async boot(): Promise<void> {
      const config = await call("config.get");
      if (config.ok) await db.meta.put({ key: "config", value: config.data });
      if (await db.auth.get("token")) await actions.refreshUser();
    },

    async login(email: string, password: string) {
      await db.signOutLocally();
      const result = await call("user.login", { body: { email, password } });
      if (result.ok) {
        const { api_token, ...user } = result.data;
        await db.transaction("rw", db.users, db.auth, async () => {
          await db.auth.put({ key: "token", token: api_token });
          await storeUser(user);
        });
        return { ok: true, data: user } as const;
      }
      return result;
    },

    /** Solves the captcha when the server uses ALTCHA, then registers. */
    async register(input: RegisterInput, recaptchaToken?: string) {
      let captcha = recaptchaToken ?? "";
      const config = await db.config();
      if (!recaptchaToken && config?.captcha.provider !== "off") {
        const challenge = await call("captcha.challenge");
        if (!challenge.ok) return challenge;
        captcha = (await solveAltcha(challenge.data)) ?? "";
      }
      return call("user.register", { body: { ...input, "g-recaptcha-response": captcha } });
    },

    /** Clears the stored user at once (the views leave), then revokes the token on the server when it can. */
    async logout(): Promise<void> {
      await db.users.clear();
      await call("user.logout");
      await db.auth.clear();
    },

    async refreshUser() {
      const result = await call("user.get");
      if (result.ok) await storeUser(result.data);
      return result;
    },

    resendVerification: () => call("user.resendEmail"),

    /** Applies the language at once; the server keeps it for the next sign-in. */
    async setLocale(locale: Locale) {
      await db.users.update("me", { locale });
      const result = await call("user.locale", { params: { locale } });
      if (result.ok) await storeUser(result.data);
      return result;
    },

    async setRenderNotifications(on: boolean) {
      await db.users.update("me", { render_notifications: on ? 1 : 0 });
      const result = await call("user.renderNotifications", { params: { value: on ? "1" : "0" } });
      if (result.ok) await storeUser(result.data);
      return result;
    },

    /** The new-AI-version link, with a single-use code that expires in minutes. */
    async newAiVersionLink(): Promise<Result<string>> {
      const config = await db.config();
      const result = await call("user.handoff");
      if (!result.ok || !config) return result.ok ? { ok: false, failure: { kind: "network" } } : result;
      const url = new URL(config.links.newAiApp);
      url.searchParams.set("token", result.data.code);
      return { ok: true, data: url.toString() };
    },
  };
  return actions;
}

export type Actions = ReturnType<typeof createActions>;
