/** A positive whole number from a path segment, or NaN (the route then does not match: not found). */
export const parsePositive = (raw: string) => (/^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN);
