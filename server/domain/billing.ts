/** Billing arithmetic (SPEC §9, issue 16): pure, in whole cents and UTC milliseconds. */

export const TRIAL_DAYS = 14;
export const DAY_MS = 86_400_000;
/** A past-due subscription is cancelled (the user goes to Free) this long after its renewal failed. */
export const PAST_DUE_GRACE_MS = 7 * DAY_MS;
/** An incomplete first payment (a 3-D Secure step never finished) expires like Stripe's, after 23 hours. */
export const INCOMPLETE_EXPIRY_MS = 23 * 3600_000;

/** SPEC §9: discounted = amount × (100 − percent_off) / 100, rounded to whole cents. */
export function discounted(amount: number, percentOff: number | null | undefined): number {
  if (!percentOff) return amount;
  return Math.round((amount * (100 - percentOff)) / 100);
}

/** Cents → US$ with two decimals (SPEC §9: cents / 100 with 2 decimals). */
export const dollars = (cents: number) => (cents / 100).toFixed(2);

/** Calendar months later, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29), as Stripe bills. */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime();
}

export const addInterval = (ms: number, interval: "month" | "year") => addMonths(ms, interval === "year" ? 12 : 1);

/**
 * What an upgrade charges now (Stripe's proration): the new price for the rest of the period minus what
 * is left of the old one. Same interval: the period stays, the difference for the time left. Another
 * interval: a new period starts now at the full new price, less the unused part of the old one.
 */
export function prorationCharge(input: {
  oldAmount: number;
  newAmount: number;
  sameInterval: boolean;
  periodStart: number;
  periodEnd: number;
  now: number;
}): number {
  const { oldAmount, newAmount, periodStart, periodEnd, now } = input;
  const length = periodEnd - periodStart;
  const left = length > 0 ? Math.min(1, Math.max(0, (periodEnd - now) / length)) : 0;
  const charge = input.sameInterval ? Math.round((newAmount - oldAmount) * left) : newAmount - Math.round(oldAmount * left);
  return Math.max(0, charge);
}

/**
 * Where this month's processing minutes start counting (SPEC §3 Quotas: minutes reset each billing
 * period). On a subscription: the last monthly anniversary of its period start (an annual plan's
 * minutes are monthly too); without one: the calendar month (UTC).
 */
export function usageWindowStart(now: number, periodStart: number | null): number {
  const d = new Date(now);
  const calendar = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (periodStart === null || periodStart > now) return calendar;
  let start = periodStart;
  for (let months = 1; months <= 12 * 100; months += 1) {
    const next = addMonths(periodStart, months);
    if (next > now) break;
    start = next;
  }
  return start;
}
