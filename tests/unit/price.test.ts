import { describe, expect, it } from "vitest";
import type { Plan } from "../../api/plans";
import { LOCALES } from "../../api/locales";
import {
  discountedPrice,
  formatNumber,
  formatPrice,
  isProfessional,
  maxFileSizeGb,
  monthlyTime,
  originalCents,
  planName,
  resolution,
  yearlyHoursFactor,
} from "../../src/features/billing/price";
import catalogue from "../../server/payments/plans.json";

// Intl puts a no-break space (U+00A0) or a narrow one (U+202F) between number and symbol; compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

const plan = (nickname: string, amount: number, monthly_minutes: number, interval: "month" | "year" = "month"): Plan => ({
  id: nickname,
  nickname,
  amount,
  amount_decimal: String(amount),
  original_amount: amount,
  interval,
  active: true,
  coupon: null,
  metadata: { monthly_minutes, video_tier: 1, storage_gb: 50, upload_max_length_minutes: 30, upload_max_size_mb: 2048, original_amount: amount },
});

describe("formatPrice: US$ from cents with two decimals, in each language", () => {
  const expected: Record<(typeof LOCALES)[number], [string, string, string]> = {
    en: ["US$ 0.00", "US$ 19.00", "US$ 7,080.00"],
    "pt-BR": ["US$ 0,00", "US$ 19,00", "US$ 7.080,00"],
    es: ["0,00 US$", "19,00 US$", "7080,00 US$"],
    it: ["0,00 USD", "19,00 USD", "7080,00 USD"],
    fr: ["0,00 $US", "19,00 $US", "7 080,00 $US"],
    de: ["0,00 US$", "19,00 US$", "7.080,00 US$"],
  };
  for (const locale of LOCALES) {
    it(`writes free, a monthly and a large yearly price in ${locale}`, () => {
      expect([0, 1900, 708000].map((cents) => plain(formatPrice(cents, locale)))).toEqual(expected[locale]);
    });
  }

  it("keeps the cents: 15600 is 156.00 and 1999 is 19.99", () => {
    expect(plain(formatPrice(15600, "en"))).toBe("US$ 156.00");
    expect(plain(formatPrice(1999, "pt-BR"))).toBe("US$ 19,99");
  });
});

describe("discountedPrice: amount × (100 − percent_off) / 100", () => {
  it("takes the percentage off and leaves the price alone without a coupon", () => {
    expect(discountedPrice(70800, 25)).toBe(53100);
    expect(discountedPrice(1900, 59)).toBe(779);
    expect(discountedPrice(1900, null)).toBe(1900);
    expect(discountedPrice(1900, 100)).toBe(0);
  });

  for (const locale of LOCALES) {
    it(`shows a discounted price with two decimals in ${locale}`, () => {
      expect(plain(formatPrice(discountedPrice(3900, 20), locale))).toMatch(/31[.,]20/);
    });
  }
});

describe("plan names and limits", () => {
  it("names a plan by its nickname before the first hyphen", () => {
    expect(planName("Professional - Yearly")).toBe("Professional");
    expect(planName("Professional BR - Monthly")).toBe("Professional BR");
    expect(planName("Free")).toBe("Free");
    expect(isProfessional(plan("Professional - Monthly", 7900, 600))).toBe(true);
    expect(isProfessional(plan("Professional BR - Monthly", 4900, 600))).toBe(false);
  });

  it("strikes through the original amount only when it is above what is charged", () => {
    expect(originalCents({ amount: 15600, original_amount: 22800 })).toBe(22800);
    expect(originalCents({ amount: 1900, original_amount: 1900 })).toBeNull();
    expect(originalCents({ amount: 0, original_amount: 500 })).toBeNull();
  });

  it("shows monthly minutes as hours from 120", () => {
    expect(monthlyTime(119)).toEqual({ unit: "minutes", value: 119 });
    expect(monthlyTime(120)).toEqual({ unit: "hours", value: 2 });
    expect(monthlyTime(1800)).toEqual({ unit: "hours", value: 30 });
  });

  it("reads the resolution from video_tier: 2 is 1080p, 4 is 4k, anything else 720p", () => {
    expect([0, 1, 2, 3, 4].map(resolution)).toEqual(["720p", "720p", "1080p", "720p", "4k"]);
  });

  it("gives the largest file in GB as MB / 1024", () => {
    expect(maxFileSizeGb(1024)).toBe(1);
    expect(maxFileSizeGb(5120)).toBe(5);
    expect(maxFileSizeGb(1536)).toBe(1.5);
  });

  const numbers: Record<(typeof LOCALES)[number], string> = { en: "2.5", "pt-BR": "2,5", es: "2,5", it: "2,5", fr: "2,5", de: "2,5" };
  for (const locale of LOCALES) {
    it(`writes hours and GB with the decimal mark of ${locale}`, () => {
      expect(formatNumber(2.5, locale)).toBe(numbers[locale]);
      expect(formatNumber(30, locale)).toBe("30");
    });
  }
});

describe("yearlyHoursFactor: the annual promise is read from the plans", () => {
  it("finds the shipped yearly plans give 3 times the monthly hours", () => {
    const plans = catalogue.plans.map((p) => ({ ...plan(p.nickname, p.amount, p.metadata.monthly_minutes, (p.interval ?? "month") as "month" | "year"), interval: p.interval as Plan["interval"] }));
    const monthly = plans.filter((p) => p.interval === "month");
    const yearly = plans.filter((p) => p.interval === "year");
    expect(yearlyHoursFactor(monthly, yearly)).toBe(3);
  });

  it("promises nothing when the yearly plans give no more hours", () => {
    expect(yearlyHoursFactor([plan("Starter - Monthly", 1900, 120)], [plan("Starter - Yearly", 15600, 120, "year")])).toBeNull();
  });
});
