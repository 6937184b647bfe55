import type { FastifyInstance } from "fastify";
import type { Push } from "../../services/push";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** Web Push subscriptions of the signed-in user's browsers (SPEC §2 Service worker). */
export function pushRoutes(app: FastifyInstance, hooks: RouteHooks, push: Push) {
  registerRoutes(app, hooks, {
    "push.subscribe": ({ body, request }) => push.subscribe(currentUser(request), body),
    "push.unsubscribe": ({ body, request }) => push.unsubscribe(currentUser(request), body.endpoint),
  });
}
