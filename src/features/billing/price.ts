import type { Plan } from "../../../api/plans";
import { discountedAmount } from "../../../api/money";

/**
 * How plans read (SPEC §2 Pricing view, §9): US$ from cents with two decimals written the way each language
 * writes money, plan names before the first hyphen, minutes as hours from 120, resolution by video tier,
 * sizes in GB. Pure: the pricing view, the plan cards and /account share it.
 */

/** SPEC §9: monthly minutes of 120 or more are shown as hours. */
export const HOURS_FROM_MINUTES = 120;

/**
 * Cents as US dollars with two decimals in the reader's language. Where the language's own symbol is a bare
 * "$" (English, German) it says "US$", so nobody reads another dollar: "US$ 19.00", "US$ 19,00", "19,00 US$".
 */
export function formatPrice(cents: number, locale: string): string {
  const parts = new Intl.NumberFormat(locale, { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 }).formatToParts(cents / 100);
  return parts
    .map((part, i) => {
      if (part.type !== "currency" || part.value !== "$") return part.value;
      // "$19.00" has no space after the symbol; "US$19.00" would run together.
      const next = parts[i + 1];
      return next && next.type !== "literal" ? "US$\u00a0" : "US$";
    })
    .join("");
}

/** SPEC §9: discounted price = amount × (100 − percent_off) / 100 (in whole cents). */
export const discountedPrice = (cents: number, percentOff: number | null | undefined) => discountedAmount(cents, percentOff);

/** SPEC §2: a plan's name is its nickname before the first hyphen ("Professional - Yearly" → "Professional"). */
export const planName = (nickname: string) => nickname.split("-")[0]!.trim() || nickname.trim();

/** Free plans (Free, Basic) cost nothing; the rest are paid. */
export const isPaidPlan = (plan: Pick<Plan, "amount">) => plan.amount > 0;

/** The plan SPEC highlights. */
export const isProfessional = (plan: Pick<Plan, "nickname">) => planName(plan.nickname).toLowerCase() === "professional";

/**
 * SPEC §2 names original_amount as the card's price; the server charges `amount`. A card shows what is
 * charged, and the original amount struck through beside it when it is higher (a yearly plan's saving).
 */
export const originalCents = (plan: Pick<Plan, "amount" | "original_amount">) => (plan.amount > 0 && plan.original_amount > plan.amount ? plan.original_amount : null);

/** A number written the way the language writes it, with up to `maxDecimals` decimals ("1.5", "1,5"). */
export const formatNumber = (value: number, locale: string, maxDecimals = 1) =>
  new Intl.NumberFormat(locale, { maximumFractionDigits: maxDecimals }).format(value);

/** Monthly minutes as SPEC §9 shows them: hours from 120 minutes, else minutes. */
export function monthlyTime(minutes: number): { unit: "hours"; value: number } | { unit: "minutes"; value: number } {
  return minutes >= HOURS_FROM_MINUTES ? { unit: "hours", value: minutes / 60 } : { unit: "minutes", value: minutes };
}

/** SPEC §9: video_tier 2 = 1080p, 4 = 4k, otherwise 720p. */
export function resolution(videoTier: number): "720p" | "1080p" | "4k" {
  if (videoTier === 4) return "4k";
  if (videoTier === 2) return "1080p";
  return "720p";
}

/** SPEC §2: the largest file in GB is upload_max_size_mb / 1024. */
export const maxFileSizeGb = (uploadMaxSizeMb: number) => uploadMaxSizeMb / 1024;

/**
 * How many times more monthly hours the yearly plans give than the monthly plan of the same name, at most
 * (SPEC §9 "up to 3 times more hours"); null when no yearly plan gives more. Read from the plans, never assumed.
 */
export function yearlyHoursFactor(monthly: readonly Plan[], yearly: readonly Plan[]): number | null {
  let best = 0;
  for (const year of yearly) {
    if (!isPaidPlan(year)) continue;
    const month = monthly.find((m) => isPaidPlan(m) && planName(m.nickname) === planName(year.nickname));
    if (month && month.metadata.monthly_minutes > 0) best = Math.max(best, year.metadata.monthly_minutes / month.metadata.monthly_minutes);
  }
  return best > 1 ? Math.floor(best * 10) / 10 : null;
}
