import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { centsToDollars, discountedAmount } from "../../api/payments";
import { addMonths, discounted, dollars, prorationCharge, usageWindowStart } from "../../server/domain/billing";
import { signWebhook, verifyWebhookSignature } from "../../server/payments/gateway";
import { luhnValid } from "../../server/payments/local-gateway";
import { loadCatalogue } from "../../server/payments/catalogue";
import { PLAN_CATALOGUE } from "../../server/domain/plans";

const at = (iso: string) => Date.parse(iso);

describe("prices and discounts (SPEC §9)", () => {
  it("discounted = amount × (100 − percent_off) / 100, in whole cents", () => {
    expect(discounted(3900, 50)).toBe(1950);
    expect(discounted(70800, 59)).toBe(29028);
    expect(discounted(1900, 20)).toBe(1520);
    // 4900 × 67 / 100 = 3283 exactly; 999 × 33 / 100 = 329.67 → 330.
    expect(discounted(4900, 33)).toBe(3283);
    expect(discounted(999, 67)).toBe(330);
    expect(discounted(3900, 100)).toBe(0);
    expect(discounted(3900, null)).toBe(3900);
    expect(discounted(3900, 0)).toBe(3900);
    // The app's copy of the rule gives the same cents.
    for (const [amount, off] of [[3900, 50], [999, 67], [70800, 59], [15600, 20]] as const) expect(discountedAmount(amount, off)).toBe(discounted(amount, off));
  });

  it("cents → dollars with two decimals", () => {
    expect(dollars(3900)).toBe("39.00");
    expect(dollars(1950)).toBe("19.50");
    expect(dollars(0)).toBe("0.00");
    expect(dollars(5)).toBe("0.05");
    expect(dollars(70800)).toBe("708.00");
    expect(centsToDollars(29028)).toBe("290.28");
  });
});

describe("billing periods", () => {
  it("adds calendar months, clamped to the month's last day", () => {
    expect(new Date(addMonths(at("2026-01-31T10:00:00Z"), 1)).toISOString()).toBe("2026-02-28T10:00:00.000Z");
    expect(new Date(addMonths(at("2028-01-31T10:00:00Z"), 1)).toISOString()).toBe("2028-02-29T10:00:00.000Z");
    expect(new Date(addMonths(at("2026-11-15T00:00:00Z"), 2)).toISOString()).toBe("2027-01-15T00:00:00.000Z");
    expect(new Date(addMonths(at("2026-03-10T00:00:00Z"), 12)).toISOString()).toBe("2027-03-10T00:00:00.000Z");
  });

  it("prorates an upgrade: the difference for the time left, or a new period less the unused part", () => {
    const periodStart = at("2026-04-01T00:00:00Z");
    const periodEnd = at("2026-05-01T00:00:00Z");
    const half = at("2026-04-16T00:00:00Z");
    expect(prorationCharge({ oldAmount: 1900, newAmount: 7900, sameInterval: true, periodStart, periodEnd, now: half })).toBe(3000);
    expect(prorationCharge({ oldAmount: 1900, newAmount: 7900, sameInterval: true, periodStart, periodEnd, now: periodStart })).toBe(6000);
    expect(prorationCharge({ oldAmount: 1900, newAmount: 7900, sameInterval: true, periodStart, periodEnd, now: periodEnd })).toBe(0);
    // Monthly → yearly: the full year now, less half the month unused.
    expect(prorationCharge({ oldAmount: 3900, newAmount: 33600, sameInterval: false, periodStart, periodEnd, now: half })).toBe(33600 - 1950);
    // Never a negative charge.
    expect(prorationCharge({ oldAmount: 7900, newAmount: 1900, sameInterval: true, periodStart, periodEnd, now: half })).toBe(0);
  });

  it("counts processing minutes from the billing anchor's last monthly anniversary, else the calendar month", () => {
    expect(new Date(usageWindowStart(at("2026-06-20T12:00:00Z"), null)).toISOString()).toBe("2026-06-01T00:00:00.000Z");
    // A monthly period that began on the 10th.
    expect(new Date(usageWindowStart(at("2026-06-20T12:00:00Z"), at("2026-06-10T08:00:00Z"))).toISOString()).toBe("2026-06-10T08:00:00.000Z");
    // An annual plan bought on 2026-01-31: its minutes start again each month (Feb 28, Mar 31…).
    expect(new Date(usageWindowStart(at("2026-03-05T00:00:00Z"), at("2026-01-31T09:00:00Z"))).toISOString()).toBe("2026-02-28T09:00:00.000Z");
    expect(new Date(usageWindowStart(at("2026-04-02T00:00:00Z"), at("2026-01-31T09:00:00Z"))).toISOString()).toBe("2026-03-31T09:00:00.000Z");
  });
});

describe("local gateway checks", () => {
  it("checks card numbers with Luhn's checksum", () => {
    for (const n of ["4242424242424242", "4000000000000002", "4000002760003184", "5555555555554444", "4000000000000341"]) expect(luhnValid(n)).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("1234")).toBe(false);
  });

  it("verifies Stripe-style webhook signatures and refuses stale or altered ones", () => {
    const body = JSON.stringify({ id: "evt_1", type: "invoice.paid" });
    const header = signWebhook("whsec_test", body, 1_800_000_000);
    expect(verifyWebhookSignature("whsec_test", body, header, 1_800_000_010)).toBe(true);
    expect(verifyWebhookSignature("whsec_test", body.replace("evt_1", "evt_2"), header, 1_800_000_010)).toBe(false);
    expect(verifyWebhookSignature("whsec_other", body, header, 1_800_000_010)).toBe(false);
    expect(verifyWebhookSignature("whsec_test", body, header, 1_800_000_000 + 3600)).toBe(false);
    expect(verifyWebhookSignature("whsec_test", body, undefined, 1_800_000_010)).toBe(false);
  });
});

describe("the plans file (PLANS_FILE)", () => {
  const write = (content: unknown) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-plans-unit-"));
    const file = path.join(dir, "plans.json");
    fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
  };
  const free = PLAN_CATALOGUE.find((p) => p.id === "free")!;

  it("ships every SPEC plan, monthly and annual, in cents", () => {
    const shipped = loadCatalogue(null);
    expect(shipped.plans.map((p) => p.nickname)).toEqual(expect.arrayContaining(["Free", "Basic", "Starter - Monthly", "Standard - Yearly", "Professional - Monthly", "Professional BR - Yearly", "Lifetime - Tier 1"]));
    expect(shipped.plans.find((p) => p.id === "professional_year")).toMatchObject({ amount: 70800, interval: "year", metadata: { video_tier: 4, storage_gb: 200 } });
  });

  it("takes an operator's plans and coupons, and refuses a broken file with its reasons", () => {
    const own = loadCatalogue(write({ plans: [free, { ...free, id: "team", nickname: "Team", amount: 9900, original_amount: 9900, metadata: { ...free.metadata, monthly_minutes: 5000 } }], coupons: [{ code: "SPRING", percent_off: 30 }] }));
    expect(own.plans.map((p) => p.id)).toEqual(["free", "team"]);
    expect(own.coupons).toEqual([{ code: "SPRING", percent_off: 30, valid: true }]);
    expect(() => loadCatalogue(write({ plans: [{ ...free, id: "solo" }] }))).toThrow(/"free" with amount 0 is required/);
    expect(() => loadCatalogue(write({ plans: [free, { ...free, amount: -1, id: "neg" }] }))).toThrow(/plans\.1\.amount/);
    expect(() => loadCatalogue(write({ plans: [free], coupons: [{ code: "X", percent_off: 120 }] }))).toThrow(/percent_off/);
    expect(() => loadCatalogue(write("{not json"))).toThrow(/could not be read/);
  });
});
