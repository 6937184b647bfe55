import { z } from "zod";
import { Plan } from "./plans";

/**
 * Plans, subscriptions, payment methods and coupons (SPEC §3, §4, §7; issue 16). Every amount is computed
 * on the server from its own plan catalogue: the client names a plan by id, never a price.
 */

/** Which gateway answers and whether its money is real: the card form says "test mode" while it is "test". */
export const PaymentMode = z.object({
  gateway: z.enum(["local", "stripe"]),
  mode: z.enum(["test", "live"]),
  /** Stripe.js's key (Stripe only). */
  publishable_key: z.string().nullable(),
  /** Where the card form sends card details with the local gateway (it stands where Stripe.js would be). */
  local_gateway_url: z.string().nullable(),
});
export type PaymentMode = z.infer<typeof PaymentMode>;

export const CouponQuery = z.object({ code: z.string().trim().max(64), plan: z.string().max(64) });

/** SPEC §7: `coupon {isValid, percent_off, code}`, plus the plan's price with it (cents). */
export const CouponCheck = z.object({
  coupon: z.object({ isValid: z.boolean(), percent_off: z.number().int().nullable(), code: z.string() }),
  plan: z.object({ id: z.string(), amount: z.number().int(), discounted_amount: z.number().int() }),
});

export const SubscriptionStatus = z.enum(["trialing", "active", "past_due", "incomplete", "canceled"]);

/** The latest charge of a subscription (SPEC §4 Payment: processing, success, failed, pending). */
export const PaymentAttempt = z.object({
  id: z.number().int(),
  status: z.enum(["processing", "succeeded", "failed", "requires_action", "pending"]),
  amount: z.number().int(),
  percent_off: z.number().int().nullable(),
  reason: z.enum(["subscription_create", "subscription_update", "subscription_cycle"]),
  /** A card error code (`card_declined`, `authentication_required`) and the gateway's words for it. */
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  /** With `requires_action`: what the card form confirms (the 3-D Secure step). */
  client_secret: z.string().nullable(),
  created_at: z.string(),
});
export type PaymentAttempt = z.infer<typeof PaymentAttempt>;

/** SPEC §3 Subscription. `stripe_plan` is the plan id; Free when the user has no paid subscription. */
export const SubscriptionInfo = z.object({
  stripe_plan: z.string(),
  plan: Plan,
  updated_at: z.string().nullable(),
  trial_ends_at: z.string().nullable(),
  stripe_subscription: z
    .object({
      status: SubscriptionStatus,
      current_period_start: z.string(),
      current_period_end: z.string(),
      cancel_at: z.string().nullable(),
      plan: z.string(),
      /** A downgrade waiting for the period end. */
      pending_plan: z.string().nullable(),
      /** A coupon waiting for the next charge (one billing cycle). */
      coupon: z.object({ code: z.string(), percent_off: z.number().int() }).nullable(),
    })
    .nullable(),
  interval: z.enum(["month", "year"]).nullable(),
  /** When the next charge happens (null: nothing renews). */
  renews_at: z.string().nullable(),
  /** Whether the user may still start a 14-day trial. */
  trial_available: z.boolean(),
  deprecated: z.boolean(),
  latest_payment: PaymentAttempt.nullable(),
  payment_mode: PaymentMode,
});
export type SubscriptionInfo = z.infer<typeof SubscriptionInfo>;

/** SPEC §7 PUT /user/payment/subscription: plan, payment (a saved method's id), coupon. */
export const SubscriptionUpdateBody = z
  .object({
    plan: z.string().min(1).max(64),
    payment: z.string().max(255).nullish(),
    coupon: z.string().trim().max(64).nullish(),
  })
  .strict();

/**
 * `subscription_updated` is present only when the change took (SPEC §8: its absence is "payment error").
 * `change` says what happened: an upgrade now, a downgrade or cancellation at the period end, nothing.
 */
export const SubscriptionUpdate = z.object({
  subscription_updated: z.literal(true).optional(),
  change: z.enum(["trial_started", "subscribed", "upgraded", "downgrade_scheduled", "cancel_scheduled", "resumed", "unchanged", "payment_failed", "requires_action"]),
  payment: PaymentAttempt.nullable(),
  subscription: SubscriptionInfo,
});

/** SPEC §3 Payment method: never a card number. */
export const PaymentMethod = z.object({
  id: z.string(),
  brand: z.string(),
  last_four: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  name: z.string().nullable(),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;
export const PaymentMethodList = z.object({ data: z.array(PaymentMethod) });
export const PaymentMethodBody = z.object({ payment_method: z.string().min(1).max(255) }).strict();
export const PaymentMethodId = z.object({ id: z.string().min(1).max(255) });

export const SetupIntent = z.object({ client_secret: z.string(), payment_mode: PaymentMode });
export type SetupIntent = z.infer<typeof SetupIntent>;

export { centsToDollars, discountedAmount } from "./money";
