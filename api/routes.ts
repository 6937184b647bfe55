import { z } from "zod";
import { route } from "./route";
import { CaptchaChallenge, PublicConfig } from "./config";
import { Locale } from "./locales";
import { Plan, PlanInterval } from "./plans";
import {
  HandoffCode,
  HandoffExchangeBody,
  Limits,
  LoginBody,
  LoginResponse,
  Msg,
  ProfileBody,
  Quotas,
  RegisterBody,
  RegisterResponse,
  RenameBody,
  User,
} from "./user";

/** The contract: every JSON call of the API, by name. Server and sync worker are both built from it. */
export const routes = {
  "config.get": route({ method: "GET", path: "/config", auth: "none", summary: "Public set-up of this server", response: PublicConfig }),
  "captcha.challenge": route({ method: "GET", path: "/captcha/challenge", auth: "none", summary: "A proof-of-work challenge for registration", response: CaptchaChallenge }),

  "user.register": route({ method: "POST", path: "/register", auth: "none", summary: "Create an account", body: RegisterBody, response: RegisterResponse, status: 201 }),
  "user.login": route({ method: "POST", path: "/user/login", auth: "none", summary: "Sign in; answers the user with a new api_token", body: LoginBody, response: LoginResponse }),
  "user.logout": route({ method: "POST", path: "/user/logout", auth: "user", summary: "Revoke the token used for this call", response: Msg }),
  "user.get": route({ method: "GET", path: "/user", auth: "user", summary: "The signed-in user", response: User }),
  "user.update": route({ method: "POST", path: "/user", auth: "user", summary: "Update the profile", body: ProfileBody, response: User }),
  "user.rename": route({ method: "PUT", path: "/user/rename", auth: "user", summary: "Change first and last name", body: RenameBody, response: User }),
  "user.locale": route({ method: "POST", path: "/user/locale/:locale", auth: "user", summary: "Save the interface language", params: z.object({ locale: Locale }), response: User }),
  "user.renderNotifications": route({
    method: "POST",
    path: "/user/settings/notifications/render/:value",
    auth: "user",
    summary: "Turn render notifications on (1) or off (0)",
    params: z.object({ value: z.enum(["0", "1"]) }),
    response: User,
  }),
  "user.resendEmail": route({ method: "GET", path: "/user/email/resend", auth: "user", summary: "Send the verification email again", response: Msg }),
  "user.limits": route({ method: "GET", path: "/user/limits", auth: "user", summary: "The limits of the user's plan", response: Limits }),
  "user.quotas": route({ method: "GET", path: "/user/quotas", auth: "user", summary: "What the user has left", response: Quotas }),
  "user.handoff": route({ method: "POST", path: "/user/handoff", auth: "user", summary: "A short-lived, single-use code for the new AI version link", response: HandoffCode }),
  "handoff.exchange": route({ method: "POST", path: "/handoff/exchange", auth: "none", summary: "Trade a handoff code for a session", body: HandoffExchangeBody, response: LoginResponse }),

  "plans.list": route({ method: "GET", path: "/payment/plans", auth: "none", summary: "Plans by billing interval", query: PlanInterval, response: z.array(Plan) }),
  "plans.free": route({ method: "GET", path: "/payment/freeplan", auth: "none", summary: "The free plan", response: Plan }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
