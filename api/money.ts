/** Money arithmetic shared by the server and the app, free of schemas so the app's first load stays small (issue 18). */

/** Cents → US$ with two decimals (SPEC §9). */
export const centsToDollars = (cents: number) => (cents / 100).toFixed(2);

/** SPEC §9: discounted = amount × (100 − percent_off) / 100, in whole cents. */
export const discountedAmount = (amount: number, percentOff: number | null | undefined) =>
  percentOff ? Math.round((amount * (100 - percentOff)) / 100) : amount;
