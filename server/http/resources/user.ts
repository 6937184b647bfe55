import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Accounts } from "../../services/accounts";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** Accounts: SPEC §7 User. */
export function userRoutes(app: FastifyInstance, hooks: RouteHooks, accounts: Accounts) {
  registerRoutes(app, hooks, {
    "user.register": ({ body, request }) => accounts.register(body, request.ip),
    "user.login": ({ body }) => accounts.login(body),
    "user.logout": ({ request }) => accounts.logout(request.apiToken!),
    "user.get": ({ request }) => accounts.get(currentUser(request)),
    "user.update": ({ body, request }) => accounts.update(currentUser(request), body),
    "user.rename": ({ body, request }) => accounts.update(currentUser(request), body),
    "user.locale": ({ params, request }) => accounts.update(currentUser(request), { locale: params.locale }),
    "user.renderNotifications": ({ params, request }) =>
      accounts.update(currentUser(request), { render_notifications: params.value === "1" ? 1 : 0 }),
    "user.resendEmail": ({ request }) => accounts.resendVerification(currentUser(request)),
    "user.limits": ({ request }) => accounts.limits(currentUser(request)),
    "user.quotas": ({ request }) => accounts.quotas(currentUser(request)),
    "user.handoff": ({ request }) => accounts.createHandoffCode(currentUser(request)),
    "handoff.exchange": ({ body }) => accounts.exchangeHandoffCode(body.code),
  });

  // The link in the verification email: a page visit, so it answers with a redirect into the app.
  const VerifyQuery = z.object({ expires: z.coerce.number().int(), signature: z.string().max(200) });
  app.get<{ Params: { id: string }; Querystring: unknown }>(
    "/user/email/verify/:id",
    { schema: { hide: true } as never },
    async (request, reply) => {
      const query = VerifyQuery.safeParse(request.query);
      const id = Number(request.params.id);
      const status =
        query.success && Number.isInteger(id) ? await accounts.verifyEmail(id, query.data.expires, query.data.signature) : "invalid";
      return reply.redirect(`/verify-email?status=${status}`, 303);
    },
  );
}
