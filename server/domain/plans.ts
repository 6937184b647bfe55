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

const FREE_FEATURES = ["auto_cut_silences", "smart_background_music", "auto_subtitles", "ai_storyboard", "youtube_integration", "translation_trial"];
const PAID_FEATURES = [...FREE_FEATURES.filter((f) => f !== "translation_trial"), "translation", "priority_support", "render_notifications", "no_watermark"];

const paid = (
  id: string,
  nickname: string,
  interval: "month" | "year",
  amount: number,
  original: number,
  monthly_minutes: number,
  video_tier: number,
  storage_gb: number,
  upload_max_length_minutes: number,
  upload_max_size_mb: number,
): PlanSeed => ({
  id,
  nickname,
  amount,
  original_amount: original,
  interval,
  metadata: { monthly_minutes, video_tier, storage_gb, upload_max_length_minutes, upload_max_size_mb },
  features: PAID_FEATURES,
});

export const PLAN_CATALOGUE: readonly PlanSeed[] = [
  {
    id: FREE_PLAN_ID,
    nickname: "Free",
    amount: 0,
    original_amount: 0,
    interval: "month",
    metadata: { monthly_minutes: 30, video_tier: 0, storage_gb: 5, upload_max_length_minutes: 10, upload_max_size_mb: 1024 },
    features: FREE_FEATURES,
  },
  {
    id: "basic",
    nickname: "Basic",
    amount: 0,
    original_amount: 0,
    interval: "year",
    metadata: { monthly_minutes: 60, video_tier: 0, storage_gb: 10, upload_max_length_minutes: 20, upload_max_size_mb: 2048 },
    features: FREE_FEATURES,
  },
  paid("starter_month", "Starter - Monthly", "month", 1900, 1900, 120, 1, 50, 30, 2048),
  paid("starter_year", "Starter - Yearly", "year", 15600, 22800, 360, 1, 50, 30, 2048),
  paid("standard_month", "Standard - Monthly", "month", 3900, 3900, 300, 2, 100, 60, 4096),
  paid("standard_year", "Standard - Yearly", "year", 33600, 46800, 900, 2, 100, 60, 4096),
  paid("professional_month", "Professional - Monthly", "month", 7900, 7900, 600, 4, 200, 90, 5120),
  paid("professional_year", "Professional - Yearly", "year", 70800, 94800, 1800, 4, 200, 90, 5120),
  paid("professional_br_month", "Professional BR - Monthly", "month", 4900, 4900, 600, 4, 200, 90, 5120),
  paid("professional_br_year", "Professional BR - Yearly", "year", 44400, 58800, 1800, 4, 200, 90, 5120),
  ...[1, 2, 3].map(
    (tier): PlanSeed => ({
      id: `ltd_tier${tier}`,
      nickname: `Lifetime - Tier ${tier}`,
      amount: 4900 * tier,
      original_amount: 4900 * tier,
      interval: null,
      metadata: { monthly_minutes: 300 * tier, video_tier: 2, storage_gb: 150, upload_max_length_minutes: 90, upload_max_size_mb: 5120 },
      features: PAID_FEATURES,
    }),
  ),
];
