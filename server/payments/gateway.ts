import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The payments port (ARCHITECTURE "Payments"): the calls Cutroom makes to a card processor, shaped after
 * Stripe's API so the Stripe adapter is a thin mapping. Two adapters: the local gateway (default; Stripe's
 * test-card semantics, no real money) and Stripe (stripe-gateway.ts). The gateway runs the
 * subscription (trials, proration, renewals at period end) and tells us what happened through webhook
 * events, which reach one handler whichever adapter sent them.
 */

/** A price as our catalogue sets it: the gateway charges what we say, never what a client says. */
export interface GatewayPrice {
  /** Our plan id (Stripe: the price's lookup key). */
  id: string;
  amount: number;
  interval: "month" | "year";
}

export interface GatewayCard {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  name: string | null;
}

export interface GatewayInvoice {
  id: string;
  subscription: string;
  customer: string;
  price: string;
  amount_due: number;
  percent_off: number | null;
  coupon: string | null;
  billing_reason: "subscription_create" | "subscription_update" | "subscription_cycle";
  status: "open" | "paid" | "uncollectible";
  payment_intent: {
    id: string;
    status: "succeeded" | "requires_action" | "requires_payment_method" | "processing";
    client_secret: string;
    last_payment_error: { code: string; message: string } | null;
  } | null;
}

export interface GatewaySubscription {
  id: string;
  customer: string;
  status: "trialing" | "active" | "past_due" | "incomplete" | "canceled";
  price: GatewayPrice;
  /** A downgrade waiting for the period end. */
  pending_price: GatewayPrice | null;
  trial_end: number | null;
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: boolean;
  default_payment_method: string | null;
  /** A once-only coupon waiting for the next invoice. */
  discount: { coupon: string; percent_off: number } | null;
  latest_invoice: GatewayInvoice | null;
}

/**
 * A checkout session (Stripe Checkout, mode "payment"): a one-time purchase the buyer pays on the gateway's
 * own page. `metadata` is what we set when opening it (user_id, kind, plan or project).
 */
export interface GatewayCheckoutSession {
  id: string;
  /** The page the buyer pays on. */
  url: string;
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  amount_total: number;
  customer: string | null;
  metadata: Record<string, string>;
}

export interface GatewayEvent {
  id: string;
  type:
    | "customer.subscription.created"
    | "customer.subscription.updated"
    | "customer.subscription.deleted"
    | "invoice.paid"
    | "invoice.payment_failed"
    | "invoice.payment_action_required"
    | "checkout.session.completed"
    | "checkout.session.async_payment_succeeded";
  created: number;
  data: { object: GatewaySubscription | GatewayInvoice | GatewayCheckoutSession };
}

/** What a checkout session sells: one item at our catalogue's price, never a price the client sent. */
export interface CheckoutInput {
  customer: string;
  /** Our catalogue's id for the item (a lifetime plan's id, or "video_export"). */
  item: string;
  /** The buyer sees this on the payment page. */
  name: string;
  amount: number;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  /** One key per purchase attempt: a retried request opens no second session. */
  idempotencyKey: string;
}

/** A card error the gateway answers with (Stripe's `card_declined`, `authentication_required`…). */
export class CardError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PaymentGateway {
  readonly name: "local" | "stripe";
  readonly mode: "test" | "live";
  readonly publishableKey: string | null;
  /** Where the local gateway takes card details (null for Stripe: Stripe.js does). */
  readonly cardEndpoint: string | null;
  createCustomer(input: { email: string; name: string; userId: number }): Promise<{ id: string }>;
  /** The customer's address follows the account's (issue 16: receipts go to the new e-mail address). */
  updateCustomerEmail(customer: string, email: string): Promise<void>;
  createSetupIntent(customer: string): Promise<{ id: string; client_secret: string }>;
  /** A card confirmed through a setup intent, attached to this customer (someone else's card: null). */
  attachPaymentMethod(customer: string, paymentMethod: string): Promise<GatewayCard | null>;
  detachPaymentMethod(customer: string, paymentMethod: string): Promise<void>;
  createSubscription(input: {
    customer: string;
    price: GatewayPrice;
    paymentMethod: string;
    trialDays: number;
    coupon: { code: string; percent_off: number } | null;
  }): Promise<GatewaySubscription>;
  /** Now and prorated (`now`), or at the period end (`period_end`). */
  changePrice(input: {
    subscription: string;
    price: GatewayPrice;
    when: "now" | "period_end";
    paymentMethod: string;
    coupon: { code: string; percent_off: number } | null;
  }): Promise<GatewaySubscription>;
  /** Stops renewal at the period end (true), or takes that back (false). */
  setCancelAtPeriodEnd(subscription: string, cancel: boolean): Promise<GatewaySubscription>;
  /** The card a subscription's renewals charge (`onlyIfNone`: only when it has none). */
  setDefaultPaymentMethod(subscription: string, paymentMethod: string, options?: { onlyIfNone?: boolean }): Promise<GatewaySubscription>;
  /** Pays the open invoice again with this card (after a failure). */
  payOpenInvoice(subscription: string, paymentMethod: string): Promise<GatewaySubscription>;
  retrieveSubscription(subscription: string): Promise<GatewaySubscription | null>;
  /** A one-time purchase's checkout session; the `checkout.session.completed` webhook says when it is paid. */
  createCheckoutSession(input: CheckoutInput): Promise<GatewayCheckoutSession>;
  /** Checks a webhook's signature and answers its event; null when forged (Stripe's reads the invoice's payment too). */
  verifyWebhook(rawBody: string, signature: string | undefined): GatewayEvent | null | Promise<GatewayEvent | null>;
}

/** Stripe's webhook signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signWebhook(secret: string, rawBody: string, timestamp: number): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** Verifies Stripe's signature header within a tolerance (replays of old deliveries are refused too). */
export function verifyWebhookSignature(secret: string, rawBody: string, header: string | undefined, nowSeconds: number, toleranceSeconds = 300): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isFinite(t) || !parts.v1 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex"));
  const given = Buffer.from(parts.v1);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A clock the tests can move (renewals and trials run on it). */
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };
