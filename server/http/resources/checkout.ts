import type { I18n } from "@lingui/core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Accounts } from "../../services/accounts";
import type { Checkout } from "../../services/checkout";
import { CardError } from "../../payments/gateway";
import type { LocalGateway } from "../../payments/local-gateway";
import { checkoutPage } from "../../notify/checkout-page";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** One-time purchases (SPEC §7 stripe checkout ltd/video) and the lifetime welcome modal's toggle (issue 16). */
export function checkoutRoutes(app: FastifyInstance, hooks: RouteHooks, checkout: Checkout, accounts: Accounts) {
  registerRoutes(app, hooks, {
    "checkout.offers": () => checkout.offers(),
    "checkout.ltd": ({ query, request }) => checkout.lifetime(currentUser(request), query.ltd_tier),
    "checkout.video": ({ query, request }) => checkout.video(currentUser(request), query.project),
    "user.wizardToggle": async ({ params, request }) => {
      const userId = currentUser(request);
      await checkout.setWizard(userId, params.value === "1" ? 1 : 0);
      return accounts.get(userId);
    },
  });
}

const SessionId = z.object({ id: z.string().regex(/^cs_test_local_[0-9a-f]{24}$/) });
const PayForm = z.object({ number: z.string().max(32), expiry: z.string().max(16), cvc: z.string().max(8), name: z.string().max(255).optional() });
const AuthenticateForm = z.object({ outcome: z.enum(["complete", "fail"]) });

/** "MM / YY", "MM/YYYY", "MMYY" → month and year. */
function parseExpiry(text: string): { exp_month: number; exp_year: number } {
  const digits = text.replace(/\D/g, "");
  return { exp_month: Number(digits.slice(0, 2)), exp_year: Number(digits.slice(2)) };
}

/**
 * The local gateway's hosted checkout page (where Stripe Checkout's page would be): plain HTML that says TEST
 * MODE, the item and amount, a card form taking Stripe's test cards, Pay and Cancel. Paying completes the
 * session, which delivers `checkout.session.completed` to the webhook handler, then goes to the success URL.
 * Outside /api/v1; card details are never logged (the request log holds method and path only) nor stored.
 */
export function localCheckoutPages(app: FastifyInstance, gateway: LocalGateway, i18n: (locale: string) => I18n, perMinute: number) {
  const limit = { rateLimit: { max: perMinute, timeWindow: 60_000 } };
  const successUrl = (url: string, id: string) => url.replace("{CHECKOUT_SESSION_ID}", id);
  const html = (reply: import("fastify").FastifyReply, status: number, body: string) =>
    reply
      .status(status)
      .header("content-type", "text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
      .send(body);

  app.register(async (scope) => {
    // The page posts an ordinary HTML form.
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 8 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    scope.get("/local-gateway/checkout/:id", { schema: { hide: true } as never }, async (request, reply) => {
      const parsed = SessionId.safeParse(request.params);
      const session = parsed.success ? await gateway.checkoutSession(parsed.data.id) : null;
      if (!session) return html(reply, 404, checkoutPage(i18n("en"), null));
      if (session.status === "complete") return reply.redirect(successUrl(session.success_url, session.id), 303);
      return html(reply, 200, checkoutPage(i18n(session.metadata.locale ?? "en"), session));
    });

    scope.post("/local-gateway/checkout/:id", { config: limit, schema: { hide: true } as never }, async (request, reply) => {
      const parsed = SessionId.safeParse(request.params);
      const form = PayForm.safeParse(request.body);
      const session = parsed.success ? await gateway.checkoutSession(parsed.data.id) : null;
      if (!session) return html(reply, 404, checkoutPage(i18n("en"), null));
      const page = i18n(session.metadata.locale ?? "en");
      if (session.status === "complete") return reply.redirect(successUrl(session.success_url, session.id), 303);
      if (!form.success) return html(reply, 400, checkoutPage(page, { ...session, last_error: { code: "incorrect_number", message: "Your card number is incorrect." } }));
      try {
        const { number, expiry, cvc, name } = form.data;
        const paid = await gateway.payCheckout(session.id, { number, cvc, name: name ?? null, ...parseExpiry(expiry) });
        if (paid.requires_action) return html(reply, 200, checkoutPage(page, paid));
        return reply.redirect(successUrl(paid.success_url, paid.id), 303);
      } catch (error) {
        if (!(error instanceof CardError)) throw error;
        const again = (await gateway.checkoutSession(session.id)) ?? session;
        return html(reply, 402, checkoutPage(page, again));
      }
    });

    scope.post("/local-gateway/checkout/:id/authenticate", { config: limit, schema: { hide: true } as never }, async (request, reply) => {
      const parsed = SessionId.safeParse(request.params);
      const form = AuthenticateForm.safeParse(request.body);
      const session = parsed.success ? await gateway.checkoutSession(parsed.data.id) : null;
      if (!session || !form.success) return html(reply, 404, checkoutPage(i18n("en"), null));
      const page = i18n(session.metadata.locale ?? "en");
      try {
        const done = await gateway.authenticateCheckout(session.id, form.data.outcome);
        return reply.redirect(successUrl(done.success_url, done.id), 303);
      } catch (error) {
        if (!(error instanceof CardError)) throw error;
        return html(reply, 402, checkoutPage(page, (await gateway.checkoutSession(session.id)) ?? session));
      }
    });
  });
}
