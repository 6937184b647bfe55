import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { CardError, type GatewayCard, type GatewayCheckoutSession, type GatewayEvent, type GatewayInvoice, type GatewayPrice, type GatewaySubscription, type PaymentGateway } from "./gateway";
import { CARD_MESSAGES } from "./local-gateway";

/**
 * The Stripe adapter (issue 16) behind the payments port, with the official SDK. Stripe runs trials,
 * proration and renewals; its webhooks (verified with the SDK's constructEvent) reach the same handler as
 * the local gateway's, translated to the port's shapes here.
 *
 * Plans → prices: a plan's `stripe_price` in the plans file, else the Stripe price whose lookup key is the
 * plan id. Coupons: a Stripe coupon whose id is our code (duration "once"). Downgrades at the period end
 * are a subscription schedule (the current price until the period ends, then the new one).
 */
export interface StripeGatewayDeps {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Plan id → Stripe price id, from the plans file (plans without one are found by lookup key). */
  prices: Record<string, string>;
  /** Tests only: a local server speaking Stripe's API. */
  apiUrl?: string | null;
  /** Milliseconds since the epoch, for the webhook signature's 5-minute tolerance (tests move it). */
  nowMs?: () => number;
}

export function createStripeGateway(deps: StripeGatewayDeps): PaymentGateway {
  const url = deps.apiUrl ? new URL(deps.apiUrl) : null;
  const stripe = new Stripe(deps.secretKey, {
    apiVersion: "2025-02-24.acacia",
    maxNetworkRetries: 2,
    ...(url ? { host: url.hostname, port: Number(url.port || (url.protocol === "https:" ? 443 : 80)), protocol: url.protocol.replace(":", "") as "http" | "https" } : {}),
  });
  const priceByPlan = new Map(Object.entries(deps.prices));
  const planByPrice = new Map(Object.entries(deps.prices).map(([plan, price]) => [price, plan]));

  async function priceOf(price: GatewayPrice): Promise<string> {
    const known = priceByPlan.get(price.id);
    if (known) return known;
    const found = await stripe.prices.list({ lookup_keys: [price.id], active: true, limit: 1 });
    const id = found.data[0]?.id;
    if (!id) throw new Error(`No Stripe price for plan ${price.id}: set its stripe_price in PLANS_FILE or a price with lookup key ${price.id}`);
    priceByPlan.set(price.id, id);
    planByPrice.set(id, price.id);
    return id;
  }

  function toPrice(price: Stripe.Price): GatewayPrice {
    return {
      id: planByPrice.get(price.id) ?? price.lookup_key ?? price.id,
      amount: price.unit_amount ?? 0,
      interval: price.recurring?.interval === "year" ? "year" : "month",
    };
  }

  const idOf = (value: string | { id: string } | null | undefined) => (value == null ? null : typeof value === "string" ? value : value.id);

  function toInvoice(invoice: Stripe.Invoice): GatewayInvoice {
    const intent = typeof invoice.payment_intent === "object" ? invoice.payment_intent : null;
    const line = invoice.lines?.data?.find((l) => l.price) ?? null;
    const coupon = invoice.discount?.coupon ?? null;
    const reason = invoice.billing_reason;
    return {
      id: invoice.id!,
      subscription: idOf(invoice.subscription) ?? "",
      customer: idOf(invoice.customer) ?? "",
      price: line?.price ? toPrice(line.price).id : "",
      amount_due: invoice.amount_due,
      percent_off: coupon?.percent_off ?? null,
      coupon: coupon?.id ?? null,
      billing_reason: reason === "subscription_create" || reason === "subscription_update" ? reason : "subscription_cycle",
      status: invoice.status === "paid" ? "paid" : invoice.status === "uncollectible" || invoice.status === "void" ? "uncollectible" : "open",
      payment_intent: intent
        ? {
            id: intent.id,
            status: intent.status === "succeeded" || intent.status === "requires_action" || intent.status === "processing" ? intent.status : "requires_payment_method",
            client_secret: intent.client_secret ?? "",
            last_payment_error: intent.last_payment_error ? { code: intent.last_payment_error.code ?? "card_declined", message: messageFor(intent.last_payment_error.code, intent.last_payment_error.message) } : null,
          }
        : null,
    };
  }

  function toSubscription(sub: Stripe.Subscription): GatewaySubscription {
    const price = toPrice(sub.items.data[0]!.price);
    // A scheduled downgrade is noted on the subscription's metadata; once its phase began it is the price.
    const pending = sub.metadata?.pending_plan && sub.metadata.pending_plan !== price.id ? sub.metadata.pending_plan : null;
    const status = sub.status;
    const coupon = sub.discount?.coupon ?? null;
    return {
      id: sub.id,
      customer: idOf(sub.customer)!,
      status:
        status === "trialing" || status === "active" || status === "past_due" || status === "incomplete" ? status
        // Unpaid (Stripe stopped retrying), expired first payments and paused trials give no plan: Free.
        : "canceled",
      price,
      pending_price: pending ? { id: pending, amount: 0, interval: price.interval } : null,
      trial_end: sub.trial_end,
      current_period_start: sub.current_period_start,
      current_period_end: sub.current_period_end,
      cancel_at_period_end: sub.cancel_at_period_end,
      default_payment_method: idOf(sub.default_payment_method),
      discount: coupon?.percent_off ? { coupon: coupon.id, percent_off: coupon.percent_off } : null,
      latest_invoice: sub.latest_invoice && typeof sub.latest_invoice === "object" ? toInvoice(sub.latest_invoice) : null,
    };
  }

  /** Stripe's card errors become the port's, worded as the local gateway words them. */
  async function call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) throw new CardError(error.code ?? "card_declined", messageFor(error.code, error.message));
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing") throw new CardError("resource_missing", "No such payment method");
      throw error;
    }
  }

  const EXPAND = ["latest_invoice.payment_intent"];
  const retrieve = (id: string) => call(() => stripe.subscriptions.retrieve(id, { expand: EXPAND }));

  return {
    name: "stripe",
    // Secret and restricted keys say which mode they are for; a test key makes the card form say "test mode".
    mode: /^(sk|rk)_live_/.test(deps.secretKey) ? "live" : "test",
    publishableKey: deps.publishableKey,
    cardEndpoint: null,

    async createCustomer({ email, name, userId }) {
      // A retried call (lost answer) gets the first customer again, not a second one.
      const customer = await call(() => stripe.customers.create({ email, name, metadata: { user_id: String(userId) } }, { idempotencyKey: `cutroom-customer-${userId}-${randomUUID()}` }));
      return { id: customer.id };
    },

    async updateCustomerEmail(customer, email) {
      await call(() => stripe.customers.update(customer, { email }));
    },

    async createSetupIntent(customer) {
      const intent = await call(() => stripe.setupIntents.create({ customer, usage: "off_session", payment_method_types: ["card"] }));
      return { id: intent.id, client_secret: intent.client_secret! };
    },

    async attachPaymentMethod(customer, paymentMethod): Promise<GatewayCard | null> {
      // Stripe.js confirmed the setup intent, which attached the card to its customer; another's card is not ours.
      const method = await call(() => stripe.paymentMethods.retrieve(paymentMethod)).catch((error) => {
        if (error instanceof CardError) return null;
        throw error;
      });
      if (!method || idOf(method.customer) !== customer || !method.card) return null;
      return { id: method.id, brand: method.card.brand, last4: method.card.last4, exp_month: method.card.exp_month, exp_year: method.card.exp_year, name: method.billing_details?.name ?? null };
    },

    async detachPaymentMethod(customer, paymentMethod) {
      const method = await stripe.paymentMethods.retrieve(paymentMethod).catch(() => null);
      if (!method || idOf(method.customer) !== customer) return;
      await call(() => stripe.paymentMethods.detach(paymentMethod));
    },

    async createSubscription({ customer, price, paymentMethod, trialDays, coupon }) {
      const priceId = await priceOf(price);
      const sub = await call(() =>
        stripe.subscriptions.create(
          {
            customer,
            items: [{ price: priceId }],
            default_payment_method: paymentMethod,
            ...(trialDays > 0 ? { trial_period_days: trialDays } : {}),
            ...(coupon ? { discounts: [{ coupon: coupon.code }] } : {}),
            payment_behavior: "allow_incomplete",
            metadata: { plan: price.id },
            expand: EXPAND,
          },
          // A retried request (network failure) must not open a second subscription.
          { idempotencyKey: `cutroom-sub-${customer}-${price.id}-${randomUUID()}` },
        ),
      );
      return toSubscription(sub);
    },

    async changePrice({ subscription, price, when, paymentMethod, coupon }) {
      const priceId = await priceOf(price);
      const current = await retrieve(subscription);
      const item = current.items.data[0]!;
      if (when === "now") {
        // A downgrade waiting in a schedule gives way to the upgrade (Stripe will not change a scheduled subscription's items).
        if (current.schedule) await call(() => stripe.subscriptionSchedules.release(idOf(current.schedule)!));
        const sub = await call(() =>
          stripe.subscriptions.update(subscription, {
            items: [{ id: item.id, price: priceId }],
            default_payment_method: paymentMethod,
            proration_behavior: "always_invoice",
            // An upgrade whose payment fails leaves the subscription as it was.
            payment_behavior: "pending_if_incomplete",
            ...(coupon ? { discounts: [{ coupon: coupon.code }] } : {}),
            metadata: { pending_plan: "" },
            expand: EXPAND,
          }),
        );
        return toSubscription(sub);
      }
      // At the period end: a schedule keeps this price until then and moves to the new one after.
      const scheduleId = idOf(current.schedule) ?? (await call(() => stripe.subscriptionSchedules.create({ from_subscription: subscription }))).id;
      await call(() =>
        stripe.subscriptionSchedules.update(scheduleId, {
          end_behavior: "release",
          phases: [
            { items: [{ price: item.price.id }], start_date: current.current_period_start, end_date: current.current_period_end },
            { items: [{ price: priceId }], ...(coupon ? { discounts: [{ coupon: coupon.code }] } : {}), default_payment_method: paymentMethod },
          ],
        }),
      );
      const sub = await call(() => stripe.subscriptions.update(subscription, { default_payment_method: paymentMethod, cancel_at_period_end: false, metadata: { pending_plan: price.id }, expand: EXPAND }));
      return toSubscription(sub);
    },

    async setCancelAtPeriodEnd(subscription, cancel) {
      const current = await retrieve(subscription);
      // A scheduled downgrade is dropped by a cancellation (Stripe refuses cancel_at_period_end on a scheduled subscription).
      if (cancel && current.schedule) await call(() => stripe.subscriptionSchedules.release(idOf(current.schedule)!));
      const sub = await call(() => stripe.subscriptions.update(subscription, { cancel_at_period_end: cancel, ...(cancel ? { metadata: { pending_plan: "" } } : {}), expand: EXPAND }));
      return toSubscription(sub);
    },

    async setDefaultPaymentMethod(subscription, paymentMethod, options = {}) {
      const current = await retrieve(subscription);
      if (options.onlyIfNone && current.default_payment_method) return toSubscription(current);
      return toSubscription(await call(() => stripe.subscriptions.update(subscription, { default_payment_method: paymentMethod, expand: EXPAND })));
    },

    async payOpenInvoice(subscription, paymentMethod) {
      await call(() => stripe.subscriptions.update(subscription, { default_payment_method: paymentMethod }));
      const current = await retrieve(subscription);
      const invoice = idOf(current.latest_invoice);
      const open = current.latest_invoice && typeof current.latest_invoice === "object" && current.latest_invoice.status === "open";
      // A decline is the invoice's outcome (its intent's last error), answered as the local gateway answers it.
      if (invoice && open) await call(() => stripe.invoices.pay(invoice, { payment_method: paymentMethod })).catch((error) => {
        if (!(error instanceof CardError) || error.code === "resource_missing") throw error;
      });
      return toSubscription(await retrieve(subscription));
    },

    async retrieveSubscription(subscription) {
      try {
        return toSubscription(await stripe.subscriptions.retrieve(subscription, { expand: EXPAND }));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing") return null;
        throw error;
      }
    },

    async createCheckoutSession(input) {
      // The operator's Stripe price for this item when the plans file names one, else our catalogue's amount.
      const price = priceByPlan.get(input.item);
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: "payment",
            customer: input.customer,
            line_items: [price ? { price, quantity: 1 } : { price_data: { currency: "usd", unit_amount: input.amount, product_data: { name: input.name } }, quantity: 1 }],
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            client_reference_id: input.metadata.user_id,
            metadata: input.metadata,
            payment_intent_data: { metadata: input.metadata },
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return toCheckoutSession(session);
    },

    async verifyWebhook(rawBody, signature) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature ?? "", deps.webhookSecret, 300, undefined, deps.nowMs?.());
      } catch {
        return null;
      }
      const base = { id: event.id, created: event.created };
      if (event.type.startsWith("customer.subscription.")) {
        return { ...base, type: event.type as GatewayEvent["type"], data: { object: toSubscription(event.data.object as Stripe.Subscription) } };
      }
      if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") {
        return { ...base, type: event.type, data: { object: toCheckoutSession(event.data.object) } };
      }
      if (event.type === "invoice.paid" || event.type === "invoice.payment_failed" || event.type === "invoice.payment_action_required") {
        // The event's invoice does not carry its payment's outcome: read it (with the intent) from Stripe.
        const invoice = await stripe.invoices.retrieve((event.data.object as Stripe.Invoice).id!, { expand: ["payment_intent"] });
        return { ...base, type: event.type, data: { object: toInvoice(invoice) } };
      }
      // Other events (customer.created, setup_intent.succeeded…) are acknowledged and recorded only.
      return { ...base, type: event.type as GatewayEvent["type"], data: { object: event.data.object as unknown as GatewayInvoice } };
    },
  };
}

function toCheckoutSession(session: Stripe.Checkout.Session): GatewayCheckoutSession {
  return {
    id: session.id,
    url: session.url ?? "",
    status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
    payment_status: session.payment_status,
    amount_total: session.amount_total ?? 0,
    customer: typeof session.customer === "string" ? session.customer : (session.customer?.id ?? null),
    metadata: { ...(session.metadata ?? {}) },
  };
}

function messageFor(code: string | undefined | null, fallback: string | undefined): string {
  return (code && code in CARD_MESSAGES ? CARD_MESSAGES[code as keyof typeof CARD_MESSAGES] : fallback) ?? CARD_MESSAGES.card_declined;
}
