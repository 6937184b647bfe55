const BRAND_NAMES: Record<string, string> = { visa: "Visa", mastercard: "Mastercard", amex: "American Express", discover: "Discover", diners: "Diners Club", jcb: "JCB", unionpay: "UnionPay" };

/** A card brand as the gateway names it (`visa`, `amex`) → as its owner writes it ("Visa", "American Express"). */
export const cardBrandName = (brand: string) => BRAND_NAMES[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
