import { z } from "zod";

/**
 * The seasonal promotion (SPEC §1, §2 Plan selection flow, §9) as GET /config tells it: the operator's
 * window and a coupon per billing interval (null: no offer on that interval). Absent: no promotion.
 */
export const PromotionCoupon = z.object({ code: z.string(), percent_off: z.number().int() });
export const Promotion = z.object({
  starts_at: z.string(),
  ends_at: z.string(),
  coupons: z.object({ year: PromotionCoupon.nullable(), month: PromotionCoupon.nullable() }),
});
export type Promotion = z.infer<typeof Promotion>;

/** Whether the promotion runs at `now` (ms): from its start, up to (not including) its end. */
export function promotionOpen(promotion: Pick<Promotion, "starts_at" | "ends_at"> | null | undefined, now: number): boolean {
  if (!promotion) return false;
  const start = Date.parse(promotion.starts_at);
  const end = Date.parse(promotion.ends_at);
  return Number.isFinite(start) && Number.isFinite(end) && start <= now && now < end;
}

/** SPEC §6: the promotion banner and modal are for free users (video_tier below 1, no lifetime tier). */
export const promotionFor = (user: { video_tier: number; ltd_tier?: string | null }) => user.video_tier < 1 && !user.ltd_tier;
