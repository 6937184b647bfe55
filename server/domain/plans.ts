import shipped from "../payments/plans.json";

/** The plan catalogue of SPEC §3, seeded on start. Amounts are US$ cents. */
export interface PlanSeed {
  id: string;
  nickname: string;
  amount: number;
  original_amount: number;
  interval: "month" | "year" | null;
  coupon?: string;
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
