import type { z } from "zod";
import type { CouponCheck, PaymentAttempt, PaymentMode, SubscriptionInfo, SubscriptionUpdate, SubscriptionUpdateBody } from "../../api/payments";
import type { Db } from "../db";
import { findPlan, toApiPlan } from "../db/plans";
import type { PaymentMethodRow, PaymentRow, PlanRow, SubscriptionRow, UserRow } from "../db/schema";
import { findUserById, updateUser } from "../db/users";
import { TRIAL_DAYS, discounted } from "../domain/billing";
import { FREE_PLAN_ID } from "../domain/plans";
import { CardError, type Clock, type GatewayCheckoutSession, type GatewayInvoice, type GatewaySubscription, type PaymentGateway } from "../payments/gateway";
import { DomainError, notFound } from "./errors";

/**
 * Plans, subscriptions, cards and coupons (issue 16). Every call is the signed-in user's own: another
 * user's card or subscription is a 404. Prices come from our plans table; the gateway runs the
 * subscription and its webhook events (local or Stripe, the same handler) keep our mirror in step.
 */
export interface PaymentsDeps {
  db: Db;
  gateway: PaymentGateway;
  clock: Clock;
  log?: { warn(fields: object, message: string): void };
  /** A one-time purchase paid (services/checkout.ts): its `checkout.session.completed` event, applied once. */
  checkoutCompleted?: (session: GatewayCheckoutSession) => Promise<void>;
}

/** A subscription that still gives its plan (a cancelled or never-paid one does not). */
const LIVE = new Set(["trialing", "active", "past_due"]);

/** An event received this long ago and never marked processed was cut short by a crash: it runs again. */
const WEBHOOK_STALE_MS = 5 * 60_000;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function createPayments(deps: PaymentsDeps) {
  const { db, gateway, clock } = deps;

  // One change at a time per user: two plan choices sent at once must not open two subscriptions (two bills).
  const queues = new Map<number, Promise<unknown>>();
  function serially<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(userId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    queues.set(userId, next);
    void next.finally(() => {
      if (queues.get(userId) === next) queues.delete(userId);
    }).catch(() => undefined);
    return next;
  }

  const paymentMode = (): z.infer<typeof PaymentMode> => ({
    gateway: gateway.name,
    mode: gateway.mode,
    publishable_key: gateway.publishableKey,
    local_gateway_url: gateway.cardEndpoint,
  });

  async function mustUser(userId: number): Promise<UserRow> {
    const user = await findUserById(db, userId);
    if (!user) throw new DomainError("unauthenticated", "Please authenticate");
    return user;
  }

  async function customerOf(user: UserRow): Promise<string> {
    // A customer the local gateway made (before Stripe keys were set) means nothing to Stripe: a new one replaces it.
    const stale = gateway.name === "stripe" && user.stripe_id?.startsWith("cus_local_") ? user.stripe_id : null;
    if (user.stripe_id && !stale) return user.stripe_id;
    const customer = await gateway.createCustomer({ email: user.email, name: `${user.first_name} ${user.last_name}`.trim(), userId: user.id });
    // Two first calls at once: the first customer stored wins, the other is simply unused.
    await db.updateTable("users").set({ stripe_id: customer.id }).where("id", "=", user.id).where((eb) => (stale ? eb("stripe_id", "=", stale) : eb("stripe_id", "is", null))).execute();
    return (await mustUser(user.id)).stripe_id!;
  }

  const subscriptionRow = (userId: number) => db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirst();
  const latestPayment = (userId: number) => db.selectFrom("payments").selectAll().where("user_id", "=", userId).orderBy("id", "desc").executeTakeFirst();

  function toAttempt(row: PaymentRow): PaymentAttempt {
    return {
      id: row.id,
      status: row.status,
      amount: row.amount,
      percent_off: row.percent_off,
      reason: row.reason,
      failure_code: row.failure_code,
      failure_message: row.failure_message,
      client_secret: row.status === "requires_action" ? row.client_secret : null,
      created_at: row.created_at,
    };
  }

  const toMethod = (row: PaymentMethodRow) => ({ id: row.gateway_id, brand: row.brand, last_four: row.last4, exp_month: row.exp_month, exp_year: row.exp_year, name: row.name });

  async function mustPlan(id: string): Promise<PlanRow> {
    const plan = await findPlan(db, id);
    if (!plan || plan.active !== 1 || plan.interval === null) throw notFound("No such plan");
    return plan;
  }

  /** A valid coupon for a paid plan, or null (unknown, switched off, or not for this plan). */
  async function findCoupon(code: string, plan: PlanRow) {
    const row = await db.selectFrom("coupons").selectAll().where("code", "=", code.trim().toUpperCase()).where("valid", "=", 1).executeTakeFirst();
    if (!row || plan.amount === 0) return null;
    if (row.plans && !(JSON.parse(row.plans) as string[]).includes(plan.id)) return null;
    return row;
  }

  // ---- The webhook side: what the gateway tells us, applied once per event. ----

  async function userByCustomer(customer: string) {
    return db.selectFrom("users").selectAll().where("stripe_id", "=", customer).executeTakeFirst();
  }

  /** Mirrors a gateway subscription and sets the user's plan (quotas, tier and features follow it). */
  async function applySubscription(sub: GatewaySubscription, created: number): Promise<void> {
    const user = await userByCustomer(sub.customer);
    if (!user) return;
    const row = await subscriptionRow(user.id);
    // A late event about an earlier subscription must not touch the one that replaced it.
    if (row && row.gateway_subscription_id !== sub.id && LIVE.has(row.status)) return;
    // A price that is none of our plans (something else sold on the same Stripe account) gives no plan.
    if (LIVE.has(sub.status) && !(await findPlan(db, sub.price.id))) {
      deps.log?.warn({ subscription: sub.id, price: sub.price.id }, "subscription on a price that is no plan: ignored");
      return;
    }
    // Nor an event older than the one applied (Stripe does not deliver in order): updated_at is the applied event's time.
    if (row && row.gateway_subscription_id === sub.id && created * 1000 < Date.parse(row.updated_at)) return;
    const now = new Date(clock.now()).toISOString();
    const values = {
      plan_id: sub.price.id,
      pending_plan_id: sub.pending_price?.id ?? null,
      status: sub.status,
      trial_ends_at: sub.trial_end ? iso(sub.trial_end) : null,
      current_period_start: iso(sub.current_period_start),
      current_period_end: iso(sub.current_period_end),
      cancel_at: sub.cancel_at_period_end ? iso(sub.current_period_end) : null,
      coupon_code: sub.discount?.coupon ?? null,
      coupon_percent_off: sub.discount?.percent_off ?? null,
      gateway: gateway.name,
      gateway_subscription_id: sub.id,
      trial_used: sub.trial_end || row?.trial_used ? 1 : 0,
      updated_at: iso(created),
    };
    await db
      .insertInto("subscriptions")
      .values({ ...values, user_id: user.id, created_at: now })
      .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
      .execute();
    if (user.ltd_tier) {
      // A lifetime deal's plan outlives any subscription (issue 16): the subscription's end leaves it in place.
    } else if (LIVE.has(sub.status)) {
      if (user.plan_id !== sub.price.id) await updateUser(db, user.id, { plan_id: sub.price.id });
    } else if (sub.status === "canceled" && user.plan_id !== FREE_PLAN_ID) {
      // SPEC §4: a cancelled subscription, or a renewal with no card to charge, ends on Free (files are kept).
      await updateUser(db, user.id, { plan_id: FREE_PLAN_ID });
    }
  }

  async function applyInvoice(invoice: GatewayInvoice): Promise<void> {
    // An invoice of no subscription (a one-time purchase) is not a plan's payment.
    if (!invoice.subscription) return;
    const user = await userByCustomer(invoice.customer);
    if (!user) return;
    const intent = invoice.payment_intent;
    const status: PaymentRow["status"] =
      invoice.status === "paid" ? "succeeded"
      : intent?.status === "requires_action" ? "requires_action"
      : intent?.status === "processing" ? "pending"
      : "failed";
    const now = new Date(clock.now()).toISOString();
    const values = {
      status,
      gateway_intent_id: intent?.id ?? null,
      failure_code: status === "succeeded" ? null : (intent?.last_payment_error?.code ?? null),
      failure_message: status === "succeeded" ? null : (intent?.last_payment_error?.message ?? null),
      client_secret: intent?.client_secret ?? null,
      updated_at: now,
    };
    await db
      .insertInto("payments")
      .values({
        ...values,
        user_id: user.id,
        plan_id: invoice.price,
        gateway_invoice_id: invoice.id,
        amount: invoice.amount_due,
        percent_off: invoice.percent_off,
        coupon_code: invoice.coupon,
        reason: invoice.billing_reason,
        created_at: now,
      })
      .onConflict((oc) => oc.column("gateway_invoice_id").doUpdateSet(values))
      .execute();
  }

  /**
   * The webhook handler (Stripe's and the local gateway's): forged signatures are refused; an event id
   * seen before changes nothing (inserting its id first is the lock against two deliveries at once).
   */
  async function handleWebhook(rawBody: string, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    const event = await gateway.verifyWebhook(rawBody, signature);
    if (!event) throw new DomainError("forbidden", "Invalid webhook signature");
    const now = new Date(clock.now()).toISOString();
    const inserted = await db
      .insertInto("webhook_events")
      .values({ id: event.id, type: event.type, gateway: gateway.name, received_at: now, processed_at: null })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      // Seen before: nothing to do, unless a crash stopped its processing long ago (then it runs again;
      // applying a snapshot twice is harmless, what must not happen is losing it).
      const seen = await db.selectFrom("webhook_events").select(["processed_at", "received_at"]).where("id", "=", event.id).executeTakeFirst();
      if (!seen || seen.processed_at || clock.now() - Date.parse(seen.received_at) < WEBHOOK_STALE_MS) return { received: true, duplicate: true };
    }
    try {
      if (event.type.startsWith("customer.subscription.")) await applySubscription(event.data.object as GatewaySubscription, event.created);
      else if (event.type.startsWith("invoice.")) await applyInvoice(event.data.object as GatewayInvoice);
      else if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") await deps.checkoutCompleted?.(event.data.object as GatewayCheckoutSession);
    } catch (error) {
      // Not processed: forgotten, so the gateway's retry of this event is applied rather than skipped.
      await db.deleteFrom("webhook_events").where("id", "=", event.id).where("processed_at", "is", null).execute();
      throw error;
    }
    await db.updateTable("webhook_events").set({ processed_at: now }).where("id", "=", event.id).execute();
    return { received: true, duplicate: false };
  }

  async function info(userId: number): Promise<z.infer<typeof SubscriptionInfo>> {
    const user = await mustUser(userId);
    const plan = (await findPlan(db, user.plan_id)) ?? (await findPlan(db, FREE_PLAN_ID))!;
    const row = await subscriptionRow(userId);
    const live = row && LIVE.has(row.status) ? row : null;
    const payment = await latestPayment(userId);
    return {
      stripe_plan: plan.id,
      plan: toApiPlan(plan),
      updated_at: row?.updated_at ?? null,
      trial_ends_at: live?.status === "trialing" ? live.trial_ends_at : null,
      stripe_subscription:
        row && row.status !== "canceled"
          ? {
              status: row.status,
              current_period_start: row.current_period_start,
              current_period_end: row.current_period_end,
              cancel_at: row.cancel_at,
              plan: row.plan_id,
              pending_plan: row.pending_plan_id,
              coupon: row.coupon_code && row.coupon_percent_off ? { code: row.coupon_code, percent_off: row.coupon_percent_off } : null,
            }
          : null,
      interval: live ? (((await findPlan(db, live.plan_id))?.interval ?? null) as "month" | "year" | null) : null,
      renews_at: live && !live.cancel_at ? live.current_period_end : null,
      trial_available: !row?.trial_used,
      deprecated: plan.active !== 1,
      latest_payment: payment ? toAttempt(payment) : null,
      payment_mode: paymentMode(),
    };
  }

  /** Whose card this is: only the signed-in user's saved cards can pay (another's id is a 404). */
  async function methodOf(userId: number, id: string | null | undefined): Promise<PaymentMethodRow> {
    if (id) {
      const row = await db.selectFrom("payment_methods").selectAll().where("user_id", "=", userId).where("gateway_id", "=", id).executeTakeFirst();
      if (!row) throw notFound("No such payment method");
      return row;
    }
    const latest = await db.selectFrom("payment_methods").selectAll().where("user_id", "=", userId).orderBy("id", "desc").executeTakeFirst();
    if (!latest) throw new DomainError("validation_failed", "Select a payment method", { payment: "required" });
    return latest;
  }

  type Change = z.infer<typeof SubscriptionUpdate>["change"];

  async function answer(userId: number, change: Change, invoiceBefore: string | null) {
    const latest = await latestPayment(userId);
    const payment = latest && latest.gateway_invoice_id !== invoiceBefore ? latest : null;
    let outcome = change;
    if (payment?.status === "requires_action") outcome = "requires_action";
    else if (payment?.status === "failed") outcome = "payment_failed";
    const ok = outcome !== "requires_action" && outcome !== "payment_failed";
    return {
      ...(ok ? { subscription_updated: true as const } : {}),
      change: outcome,
      payment: payment ? toAttempt(payment) : null,
      subscription: await info(userId),
    };
  }

  /**
   * What a gateway call answered, applied now (the local gateway's events already did; Stripe's webhooks
   * come later): the answer to the user's request shows its outcome. Its time is now, so an older
   * webhook delivered afterwards is ignored.
   */
  async function settle(sub: GatewaySubscription): Promise<void> {
    await applySubscription(sub, Math.floor(clock.now() / 1000));
    if (sub.latest_invoice) await applyInvoice(sub.latest_invoice);
  }

  /** Gateway calls that refuse a card answer SPEC §8's payment failure, not a server error. */
  async function viaGateway<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof CardError) {
        if (error.code === "resource_missing") throw notFound("No such payment method");
        throw new DomainError("validation_failed", error.message, { payment: "invalid" });
      }
      throw error;
    }
  }

  return {
    handleWebhook,
    /** The user's billing customer at the gateway, made on first use (checkout sessions bill it too). */
    customerFor: async (userId: number) => customerOf(await mustUser(userId)),
    paymentMode,
    info,

    async setupIntent(userId: number) {
      const customer = await customerOf(await mustUser(userId));
      const intent = await gateway.createSetupIntent(customer);
      return { client_secret: intent.client_secret, payment_mode: paymentMode() };
    },

    async listMethods(userId: number) {
      const rows = await db.selectFrom("payment_methods").selectAll().where("user_id", "=", userId).orderBy("id").execute();
      return { data: rows.map(toMethod) };
    },

    async checkCoupon(code: string, planId: string): Promise<z.infer<typeof CouponCheck>> {
      const plan = await mustPlan(planId);
      const coupon = code.trim() ? await findCoupon(code, plan) : null;
      return {
        coupon: { isValid: !!coupon, percent_off: coupon?.percent_off ?? null, code: code.trim() },
        plan: { id: plan.id, amount: plan.amount, discounted_amount: discounted(plan.amount, coupon?.percent_off) },
      };
    },

    updateSubscription: (userId: number, body: z.infer<typeof SubscriptionUpdateBody>) => serially(userId, () => updateSubscription(userId, body)),
    addMethod: (userId: number, paymentMethod: string) => serially(userId, () => addMethod(userId, paymentMethod)),
    removeMethod: (userId: number, id: string) => serially(userId, () => removeMethod(userId, id)),

    /** After an e-mail change (issue 16): the gateway's customer gets the account's new address. */
    async customerEmailChanged(userId: number): Promise<void> {
      const user = await mustUser(userId);
      const stale = gateway.name === "stripe" && user.stripe_id?.startsWith("cus_local_");
      if (user.stripe_id && !stale) await gateway.updateCustomerEmail(user.stripe_id, user.email);
    },

    /**
     * Before an account is deleted (issue 16): its subscription stops renewing and its saved cards leave the
     * customer, so nothing is ever charged again. A gateway that fails throws, and the deletion stops.
     */
    cancelForAccountDeletion: (userId: number) =>
      serially(userId, async () => {
        const user = await mustUser(userId);
        const row = await subscriptionRow(userId);
        if (row?.gateway_subscription_id && LIVE.has(row.status) && !row.cancel_at) await gateway.setCancelAtPeriodEnd(row.gateway_subscription_id, true);
        const cards = await db.selectFrom("payment_methods").select("gateway_id").where("user_id", "=", userId).execute();
        if (user.stripe_id) for (const card of cards) await gateway.detachPaymentMethod(user.stripe_id, card.gateway_id);
      }),

    /** Where this month's processing minutes start for the user (their billing anchor, else the calendar month). */
    async billingAnchor(userId: number): Promise<number | null> {
      const row = await subscriptionRow(userId);
      return row && LIVE.has(row.status) ? Date.parse(row.current_period_start) : null;
    },
  };

  /**
   * SPEC §2 Plan selection, on the server: the current plan changes nothing; the free plan cancels
   * renewal (Free at the period end); a dearer plan upgrades now (prorated; a first subscription starts
   * with the 14-day trial); a plan at or below the current amount takes effect at the period end.
   */
  async function updateSubscription(userId: number, body: z.infer<typeof SubscriptionUpdateBody>) {
    const user = await mustUser(userId);
    const plan = await mustPlan(body.plan);
    // A lifetime deal has no plan picker (SPEC §2): a paid plan on top would be billed and change nothing.
    if (user.ltd_tier && plan.amount > 0) throw new DomainError("lifetime_owned", "You already have a lifetime deal");
    const row = await subscriptionRow(userId);
    const live = row && LIVE.has(row.status) && row.gateway_subscription_id ? row : null;
    const invoiceBefore = (await latestPayment(userId))?.gateway_invoice_id ?? null;

    if (plan.amount === 0) {
      // Only Free is chosen this way; an operator's other free plans (Basic) are given, not picked.
      if (plan.id !== FREE_PLAN_ID) throw new DomainError("validation_failed", "This plan cannot be chosen", { plan: "invalid" });
      if (!live || live.cancel_at) return answer(userId, "unchanged", invoiceBefore);
      await settle(await gateway.setCancelAtPeriodEnd(live.gateway_subscription_id!, true));
      return answer(userId, "cancel_scheduled", invoiceBefore);
    }

    const code = body.coupon?.trim() ?? "";
    const coupon = code ? await findCoupon(code, plan) : null;
    if (code && !coupon) throw new DomainError("validation_failed", "This coupon is not valid", { coupon: "invalid" });
    const couponTerms = coupon ? { code: coupon.code, percent_off: coupon.percent_off } : null;

    if (live && live.plan_id === plan.id) {
      if (live.status === "past_due" && body.payment) {
        const method = await methodOf(userId, body.payment);
        await settle(await viaGateway(() => gateway.payOpenInvoice(live.gateway_subscription_id!, method.gateway_id)));
        // The same invoice, charged again: its attempt is this call's.
        return answer(userId, "subscribed", null);
      }
      if (live.cancel_at) {
        await settle(await gateway.setCancelAtPeriodEnd(live.gateway_subscription_id!, false));
        return answer(userId, "resumed", invoiceBefore);
      }
      return answer(userId, "unchanged", invoiceBefore);
    }

    const method = await methodOf(userId, body.payment);
    const customer = await customerOf(user);
    if (!live) {
      const trialDays = row?.trial_used ? 0 : TRIAL_DAYS;
      await settle(await viaGateway(() => gateway.createSubscription({ customer, price: { id: plan.id, amount: plan.amount, interval: plan.interval as "month" | "year" }, paymentMethod: method.gateway_id, trialDays, coupon: couponTerms })));
      return answer(userId, trialDays ? "trial_started" : "subscribed", invoiceBefore);
    }
    const current = (await findPlan(db, live.plan_id))!;
    const upgrade = plan.amount > current.amount;
    const changed = await viaGateway(() =>
      gateway.changePrice({
        subscription: live.gateway_subscription_id!,
        price: { id: plan.id, amount: plan.amount, interval: plan.interval as "month" | "year" },
        when: upgrade ? "now" : "period_end",
        paymentMethod: method.gateway_id,
        coupon: couponTerms,
      }),
    );
    await settle(changed);
    return answer(userId, upgrade ? "upgraded" : "downgrade_scheduled", invoiceBefore);
  }

  async function addMethod(userId: number, paymentMethod: string) {
    const customer = await customerOf(await mustUser(userId));
    const card = await gateway.attachPaymentMethod(customer, paymentMethod);
    // A card confirmed for someone else (or never confirmed) is not this user's to save.
    if (!card) throw notFound("No such payment method");
    const existing = await db.selectFrom("payment_methods").selectAll().where("gateway_id", "=", card.id).executeTakeFirst();
    if (existing) return toMethod(existing);
    const row = await db
      .insertInto("payment_methods")
      .values({ user_id: userId, gateway_id: card.id, brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year, name: card.name, created_at: new Date(clock.now()).toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toMethod(row);
  }

  async function removeMethod(userId: number, id: string) {
    const row = await db.selectFrom("payment_methods").selectAll().where("user_id", "=", userId).where("gateway_id", "=", id).executeTakeFirst();
    if (!row) throw notFound("No such payment method");
    const user = await mustUser(userId);
    if (user.stripe_id) await gateway.detachPaymentMethod(user.stripe_id, row.gateway_id);
    await db.deleteFrom("payment_methods").where("id", "=", row.id).where("user_id", "=", userId).execute();
    const rows = await db.selectFrom("payment_methods").selectAll().where("user_id", "=", userId).orderBy("id").execute();
    // The subscription renews with the newest card left; with none, its renewal ends on Free (SPEC §4).
    const sub = await subscriptionRow(userId);
    const next = rows.at(-1);
    if (next && sub?.gateway_subscription_id && LIVE.has(sub.status)) await gateway.setDefaultPaymentMethod(sub.gateway_subscription_id, next.gateway_id, { onlyIfNone: true });
    return { data: rows.map(toMethod) };
  }
}

export type Payments = ReturnType<typeof createPayments>;
export type { SubscriptionRow };
