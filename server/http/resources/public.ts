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

type PublicDeps = { config: Config; db: Db; captcha: CaptchaProvider; vapidPublicKey: string | null };

/** The server's public set-up (`GET /config`), also written into the app shell for a first visit (issue 18). */
export async function publicConfig({ config, db, captcha, vapidPublicKey }: PublicDeps) {
  return {
    captcha: { provider: captcha.name, recaptchaSiteKey: config.captcha.recaptchaSiteKey },
    links: config.links,
    sunsetRedirectUrl: config.sunsetRedirectUrl,
    betaHost: config.betaHost,
    push: { vapidPublicKey },
    youtube: { available: config.youtube !== null },
    promotion: await publicPromotion(db, config.promotion, Date.now()),
  };
}

/** What anyone may read: the server's public set-up, the captcha challenge, plans. */
export function publicRoutes(app: FastifyInstance, hooks: RouteHooks, deps: PublicDeps) {
  const { db, captcha } = deps;
  registerRoutes(app, hooks, {
    "config.get": () => publicConfig(deps),
    "captcha.challenge": async () => {
      const challenge = await captcha.challenge();
      if (!challenge) throw notFound("This server does not use a proof-of-work captcha");
      return challenge;
    },
    "plans.list": async ({ query }) => (await listPlans(db, query.interval)).map(toPlan),
    "plans.free": async () => toPlan((await findPlan(db, FREE_PLAN_ID))!),
  });
}
