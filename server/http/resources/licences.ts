import type { FastifyInstance } from "fastify";
import { createLicences } from "../../services/licences";
import type { AppDeps } from "../app";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** Deals-marketplace licences and the support-chat and referral hashes (SPEC §7, issue 16). Bodies are never logged. */
export function licenceRoutes(app: FastifyInstance, hooks: RouteHooks, deps: Pick<AppDeps, "db" | "config" | "accounts">) {
  const licences = createLicences({
    db: deps.db,
    toUser: (userId) => deps.accounts.get(userId),
    upgradeUrl: deps.config.licences.upgradeUrl,
    secrets: deps.config.userHashes,
  });
  registerRoutes(app, hooks, {
    "licence.redeem": ({ body, request }) => licences.redeem(currentUser(request), body.code),
    "appsumo.upgradeLink": ({ request }) => licences.upgradeLink(currentUser(request)),
    "user.tawktoHash": ({ request }) => licences.tawktoHash(currentUser(request)),
    "user.impactHash": ({ request }) => licences.impactHash(currentUser(request)),
  });
}
