import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ErrorBody } from "../../../api/errors";
import { CardError } from "../../payments/gateway";
import type { LocalGateway } from "../../payments/local-gateway";
import type { Payments } from "../../services/payments";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** Plans, subscriptions, cards and coupons of the signed-in user (SPEC §7, issue 16). */
export function paymentRoutes(app: FastifyInstance, hooks: RouteHooks, payments: Payments) {
  registerRoutes(app, hooks, {
    "payment.coupon": ({ query }) => payments.checkCoupon(query.code, query.plan),
    "subscription.get": ({ request }) => payments.info(currentUser(request)),
    "subscription.update": ({ body, request }) => payments.updateSubscription(currentUser(request), body),
    "paymentMethods.list": ({ request }) => payments.listMethods(currentUser(request)),
    "paymentMethods.add": ({ body, request }) => payments.addMethod(currentUser(request), body.payment_method),
    "paymentMethods.remove": ({ params, request }) => payments.removeMethod(currentUser(request), params.id),
    "payment.setupIntent": ({ request }) => payments.setupIntent(currentUser(request)),
  });

  // The gateway's webhook (Stripe's, or the local gateway's events over HTTP): the signature covers the
  // exact bytes, so this route reads its body as text.
  app.register(async (scope) => {
    scope.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    scope.post("/payment/webhook", { schema: { hide: true } as never }, async (request, reply) => {
      const signature = request.headers["stripe-signature"];
      const result = await payments.handleWebhook(String(request.body ?? ""), typeof signature === "string" ? signature : undefined);
      return reply.send(result);
    });
  });
}

const Card = z.object({
  number: z.string().max(32),
  exp_month: z.coerce.number().int(),
  exp_year: z.coerce.number().int(),
  cvc: z.string().max(8),
});
const ConfirmSetupBody = z.object({ client_secret: z.string().max(255), card: Card, billing_details: z.object({ name: z.string().max(255).nullish() }).optional() });
const AuthenticateBody = z.object({ client_secret: z.string().max(255), outcome: z.enum(["complete", "fail"]) });

/**
 * The local gateway's own endpoints, where Stripe.js would send card details: outside /api/v1, never
 * logged with their bodies (the request log holds method and path only), authorised by the intent's
 * client secret as Stripe.js is. Card errors answer Stripe's shape: `{ error: { code, message } }`.
 */
export function localGatewayRoutes(app: FastifyInstance, gateway: LocalGateway, perMinute: number) {
  const limit = { rateLimit: { max: perMinute, timeWindow: 60_000 } };
  const refuse = (error: unknown) => {
    if (error instanceof CardError) return { status: error.code === "resource_missing" ? 404 : 402, body: { error: { code: error.code, message: error.message } } };
    throw error;
  };
  const badRequest = { message: "Bad request", code: "bad_request" } satisfies ErrorBody;

  app.post("/local-gateway/v1/setup_intents/confirm", { config: limit, schema: { hide: true } as never }, async (request, reply) => {
    const parsed = ConfirmSetupBody.safeParse(request.body);
    if (!parsed.success) return reply.status(400).send(badRequest);
    try {
      const { card, billing_details } = parsed.data;
      return reply.send(await gateway.confirmSetup(parsed.data.client_secret, { ...card, name: billing_details?.name ?? null }));
    } catch (error) {
      const refused = refuse(error);
      return reply.status(refused.status).send(refused.body);
    }
  });

  app.post("/local-gateway/v1/intents/authenticate", { config: limit, schema: { hide: true } as never }, async (request, reply) => {
    const parsed = AuthenticateBody.safeParse(request.body);
    if (!parsed.success) return reply.status(400).send(badRequest);
    try {
      return reply.send(await gateway.authenticate(parsed.data.client_secret, parsed.data.outcome));
    } catch (error) {
      const refused = refuse(error);
      return reply.status(refused.status).send(refused.body);
    }
  });
}
