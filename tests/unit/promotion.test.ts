/**
 * Issue 16, the seasonal promotion's window (SPEC §1, §9): off unless an operator sets it; open from its
 * start up to its end; for free users only; its coupons must be coupons of the catalogue.
 */
import { describe, expect, it } from "vitest";
import { promotionFor, promotionOpen } from "../../api/promotion";
import { loadConfig } from "../../server/config";
import { PLAN_CATALOGUE } from "../../server/domain/plans";
import { checkPromotionCoupons } from "../../server/payments/promotion";

const window = { starts_at: "2026-11-20T13:00:00.000Z", ends_at: "2026-11-27T13:00:00.000Z" };
const at = (iso: string) => Date.parse(iso);

describe("promotion window", () => {
  it("is closed when no promotion is configured", () => {
    expect(promotionOpen(null, Date.now())).toBe(false);
    expect(promotionOpen(undefined, Date.now())).toBe(false);
    expect(loadConfig({}).promotion).toBeNull();
  });

  it("opens at its start and closes at its end (the end itself is out)", () => {
    expect(promotionOpen(window, at("2026-11-20T12:59:59.999Z"))).toBe(false);
    expect(promotionOpen(window, at("2026-11-20T13:00:00.000Z"))).toBe(true);
    expect(promotionOpen(window, at("2026-11-24T00:00:00.000Z"))).toBe(true);
    expect(promotionOpen(window, at("2026-11-27T12:59:59.999Z"))).toBe(true);
    expect(promotionOpen(window, at("2026-11-27T13:00:00.000Z"))).toBe(false);
  });

  it("is never open with a broken date", () => {
    expect(promotionOpen({ starts_at: "soon", ends_at: window.ends_at }, at("2026-11-24T00:00:00Z"))).toBe(false);
  });

  it("is for free users: not paid tiers, not lifetime licences", () => {
    expect(promotionFor({ video_tier: 0, ltd_tier: null })).toBe(true);
    expect(promotionFor({ video_tier: 1, ltd_tier: null })).toBe(false);
    expect(promotionFor({ video_tier: 0, ltd_tier: "appsumo_tier1" })).toBe(false);
  });
});

describe("promotion configuration", () => {
  const env = { PROMOTION_START: "2026-11-20T13:00:00+01:00", PROMOTION_END: "2026-11-27T13:00:00+01:00", PROMOTION_COUPON_ANNUAL: "winter59", PROMOTION_COUPON_MONTHLY: "WINTER20" };

  it("reads the window as UTC instants and the codes in upper case", () => {
    expect(loadConfig(env).promotion).toEqual({
      startsAt: "2026-11-20T12:00:00.000Z",
      endsAt: "2026-11-27T12:00:00.000Z",
      coupons: { year: "WINTER59", month: "WINTER20" },
    });
  });

  it("refuses half a promotion and a window that ends before it starts", () => {
    expect(() => loadConfig({ PROMOTION_START: env.PROMOTION_START, PROMOTION_COUPON_ANNUAL: "X" })).toThrow(/PROMOTION_START and PROMOTION_END/);
    expect(() => loadConfig({ PROMOTION_START: env.PROMOTION_START, PROMOTION_END: env.PROMOTION_END })).toThrow(/PROMOTION_COUPON/);
    expect(() => loadConfig({ ...env, PROMOTION_END: env.PROMOTION_START })).toThrow(/must come after/);
    expect(() => loadConfig({ ...env, PROMOTION_END: "next week" })).toThrow(/PROMOTION_END/);
  });

  it("needs its coupons in the catalogue, valid and for a paid plan of their interval", () => {
    const promotion = loadConfig(env).promotion!;
    const plans = [...PLAN_CATALOGUE];
    const good = { plans, coupons: [{ code: "WINTER59", percent_off: 59, valid: true }, { code: "winter20", percent_off: 20, valid: true }] };
    expect(() => checkPromotionCoupons(promotion, good as never)).not.toThrow();
    expect(() => checkPromotionCoupons(promotion, { plans, coupons: [good.coupons[1]] } as never)).toThrow(/PROMOTION_COUPON_ANNUAL WINTER59/);
    expect(() => checkPromotionCoupons(promotion, { plans, coupons: [{ ...good.coupons[0], valid: false }, good.coupons[1]] } as never)).toThrow(/not a valid coupon/);
    const monthlyOnly = { plans, coupons: [{ code: "WINTER59", percent_off: 59, valid: true, plans: ["starter_month"] }, good.coupons[1]] };
    expect(() => checkPromotionCoupons(promotion, monthlyOnly as never)).toThrow(/no paid yearly plan/);
  });
});
