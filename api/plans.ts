import { z } from "zod";

export const PlanMetadata = z.object({
  monthly_minutes: z.number(),
  video_tier: z.number().int(),
  storage_gb: z.number(),
  upload_max_length_minutes: z.number(),
  upload_max_size_mb: z.number(),
  original_amount: z.number().int(),
});

/** A plan (SPEC §3 Plan). Amounts are in cents. */
export const Plan = z.object({
  id: z.string(),
  nickname: z.string(),
  amount: z.number().int(),
  amount_decimal: z.string(),
  original_amount: z.number().int(),
  interval: z.enum(["month", "year"]).nullable(),
  active: z.boolean(),
  coupon: z.string().nullable(),
  metadata: PlanMetadata,
});
export type Plan = z.infer<typeof Plan>;

export const PlanInterval = z.object({ interval: z.enum(["month", "year"]).default("year") });
