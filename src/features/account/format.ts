/** The plan's name as the account and pricing pages show it: the nickname before the first hyphen (SPEC §2). */
export const planDisplayName = (nickname: string) => nickname.split("-")[0]!.trim() || nickname;

/** SPEC §9: with no plan, the length ring counts against 1200 minutes. */
export const FALLBACK_MONTHLY_MINUTES = 1200;
/** SPEC §9: minutes of 120 or more are shown as hours. */
const HOURS_FROM_MINUTES = 120;

/** Minutes in the language's own units ("45 min", "20 hr", "20 Std."): hours from 120 minutes, one decimal at most. */
export function formatMinutes(minutes: number, locale: string): string {
  const value = Math.max(0, minutes);
  if (value >= HOURS_FROM_MINUTES) {
    return new Intl.NumberFormat(locale, { style: "unit", unit: "hour", unitDisplay: "short", maximumFractionDigits: 1 }).format(value / 60);
  }
  return new Intl.NumberFormat(locale, { style: "unit", unit: "minute", unitDisplay: "short", maximumFractionDigits: 0 }).format(Math.floor(value));
}

/** A lifetime tier's number: `ltd_tier2` and a partner licence's `{product}_tier2` are both Tier 2 (SPEC §3). */
export function lifetimeTierNumber(tier: string): number | null {
  const match = /_tier(\d+)$/.exec(tier);
  return match ? Number(match[1]) : null;
}
