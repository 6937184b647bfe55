import shipped from "../payments/plans.json";

/** The plan catalogue of SPEC §3, seeded on start. Amounts are US$ cents. */
export interface PlanSeed {
  id: string;
  nickname: string;
  amount: number;
  original_amount: number;
  interval: "month" | "year" | null;
  coupon?: string;
  /** false: kept for the users on it and sold by no screen (listed by GET /payment/plans only when true or absent). */
  offered?: boolean;
  metadata: {
    monthly_minutes: number;
    video_tier: number;
    storage_gb: number;
    upload_max_length_minutes: number;
    upload_max_size_mb: number;
  };
  features: string[];
}

export const FREE_PLAN_ID = "free";

/**
 * The shipped catalogue (server/payments/plans.json): the seed when no operator PLANS_FILE is set,
 * validated by payments/catalogue.ts on start.
 */
export const PLAN_CATALOGUE: readonly PlanSeed[] = shipped.plans as PlanSeed[];

/** SPEC §3 Lifetime tiers: the provider's own `ltd_tier1..3`; a partner licence is `{product}_tier{n}`. */
const LIFETIME_TIER = /^([a-z0-9]{1,32})_tier([1-9]\d?)$/;

/**
 * The lifetime plan whose limits a user's ltd_tier gives (SPEC §9 Lifetime deal): `ltd_tierN` and a partner
 * licence `{product}_tierN` alike give the plan `ltd_tierN`; null for no tier or one of another shape.
 */
export function lifetimePlanId(ltdTier: string | null | undefined): string | null {
  const match = ltdTier ? LIFETIME_TIER.exec(ltdTier) : null;
  return match ? `ltd_tier${match[2]}` : null;
}

/** The tier number of a lifetime tier (`ltd_tier2`, `appsumo_tier2` → 2), 0 for none. */
export const lifetimeTierNumber = (ltdTier: string | null | undefined): number => Number(lifetimePlanId(ltdTier)?.slice("ltd_tier".length) ?? 0);
