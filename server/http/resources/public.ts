import type { FastifyInstance } from "fastify";
import type { Config } from "../../config";
import type { Db } from "../../db";
import { findPlan, listPlans, toApiPlan } from "../../db/plans";
import { FREE_PLAN_ID } from "../../domain/plans";
import type { CaptchaProvider } from "../../services/captcha";
import { notFound } from "../../services/errors";
import { registerRoutes, type RouteHooks } from "../register";
import { publicPromotion } from "../../payments/promotion";

const toPlan = toApiPlan;

/** What anyone may read: the server's public set-up, the captcha challenge, plans. */
export function publicRoutes(app: FastifyInstance, hooks: RouteHooks, deps: { config: Config; db: Db; captcha: CaptchaProvider; vapidPublicKey: string | null }) {
  const { config, db, captcha } = deps;
  registerRoutes(app, hooks, {
    "config.get": async () => ({
      captcha: { provider: captcha.name, recaptchaSiteKey: config.captcha.recaptchaSiteKey },
      links: config.links,
      sunsetRedirectUrl: config.sunsetRedirectUrl,
      betaHost: config.betaHost,
      push: { vapidPublicKey: deps.vapidPublicKey },
      youtube: { available: config.youtube !== null },
      promotion: await publicPromotion(db, config.promotion, Date.now()),
    }),
    "captcha.challenge": async () => {
      const challenge = await captcha.challenge();
      if (!challenge) throw notFound("This server does not use a proof-of-work captcha");
      return challenge;
    },
    "plans.list": async ({ query }) => (await listPlans(db, query.interval)).map(toPlan),
    "plans.free": async () => toPlan((await findPlan(db, FREE_PLAN_ID))!),
  });
}
