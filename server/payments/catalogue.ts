import fs from "node:fs";
import { z } from "zod";
import { FREE_PLAN_ID, PLAN_CATALOGUE, type PlanSeed } from "../domain/plans";
import shipped from "./plans.json";

const PlanFileEntry = z.object({
  id: z.string().regex(/^[a-z0-9_-]{1,64}$/),
  nickname: z.string().min(1).max(120),
  amount: z.number().int().min(0),
  original_amount: z.number().int().min(0),
  interval: z.enum(["month", "year"]).nullable(),
  coupon: z.string().max(64).optional(),
  /** false: not listed or sold (users already on it keep it); default true. */
  offered: z.boolean().optional(),
  metadata: z.object({
    monthly_minutes: z.number().min(0),
    video_tier: z.number().int().min(0),
    storage_gb: z.number().min(0),
    upload_max_length_minutes: z.number().min(0),
    upload_max_size_mb: z.number().min(0),
  }),
  features: z.array(z.string()).default([]),
  /** The Stripe price this plan is sold as (with STRIPE_* keys); absent: the price whose lookup key is the plan id. */
  stripe_price: z.string().regex(/^price_\w+$/).optional(),
});

const CouponFileEntry = z.object({
  code: z.string().trim().min(1).max(64),
  percent_off: z.number().int().min(1).max(100),
  valid: z.boolean().default(true),
  /** Plan ids the coupon is for; every paid plan when absent. */
  plans: z.array(z.string()).optional(),
});
export type CouponSeed = z.infer<typeof CouponFileEntry>;

/** SPEC §6: the one-time fee for one project's watermark-free 1080p export (US$ cents), and its Stripe price if any. */
const VideoExportEntry = z.object({
  amount: z.number().int().min(50),
  stripe_price: z.string().regex(/^price_\w+$/).optional(),
});
export type VideoExportSeed = z.infer<typeof VideoExportEntry>;
export const SHIPPED_VIDEO_EXPORT: VideoExportSeed = VideoExportEntry.parse(shipped.video_export);

export const CatalogueFile = z
  .object({ plans: z.array(PlanFileEntry).min(1), coupons: z.array(CouponFileEntry).default([]), video_export: VideoExportEntry.default(SHIPPED_VIDEO_EXPORT) })
  .superRefine((file, ctx) => {
    const ids = file.plans.map((p) => p.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: "custom", message: "plan ids must be unique" });
    const free = file.plans.find((p) => p.id === FREE_PLAN_ID);
    if (!free || free.amount !== 0) ctx.addIssue({ code: "custom", message: `a plan "${FREE_PLAN_ID}" with amount 0 is required` });
    const codes = file.coupons.map((c) => c.code.toUpperCase());
    if (new Set(codes).size !== codes.length) ctx.addIssue({ code: "custom", message: "coupon codes must be unique" });
  });

export interface Catalogue {
  plans: (PlanSeed & { stripe_price?: string })[];
  coupons: CouponSeed[];
  /** The one-time watermark-free 1080p export of one project (absent from an operator's file: the shipped price). */
  video_export?: VideoExportSeed;
}

/**
 * The plans and coupons this server sells: the operator's PLANS_FILE when set (it replaces the shipped
 * catalogue; plans it leaves out stop being offered), else server/payments/plans.json. A broken file stops
 * the start with its problems, not a half-read catalogue.
 */
export function loadCatalogue(file: string | null): Catalogue {
  if (!file) return { plans: [...PLAN_CATALOGUE], coupons: [], video_export: SHIPPED_VIDEO_EXPORT };
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`PLANS_FILE ${file} could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = CatalogueFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`PLANS_FILE ${file} is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}
