import type { PaymentAttempt } from "../../../api/payments";
import type { Plan } from "../../../api/plans";
import { isPaidPlan } from "./price";

/** The plan every account falls back to (server/domain/plans.ts's FREE_PLAN_ID): choosing it cancels renewal. */
export const FREE_PLAN_ID = "free";
/** SPEC §9: trial period 14 days. */
export const TRIAL_DAYS = 14;

/**
 * SPEC §2 Plan selection flow: the current plan does nothing; a plan whose amount is at or below the
 * current one is a downgrade (confirmation, at the period end); anything dearer runs the upgrade flow.
 * A free plan picked while on a free plan changes nothing either (only Free can be chosen; Basic is given).
 */
export function decide(plan: Pick<Plan, "id" | "amount">, currentPlanId: string, currentAmount: number): "none" | "downgrade" | "upgrade" {
  if (plan.id === currentPlanId) return "none";
  if (!isPaidPlan(plan) && currentAmount === 0) return "none";
  return plan.amount <= currentAmount ? "downgrade" : "upgrade";
}

export type Loss =
  | { kind: "hours"; from: number; to: number }
  | { kind: "resolution"; from: number; to: number }
  | { kind: "storage"; from: number; to: number }
  | { kind: "file"; from: number; to: number }
  | { kind: "paid-features" };

/** What moving from one plan to another takes away, for the downgrade warning (in the plans' own numbers). */
export function lostOnDowngrade(from: Pick<Plan, "amount" | "metadata">, to: Pick<Plan, "amount" | "metadata">): Loss[] {
  const losses: Loss[] = [];
  const [a, b] = [from.metadata, to.metadata];
  if (b.monthly_minutes < a.monthly_minutes) losses.push({ kind: "hours", from: a.monthly_minutes, to: b.monthly_minutes });
  if (b.video_tier < a.video_tier && rank(b.video_tier) < rank(a.video_tier)) losses.push({ kind: "resolution", from: a.video_tier, to: b.video_tier });
  if (b.storage_gb < a.storage_gb) losses.push({ kind: "storage", from: a.storage_gb, to: b.storage_gb });
  if (b.upload_max_length_minutes < a.upload_max_length_minutes) losses.push({ kind: "file", from: a.upload_max_length_minutes, to: b.upload_max_length_minutes });
  if (isPaidPlan(from) && !isPaidPlan(to)) losses.push({ kind: "paid-features" });
  return losses;
}

/** SPEC §9's resolutions in order: 720p (tiers 0, 1, 3), 1080p (2), 4k (4). */
const rank = (videoTier: number) => (videoTier === 4 ? 2 : videoTier === 2 ? 1 : 0);

/** The payment status pages (SPEC §2, §4 Payment). */
export const PAYMENT_STATUSES = ["processing", "success", "failed", "pending"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Where a payment attempt's status sends the processing page; null while it is still on its way (no payment: a trial, success). */
export function settledStatus(payment: Pick<PaymentAttempt, "status"> | null): Exclude<PaymentStatus, "processing"> | null {
  if (!payment) return "success";
  switch (payment.status) {
    case "succeeded":
      return "success";
    case "failed":
    case "requires_action":
      return "failed";
    case "pending":
      return "pending";
    case "processing":
      return null;
  }
}
