import type { FastifyInstance } from "fastify";
import type { Config } from "../../config";
import type { Accounts } from "../../services/accounts";
import { createAnalytics } from "../../services/analytics";
import { createHomeFeed } from "../../services/home-feed";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** Issue 17: home's tips feed (HOME_FEED) and product events (ANALYTICS_URL), both read from the configuration. */
export function homeRoutes(app: FastifyInstance, hooks: RouteHooks, deps: { config: Config; accounts: Accounts }) {
  const log = { warn: (fields: Record<string, unknown>, message: string) => app.log.warn(fields, message) };
  const feed = createHomeFeed({ config: deps.config.homeFeed, log });
  const analytics = createAnalytics({ config: deps.config.analytics, publicUrl: deps.config.publicUrl, log });
  registerRoutes(app, { ...hooks, options: { ...hooks.options, "analytics.track": { rateLimit: { max: 120, timeWindow: "1 minute" } } } }, {
    "home.feed": async ({ request }) => feed.entries((await deps.accounts.get(currentUser(request))).locale),
    "analytics.track": async ({ body, request }) => analytics.track(body, { userAgent: request.headers["user-agent"], ip: request.ip }),
  });
}
