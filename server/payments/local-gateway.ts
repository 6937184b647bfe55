import { createHmac, randomBytes } from "node:crypto";
import type { Db } from "../db";
import { INCOMPLETE_EXPIRY_MS, PAST_DUE_GRACE_MS, DAY_MS, addInterval, discounted, prorationCharge } from "../domain/billing";
import {
  CardError,
  signWebhook,
  verifyWebhookSignature,
  type Clock,
  type GatewayCard,
  type GatewayCheckoutSession,
  type GatewayEvent,
  type GatewayInvoice,
  type GatewayPrice,
  type GatewaySubscription,
  type PaymentGateway,
} from "./gateway";

/**
 * The local gateway (issue 16): Stripe's semantics with no processor behind it, for self-hosters and
 * tests. It never takes real money, so the card form says "test mode" while it answers (mode "test").
 * Card details reach only its own endpoint (`confirmSetup`, which stands where Stripe.js would be): it keeps
 * the brand, last four digits, expiry and how the test card behaves, never the number.
 *
 * Test cards (Stripe's): 4242 4242 4242 4242 and 5555 5555 5555 4444 succeed; 4000 0000 0000 0002 is
 * declined when saved (card_declined); 4000 0000 0000 0341 saves but every charge is declined;
 * 4000 0027 6000 3184 needs a 3-D Secure confirmation on every setup and charge. Any other number is
 * declined as Stripe's test mode declines a real card.
 */

type Behaviour = "succeeds" | "charge_declines" | "authenticate";

const TEST_CARDS: Record<string, { brand: string; behaviour: Behaviour | "declined" }> = {
  "4242424242424242": { brand: "visa", behaviour: "succeeds" },
  "5555555555554444": { brand: "mastercard", behaviour: "succeeds" },
  "4000000000000002": { brand: "visa", behaviour: "declined" },
  "4000000000000341": { brand: "visa", behaviour: "charge_declines" },
  "4000002760003184": { brand: "visa", behaviour: "authenticate" },
};

/** Stripe's words for card errors, so the app shows what a Stripe user would see. */
export const CARD_MESSAGES = {
  card_declined: "Your card was declined.",
  live_card_in_test_mode: "Your card was declined. Your request was in test mode, but used a non test card.",
  incorrect_number: "Your card number is incorrect.",
  invalid_expiry_month: "Your card's expiration month is invalid.",
  invalid_expiry_year: "Your card's expiration year is invalid.",
  expired_card: "Your card has expired.",
  invalid_cvc: "Your card's security code is invalid.",
  authentication_failed: "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
  authentication_required: "Your card requires authentication: confirm the payment to finish it.",
  payment_method_missing: "There is no payment method to charge.",
} as const;

interface StoredCard extends GatewayCard {
  customer: string;
  behaviour: Behaviour;
  /** Usable once its setup intent succeeded (after 3-D Secure for the cards that need it). */
  ready: boolean;
}

interface SetupIntentObject {
  id: string;
  client_secret: string;
  customer: string;
  status: "requires_payment_method" | "requires_action" | "succeeded";
  payment_method: string | null;
  last_setup_error: { code: string; message: string } | null;
}

interface PaymentIntentObject {
  id: string;
  client_secret: string;
  customer: string;
  amount: number;
  invoice: string;
  payment_method: string | null;
  status: "succeeded" | "requires_action" | "requires_payment_method";
  last_payment_error: { code: string; message: string } | null;
}

interface InvoiceObject extends Omit<GatewayInvoice, "payment_intent"> {
  payment_intent: string | null;
  created: number;
  /** What paying it changes: an upgrade waits for its payment (Stripe's pending_if_incomplete). */
  pending_update: { price: GatewayPrice; period_start: number; period_end: number } | null;
}

interface SubscriptionObject extends Omit<GatewaySubscription, "latest_invoice"> {
  latest_invoice: string | null;
  created: number;
  past_due_since: number | null;
  /** The tick pass that took it last (see `claim`). */
  claim?: string;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** Luhn's checksum, as every card field checks. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  name?: string | null;
}

/** A card as Stripe's test mode judges it: the problem's code, or how the test card behaves. */
export function judgeTestCard(input: CardInput, now: Date): { problem: keyof typeof CARD_MESSAGES } | { brand: string; behaviour: Behaviour | "declined" } {
  const number = input.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) return { problem: "incorrect_number" };
  if (!(input.exp_month >= 1 && input.exp_month <= 12)) return { problem: "invalid_expiry_month" };
  const year = input.exp_year < 100 ? 2000 + input.exp_year : input.exp_year;
  if (year < now.getUTCFullYear() || year > now.getUTCFullYear() + 50) return { problem: "invalid_expiry_year" };
  if (year === now.getUTCFullYear() && input.exp_month < now.getUTCMonth() + 1) return { problem: "expired_card" };
  if (!/^\d{3,4}$/.test(input.cvc)) return { problem: "invalid_cvc" };
  return TEST_CARDS[number] ?? { problem: "live_card_in_test_mode" };
}

/** The local gateway's checkout session (its hosted test-mode page takes the card). */
export interface LocalCheckoutSession extends GatewayCheckoutSession {
  name: string;
  success_url: string;
  cancel_url: string;
  /** A 3-D Secure test card waits for the page's confirmation step. */
  requires_action: boolean;
  last_error: { code: string; message: string } | null;
  created: number;
}

export interface LocalGatewayDeps {
  db: Db;
  clock: Clock;
  /** Signs the webhook events it delivers (the handler checks them as it checks Stripe's). */
  webhookSecret: string;
  /** Where card details are posted (the app's card form reads it). */
  cardEndpoint: string;
  /** Where its hosted checkout pages are (default: beside cardEndpoint, /local-gateway/checkout). */
  checkoutPages?: string;
}

export function createLocalGateway(deps: LocalGatewayDeps) {
  const { db, clock } = deps;
  let sink: ((rawBody: string, signature: string) => Promise<void>) | null = null;
  const nowS = () => Math.floor(clock.now() / 1000);

  async function load<T>(id: string, kind: string): Promise<T | null> {
    const row = await db.selectFrom("local_gateway_objects").select("data").where("id", "=", id).where("kind", "=", kind).executeTakeFirst();
    return row ? (JSON.parse(row.data) as T) : null;
  }
  async function save(kind: string, object: { id: string; customer?: string | null }): Promise<void> {
    const now = new Date(clock.now()).toISOString();
    const data = JSON.stringify(object);
    await db
      .insertInto("local_gateway_objects")
      .values({ id: object.id, kind, customer: object.customer ?? null, data, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column("id").doUpdateSet({ data, updated_at: now }))
      .execute();
  }

  async function expandInvoice(id: string | null): Promise<GatewayInvoice | null> {
    if (!id) return null;
    const invoice = await load<InvoiceObject>(id, "invoice");
    if (!invoice) return null;
    const intent = invoice.payment_intent ? await load<PaymentIntentObject>(invoice.payment_intent, "payment_intent") : null;
    const { pending_update: _p, created: _c, ...rest } = invoice;
    return {
      ...rest,
      payment_intent: intent ? { id: intent.id, status: intent.status, client_secret: intent.client_secret, last_payment_error: intent.last_payment_error } : null,
    };
  }

  async function expand(sub: SubscriptionObject): Promise<GatewaySubscription> {
    const { created: _c, past_due_since: _p, claim: _claim, ...rest } = sub;
    return { ...rest, latest_invoice: await expandInvoice(sub.latest_invoice) };
  }

  /** Delivers an event to the webhook handler, signed as Stripe signs (awaited: state is settled when a call returns). */
  async function emit(type: GatewayEvent["type"], object: GatewayEvent["data"]["object"]): Promise<void> {
    const event: GatewayEvent = { id: newId("evt_local"), type, created: nowS(), data: { object } };
    const raw = JSON.stringify(event);
    if (sink) await sink(raw, signWebhook(deps.webhookSecret, raw, nowS()));
  }

  async function emitSubscription(sub: SubscriptionObject, type: GatewayEvent["type"] = "customer.subscription.updated") {
    await emit(type, await expand(sub));
  }

  async function emitInvoice(invoiceId: string) {
    const invoice = await expandInvoice(invoiceId);
    if (!invoice) return;
    const status = invoice.payment_intent?.status;
    const type = invoice.status === "paid" ? "invoice.paid" : status === "requires_action" ? "invoice.payment_action_required" : "invoice.payment_failed";
    await emit(type, invoice);
  }

  /** Charges a card for an invoice: the test card decides (declines, 3-D Secure, success). */
  async function charge(invoice: InvoiceObject, paymentMethod: string | null): Promise<void> {
    if (invoice.amount_due === 0) {
      invoice.status = "paid";
      return;
    }
    const card = paymentMethod ? await load<StoredCard>(paymentMethod, "payment_method") : null;
    const intent: PaymentIntentObject = {
      id: newId("pi_local"),
      client_secret: "",
      customer: invoice.customer,
      amount: invoice.amount_due,
      invoice: invoice.id,
      payment_method: card?.ready ? card.id : null,
      status: "requires_payment_method",
      last_payment_error: null,
    };
    intent.client_secret = `${intent.id}_secret_${randomBytes(12).toString("hex")}`;
    if (!card?.ready) intent.last_payment_error = { code: "payment_method_missing", message: CARD_MESSAGES.payment_method_missing };
    else if (card.behaviour === "succeeds") intent.status = "succeeded";
    else if (card.behaviour === "authenticate") {
      intent.status = "requires_action";
      intent.last_payment_error = { code: "authentication_required", message: CARD_MESSAGES.authentication_required };
    } else intent.last_payment_error = { code: "card_declined", message: CARD_MESSAGES.card_declined };
    invoice.payment_intent = intent.id;
    if (intent.status === "succeeded") invoice.status = "paid";
    await save("payment_intent", intent);
  }

  function newInvoice(sub: SubscriptionObject, price: GatewayPrice, amount: number, reason: GatewayInvoice["billing_reason"]): InvoiceObject {
    const discount = sub.discount;
    return {
      id: newId("in_local"),
      subscription: sub.id,
      customer: sub.customer,
      price: price.id,
      amount_due: discounted(amount, discount?.percent_off),
      percent_off: discount?.percent_off ?? null,
      coupon: discount?.coupon ?? null,
      billing_reason: reason,
      status: "open",
      payment_intent: null,
      created: clock.now(),
      pending_update: null,
    };
  }

  /** What paying an invoice does to its subscription. */
  async function settlePaid(sub: SubscriptionObject, invoice: InvoiceObject): Promise<void> {
    if (invoice.pending_update) {
      sub.price = invoice.pending_update.price;
      sub.current_period_start = invoice.pending_update.period_start;
      sub.current_period_end = invoice.pending_update.period_end;
      sub.pending_price = null;
      sub.cancel_at_period_end = false;
      invoice.pending_update = null;
    }
    if (sub.status !== "trialing") sub.status = "active";
    sub.past_due_since = null;
  }

  /** One period end: cancel, or renew and charge (a missing card ends the subscription: the user goes to Free). */
  async function renew(sub: SubscriptionObject): Promise<void> {
    if (sub.cancel_at_period_end) {
      sub.status = "canceled";
      await save("subscription", sub);
      await emitSubscription(sub, "customer.subscription.deleted");
      return;
    }
    const price = sub.pending_price ?? sub.price;
    sub.price = price;
    sub.pending_price = null;
    sub.current_period_start = sub.current_period_end;
    sub.current_period_end = Math.floor(addInterval(sub.current_period_end * 1000, price.interval) / 1000);
    if (sub.status === "trialing") sub.status = "active";
    const invoice = newInvoice(sub, price, price.amount, "subscription_cycle");
    // A coupon takes off one billing cycle only.
    sub.discount = null;
    await charge(invoice, sub.default_payment_method);
    sub.latest_invoice = invoice.id;
    await save("invoice", invoice);
    if (invoice.status === "paid") {
      await settlePaid(sub, invoice);
    } else if (!sub.default_payment_method) {
      sub.status = "canceled";
    } else {
      sub.status = "past_due";
      sub.past_due_since = clock.now();
    }
    await save("subscription", sub);
    await emitInvoice(invoice.id);
    await emitSubscription(sub, sub.status === "canceled" ? "customer.subscription.deleted" : "customer.subscription.updated");
  }

  async function mustSubscription(id: string): Promise<SubscriptionObject> {
    const sub = await load<SubscriptionObject>(id, "subscription");
    if (!sub || sub.status === "canceled") throw new Error(`No such subscription: ${id}`);
    return sub;
  }

  async function usableCard(customer: string, id: string): Promise<StoredCard | null> {
    const card = await load<StoredCard>(id, "payment_method");
    return card && card.customer === customer && card.ready ? card : null;
  }

  const gateway: PaymentGateway & {
    setWebhookSink(handler: (rawBody: string, signature: string) => Promise<void>): void;
    confirmSetup(clientSecret: string, card: CardInput): Promise<{ id: string; status: SetupIntentObject["status"]; payment_method: string | null; last_setup_error: SetupIntentObject["last_setup_error"] }>;
    authenticate(clientSecret: string, outcome: "complete" | "fail"): Promise<{ id: string; status: string; last_error: { code: string; message: string } | null }>;
    tick(): Promise<number>;
    checkoutSession(id: string): Promise<LocalCheckoutSession | null>;
    payCheckout(id: string, card: CardInput): Promise<LocalCheckoutSession>;
    authenticateCheckout(id: string, outcome: "complete" | "fail"): Promise<LocalCheckoutSession>;
  } = {
    name: "local",
    mode: "test",
    publishableKey: null,
    cardEndpoint: deps.cardEndpoint,

    setWebhookSink(handler) {
      sink = handler;
    },

    async createCustomer({ email, userId }) {
      const customer = { id: newId("cus_local"), customer: null, email, metadata: { user_id: userId } };
      await save("customer", customer);
      return { id: customer.id };
    },

    async updateCustomerEmail(id, email) {
      const customer = await load<{ id: string; customer: null; email: string }>(id, "customer");
      if (customer) {
        customer.email = email;
        await save("customer", customer);
      }
    },

    async createSetupIntent(customer) {
      const intent: SetupIntentObject = { id: newId("seti_local"), client_secret: "", customer, status: "requires_payment_method", payment_method: null, last_setup_error: null };
      intent.client_secret = `${intent.id}_secret_${randomBytes(16).toString("hex")}`;
      await save("setup_intent", intent);
      return { id: intent.id, client_secret: intent.client_secret };
    },

    /** The card form's call (where Stripe.js's confirmCardSetup would go): checks the card like Stripe's test mode. */
    async confirmSetup(clientSecret, input) {
      const intent = await intentBySecret<SetupIntentObject>(clientSecret, "setup_intent");
      if (!intent || intent.status === "succeeded") throw new CardError("resource_missing", "No such setup intent");
      const number = input.number.replace(/[\s-]/g, "");
      const now = new Date(clock.now());
      const fail = async (code: keyof typeof CARD_MESSAGES, stripeCode: string = code) => {
        intent.last_setup_error = { code: stripeCode, message: CARD_MESSAGES[code] };
        intent.status = "requires_payment_method";
        await save("setup_intent", intent);
        throw new CardError(stripeCode, CARD_MESSAGES[code]);
      };
      if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) return fail("incorrect_number");
      if (!(input.exp_month >= 1 && input.exp_month <= 12)) return fail("invalid_expiry_month");
      const year = input.exp_year < 100 ? 2000 + input.exp_year : input.exp_year;
      if (year < now.getUTCFullYear() || year > now.getUTCFullYear() + 50) return fail("invalid_expiry_year");
      if (year === now.getUTCFullYear() && input.exp_month < now.getUTCMonth() + 1) return fail("expired_card");
      if (!/^\d{3,4}$/.test(input.cvc)) return fail("invalid_cvc");
      const test = TEST_CARDS[number];
      if (!test) return fail("live_card_in_test_mode", "card_declined");
      if (test.behaviour === "declined") return fail("card_declined");
      const card: StoredCard = {
        id: newId("pm_local"),
        customer: intent.customer,
        brand: test.brand,
        last4: number.slice(-4),
        exp_month: input.exp_month,
        exp_year: year,
        name: input.name?.trim() || null,
        behaviour: test.behaviour,
        ready: test.behaviour !== "authenticate",
      };
      await save("payment_method", card);
      intent.payment_method = card.id;
      intent.status = card.ready ? "succeeded" : "requires_action";
      intent.last_setup_error = null;
      await save("setup_intent", intent);
      return { id: intent.id, status: intent.status, payment_method: card.id, last_setup_error: null };
    },

    /** The 3-D Secure step the card form completes (Stripe.js's handleCardAction / the bank's page). */
    async authenticate(clientSecret, outcome) {
      if (clientSecret.startsWith("seti_")) {
        const intent = await intentBySecret<SetupIntentObject>(clientSecret, "setup_intent");
        if (!intent || intent.status !== "requires_action" || !intent.payment_method) throw new CardError("resource_missing", "Nothing to authenticate");
        if (outcome === "complete") {
          const card = (await load<StoredCard>(intent.payment_method, "payment_method"))!;
          card.ready = true;
          await save("payment_method", card);
          intent.status = "succeeded";
        } else {
          intent.status = "requires_payment_method";
          intent.last_setup_error = { code: "setup_intent_authentication_failure", message: CARD_MESSAGES.authentication_failed };
          intent.payment_method = null;
        }
        await save("setup_intent", intent);
        return { id: intent.id, status: intent.status, last_error: intent.last_setup_error };
      }
      const intent = await intentBySecret<PaymentIntentObject>(clientSecret, "payment_intent");
      if (!intent || intent.status !== "requires_action") throw new CardError("resource_missing", "Nothing to authenticate");
      const invoice = (await load<InvoiceObject>(intent.invoice, "invoice"))!;
      const sub = (await load<SubscriptionObject>(invoice.subscription, "subscription"))!;
      // An expired or cancelled subscription's payment can no longer be confirmed (Stripe cancels its intent).
      if (invoice.status !== "open" || sub.status === "canceled") throw new CardError("resource_missing", "This payment can no longer be confirmed");
      if (outcome === "complete") {
        intent.status = "succeeded";
        intent.last_payment_error = null;
        invoice.status = "paid";
        await settlePaid(sub, invoice);
      } else {
        intent.status = "requires_payment_method";
        intent.last_payment_error = { code: "payment_intent_authentication_failure", message: CARD_MESSAGES.authentication_failed };
        // A refused upgrade leaves the subscription as it was (Stripe's pending_if_incomplete).
        invoice.pending_update = null;
        if (invoice.billing_reason === "subscription_update") invoice.status = "uncollectible";
      }
      await save("payment_intent", intent);
      await save("invoice", invoice);
      await save("subscription", sub);
      await emitInvoice(invoice.id);
      await emitSubscription(sub);
      return { id: intent.id, status: intent.status, last_error: intent.last_payment_error };
    },

    async attachPaymentMethod(customer, paymentMethod) {
      const card = await usableCard(customer, paymentMethod);
      if (!card) return null;
      return { id: card.id, brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year, name: card.name };
    },

    async detachPaymentMethod(customer, paymentMethod) {
      const card = await load<StoredCard>(paymentMethod, "payment_method");
      if (!card || card.customer !== customer) return;
      await db.deleteFrom("local_gateway_objects").where("id", "=", card.id).execute();
      // A subscription charging this card has none from now on (its renewal fails: SPEC's downgrade to Free).
      const subs = await db.selectFrom("local_gateway_objects").select("data").where("kind", "=", "subscription").where("customer", "=", customer).execute();
      for (const row of subs) {
        const sub = JSON.parse(row.data) as SubscriptionObject;
        if (sub.default_payment_method === card.id) {
          sub.default_payment_method = null;
          await save("subscription", sub);
        }
      }
    },

    async createSubscription({ customer, price, paymentMethod, trialDays, coupon }) {
      const card = await usableCard(customer, paymentMethod);
      if (!card) throw new CardError("resource_missing", "No such payment method");
      const now = nowS();
      const sub: SubscriptionObject = {
        id: newId("sub_local"),
        customer,
        status: "incomplete",
        price,
        pending_price: null,
        trial_end: trialDays > 0 ? Math.floor((clock.now() + trialDays * DAY_MS) / 1000) : null,
        current_period_start: now,
        current_period_end: 0,
        cancel_at_period_end: false,
        default_payment_method: card.id,
        discount: coupon ? { coupon: coupon.code, percent_off: coupon.percent_off } : null,
        latest_invoice: null,
        created: clock.now(),
        past_due_since: null,
      };
      if (sub.trial_end) {
        // A trial charges nothing now; the first invoice (with the coupon, if any) comes at its end.
        sub.status = "trialing";
        sub.current_period_end = sub.trial_end;
        await save("subscription", sub);
        await emitSubscription(sub, "customer.subscription.created");
        return expand(sub);
      }
      sub.current_period_end = Math.floor(addInterval(clock.now(), price.interval) / 1000);
      const invoice = newInvoice(sub, price, price.amount, "subscription_create");
      sub.discount = null;
      await charge(invoice, card.id);
      sub.latest_invoice = invoice.id;
      if (invoice.status === "paid") sub.status = "active";
      await save("invoice", invoice);
      await save("subscription", sub);
      await emitSubscription(sub, "customer.subscription.created");
      await emitInvoice(invoice.id);
      return expand(sub);
    },

    async changePrice({ subscription, price, when, paymentMethod, coupon }) {
      const sub = await mustSubscription(subscription);
      const card = await usableCard(sub.customer, paymentMethod);
      if (!card) throw new CardError("resource_missing", "No such payment method");
      sub.default_payment_method = card.id;
      if (coupon) sub.discount = { coupon: coupon.code, percent_off: coupon.percent_off };
      if (when === "period_end") {
        sub.pending_price = price;
        sub.cancel_at_period_end = false;
        await save("subscription", sub);
        await emitSubscription(sub);
        return expand(sub);
      }
      if (sub.status === "trialing") {
        // During a trial an upgrade changes the plan and nothing is charged until the trial ends.
        sub.price = price;
        sub.pending_price = null;
        sub.cancel_at_period_end = false;
        await save("subscription", sub);
        await emitSubscription(sub);
        return expand(sub);
      }
      const now = clock.now();
      const sameInterval = price.interval === sub.price.interval;
      const amount = prorationCharge({
        oldAmount: sub.price.amount,
        newAmount: price.amount,
        sameInterval,
        periodStart: sub.current_period_start * 1000,
        periodEnd: sub.current_period_end * 1000,
        now,
      });
      const invoice = newInvoice(sub, price, amount, "subscription_update");
      invoice.pending_update = {
        price,
        period_start: sameInterval ? sub.current_period_start : Math.floor(now / 1000),
        period_end: sameInterval ? sub.current_period_end : Math.floor(addInterval(now, price.interval) / 1000),
      };
      await charge(invoice, card.id);
      sub.latest_invoice = invoice.id;
      if (invoice.status === "paid") {
        sub.discount = null;
        await settlePaid(sub, invoice);
      } else if (invoice.payment_intent && (await load<PaymentIntentObject>(invoice.payment_intent, "payment_intent"))?.status === "requires_payment_method") {
        // Declined: the subscription stays as it was; the coupon waits for a charge that goes through.
        invoice.pending_update = null;
        invoice.status = "uncollectible";
      } else {
        // Waiting for 3-D Secure: the coupon is spent on this invoice whether or not it is confirmed.
        sub.discount = null;
      }
      await save("invoice", invoice);
      await save("subscription", sub);
      await emitInvoice(invoice.id);
      await emitSubscription(sub);
      return expand(sub);
    },

    async setCancelAtPeriodEnd(subscription, cancel) {
      const sub = await mustSubscription(subscription);
      sub.cancel_at_period_end = cancel;
      if (cancel) sub.pending_price = null;
      await save("subscription", sub);
      await emitSubscription(sub);
      return expand(sub);
    },

    async setDefaultPaymentMethod(subscription, paymentMethod, options = {}) {
      const sub = await mustSubscription(subscription);
      const card = await usableCard(sub.customer, paymentMethod);
      if (!card) throw new CardError("resource_missing", "No such payment method");
      if (options.onlyIfNone && sub.default_payment_method) return expand(sub);
      sub.default_payment_method = card.id;
      await save("subscription", sub);
      await emitSubscription(sub);
      return expand(sub);
    },

    async payOpenInvoice(subscription, paymentMethod) {
      const sub = await mustSubscription(subscription);
      const card = await usableCard(sub.customer, paymentMethod);
      if (!card) throw new CardError("resource_missing", "No such payment method");
      sub.default_payment_method = card.id;
      const invoice = sub.latest_invoice ? await load<InvoiceObject>(sub.latest_invoice, "invoice") : null;
      if (!invoice || invoice.status !== "open") {
        await save("subscription", sub);
        return expand(sub);
      }
      await charge(invoice, card.id);
      if ((invoice.status as InvoiceObject["status"]) === "paid") await settlePaid(sub, invoice);
      await save("invoice", invoice);
      await save("subscription", sub);
      await emitInvoice(invoice.id);
      await emitSubscription(sub);
      return expand(sub);
    },

    async retrieveSubscription(subscription) {
      const sub = await load<SubscriptionObject>(subscription, "subscription");
      return sub ? expand(sub) : null;
    },

    async createCheckoutSession(input) {
      // Stripe answers the first session again for a repeated idempotency key.
      const key = `checkout_key_${createHmac("sha256", "idem").update(input.idempotencyKey).digest("hex").slice(0, 32)}`;
      const earlier = await load<{ id: string; session: string }>(key, "checkout_key");
      const existing = earlier ? await load<LocalCheckoutSession>(earlier.session, "checkout_session") : null;
      if (existing) return toPublicSession(existing);
      const id = newId("cs_test_local");
      const session: LocalCheckoutSession = {
        id,
        url: `${checkoutPages}/${id}`,
        status: "open",
        payment_status: "unpaid",
        amount_total: input.amount,
        customer: input.customer,
        metadata: { ...input.metadata },
        name: input.name,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        requires_action: false,
        last_error: null,
        created: clock.now(),
      };
      await save("checkout_session", session);
      const keyRecord = { id: key, session: id };
      await save("checkout_key", keyRecord);
      return toPublicSession(session);
    },

    checkoutSession: (id) => load<LocalCheckoutSession>(id, "checkout_session"),

    /** The hosted page's payment: the test card decides (declined, 3-D Secure, paid); paid delivers checkout.session.completed. */
    async payCheckout(id, card) {
      const session = await load<LocalCheckoutSession>(id, "checkout_session");
      if (!session || session.status !== "open") throw new CardError("resource_missing", "This checkout session is no longer open");
      const judged = judgeTestCard(card, new Date(clock.now()));
      const refuse = async (code: keyof typeof CARD_MESSAGES, stripeCode: string = code) => {
        session.last_error = { code: stripeCode, message: CARD_MESSAGES[code] };
        session.requires_action = false;
        await save("checkout_session", session);
        throw new CardError(stripeCode, CARD_MESSAGES[code]);
      };
      if ("problem" in judged) return judged.problem === "live_card_in_test_mode" ? refuse("live_card_in_test_mode", "card_declined") : refuse(judged.problem);
      if (judged.behaviour === "declined" || judged.behaviour === "charge_declines") return refuse("card_declined");
      if (judged.behaviour === "authenticate") {
        session.requires_action = true;
        session.last_error = null;
        await save("checkout_session", session);
        return session;
      }
      return completeCheckout(session);
    },

    async authenticateCheckout(id, outcome) {
      const session = await load<LocalCheckoutSession>(id, "checkout_session");
      if (!session || session.status !== "open" || !session.requires_action) throw new CardError("resource_missing", "Nothing to authenticate");
      if (outcome === "complete") return completeCheckout(session);
      session.requires_action = false;
      session.last_error = { code: "payment_intent_authentication_failure", message: CARD_MESSAGES.authentication_failed };
      await save("checkout_session", session);
      throw new CardError("payment_intent_authentication_failure", CARD_MESSAGES.authentication_failed);
    },

    verifyWebhook(rawBody, signature) {
      if (!verifyWebhookSignature(deps.webhookSecret, rawBody, signature, nowS())) return null;
      try {
        return JSON.parse(rawBody) as GatewayEvent;
      } catch {
        return null;
      }
    },

    /**
     * Runs what is due on the clock: trials that end and periods that renew (charged), past-due
     * subscriptions past their grace and first payments never confirmed (cancelled). Answers how many
     * subscriptions changed.
     */
    async tick() {
      // One pass at a time: two overlapping passes would renew a period twice.
      if (ticking) return ticking;
      ticking = tickOnce().finally(() => {
        ticking = null;
      });
      return ticking;
    },
  };

  let ticking: Promise<number> | null = null;
  const checkoutPages = deps.checkoutPages ?? `${deps.cardEndpoint.replace(/\/v1\/?$/, "")}/checkout`;

  function toPublicSession(session: LocalCheckoutSession): GatewayCheckoutSession {
    const { id, url, status, payment_status, amount_total, customer, metadata } = session;
    return { id, url, status, payment_status, amount_total, customer, metadata };
  }

  /** Paid: the session completes and its event reaches the webhook handler (awaited, as every event here). */
  async function completeCheckout(session: LocalCheckoutSession): Promise<LocalCheckoutSession> {
    session.status = "complete";
    session.payment_status = "paid";
    session.requires_action = false;
    session.last_error = null;
    await save("checkout_session", session);
    await emit("checkout.session.completed", toPublicSession(session));
    return session;
  }

  async function tickOnce(): Promise<number> {
    const rows = await db.selectFrom("local_gateway_objects").select(["id", "data"]).where("kind", "=", "subscription").execute();
    let changed = 0;
    for (const row of rows) {
      let raw = row.data;
      // A clock moved far ahead renews each period in turn (at most a few years' worth).
      for (let i = 0; i < 60; i += 1) {
        const sub = JSON.parse(raw) as SubscriptionObject;
        const now = clock.now();
        const action =
          sub.status === "canceled" ? null
          : sub.status === "incomplete" ? (now - sub.created >= INCOMPLETE_EXPIRY_MS ? "expire" : null)
          : sub.status === "past_due" && sub.past_due_since !== null && now - sub.past_due_since >= PAST_DUE_GRACE_MS ? "expire"
          : sub.status !== "past_due" && sub.current_period_end * 1000 <= now ? "renew"
          : null;
        if (!action || !(await claim(sub, raw))) break;
        changed += 1;
        if (action === "expire") {
          sub.status = "canceled";
          await save("subscription", sub);
          await emitSubscription(sub, "customer.subscription.deleted");
          break;
        }
        await renew(sub);
        raw = (await db.selectFrom("local_gateway_objects").select("data").where("id", "=", row.id).executeTakeFirstOrThrow()).data;
      }
    }
    return changed;
  }

  /**
   * Takes a due subscription for this pass only if nobody changed it since it was read: two servers on
   * one database (a restart's overlap) never renew the same period twice.
   */
  async function claim(sub: SubscriptionObject, raw: string): Promise<boolean> {
    sub.claim = newId("claim");
    const result = await db
      .updateTable("local_gateway_objects")
      .set({ data: JSON.stringify(sub) })
      .where("id", "=", sub.id)
      .where("data", "=", raw)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function intentBySecret<T extends { client_secret: string }>(clientSecret: string, kind: string): Promise<T | null> {
    const id = clientSecret.split("_secret_")[0] ?? "";
    const intent = await load<T>(id, kind);
    if (!intent) return null;
    // Compared in constant time: the secret is the only thing a card form holds.
    const a = createHmac("sha256", "cmp").update(intent.client_secret).digest();
    const b = createHmac("sha256", "cmp").update(clientSecret).digest();
    return a.equals(b) ? intent : null;
  }

  return gateway;
}

export type LocalGateway = ReturnType<typeof createLocalGateway>;
