import type { Config } from "../config";
import type { Db } from "../db";
import type { Promotion } from "../../api/promotion";
import type { Catalogue } from "./catalogue";

type PromotionConfig = NonNullable<Config["promotion"]>;

/**
 * The seasonal promotion's coupons must be coupons of the catalogue, valid, and for some paid plan of their
 * interval: a promotion offering a code that checkout then refuses stops the start with the reason.
 */
export function checkPromotionCoupons(promotion: PromotionConfig, catalogue: Catalogue): void {
  for (const interval of ["year", "month"] as const) {
    const code = promotion.coupons[interval];
    if (!code) continue;
    const name = interval === "year" ? "PROMOTION_COUPON_ANNUAL" : "PROMOTION_COUPON_MONTHLY";
    const coupon = catalogue.coupons.find((c) => c.code.toUpperCase() === code);
    if (!coupon || !coupon.valid) throw new Error(`Invalid configuration: ${name} ${code} is not a valid coupon of the plans file (PLANS_FILE "coupons")`);
    const paid = catalogue.plans.filter((p) => p.interval === interval && p.amount > 0 && (!coupon.plans || coupon.plans.includes(p.id)));
    if (!paid.length) throw new Error(`Invalid configuration: ${name} ${code} applies to no paid ${interval === "year" ? "yearly" : "monthly"} plan`);
  }
}

/** What GET /config tells the app: the window and each coupon's discount, until the window ends (then nothing). */
export async function publicPromotion(db: Db, promotion: PromotionConfig | null, now: number): Promise<Promotion | null> {
  if (!promotion || now >= Date.parse(promotion.endsAt)) return null;
  const coupon = async (code: string | null) => {
    if (!code) return null;
    const row = await db.selectFrom("coupons").select(["code", "percent_off"]).where("code", "=", code).where("valid", "=", 1).executeTakeFirst();
    return row ? { code: row.code, percent_off: row.percent_off } : null;
  };
  const coupons = { year: await coupon(promotion.coupons.year), month: await coupon(promotion.coupons.month) };
  if (!coupons.year && !coupons.month) return null;
  return { starts_at: promotion.startsAt, ends_at: promotion.endsAt, coupons };
}
