/**
 * Issue 16, one-time purchases: the export rights of a project bought once (the server's render and the app's
 * export form share the rule), the local gateway's judgement of test cards on its checkout page, the page
 * itself (test mode said first, in the buyer's language, nothing of the session unescaped), and the tier
 * names the purchase route accepts.
 */
import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import { LtdCheckoutQuery } from "../../api/checkout";
import { allowedTiers, projectExportRights } from "../../api/export-tiers";
import { checkoutPage } from "../../server/notify/checkout-page";
import { judgeTestCard, type LocalCheckoutSession } from "../../server/payments/local-gateway";

const session = (over: Partial<LocalCheckoutSession> = {}): LocalCheckoutSession => ({
  id: "cs_test_local_0123456789abcdef01234567",
  url: "http://localhost/local-gateway/checkout/cs_test_local_0123456789abcdef01234567",
  status: "open",
  payment_status: "unpaid",
  amount_total: 9800,
  customer: "cus_local_x",
  metadata: { locale: "en" },
  name: "Lifetime - Tier 2",
  success_url: "http://localhost/congratulations",
  cancel_url: "http://localhost/ltd/buy/tier2",
  requires_action: false,
  last_error: null,
  created: 0,
  ...over,
});

describe("a project bought once", () => {
  it("exports at 1080p without the watermark on the free plan; other projects follow the plan", () => {
    const free = { videoTier: 0, watermark: true };
    expect(projectExportRights(free, { export_unlocked: 1 })).toEqual({ videoTier: 2, watermark: false });
    expect(allowedTiers(projectExportRights(free, { export_unlocked: 1 }).videoTier)).toEqual([1, 2]);
    expect(projectExportRights(free, { export_unlocked: 0 })).toBe(free);
    expect(projectExportRights(free, {})).toBe(free);
    // A plan above 1080p keeps its 4k.
    expect(projectExportRights({ videoTier: 4, watermark: false }, { export_unlocked: 1 }).videoTier).toBe(4);
  });
});

describe("the local gateway's test cards", () => {
  const now = new Date("2026-11-25T00:00:00Z");
  const card = (number: string, exp_month = 12, exp_year = 34, cvc = "123") => judgeTestCard({ number, exp_month, exp_year, cvc }, now);
  it("judges Stripe's test cards as Stripe's test mode does", () => {
    expect(card("4242 4242 4242 4242")).toMatchObject({ brand: "visa", behaviour: "succeeds" });
    expect(card("4000-0000-0000-0002")).toMatchObject({ behaviour: "declined" });
    expect(card("4000002760003184")).toMatchObject({ behaviour: "authenticate" });
    expect(card("4242424242424241")).toEqual({ problem: "incorrect_number" });
    expect(card("4242424242424242", 13)).toEqual({ problem: "invalid_expiry_month" });
    expect(card("4242424242424242", 10, 2026)).toEqual({ problem: "expired_card" });
    expect(card("4242424242424242", 12, 34, "12")).toEqual({ problem: "invalid_cvc" });
    // A real card number (Luhn-valid, not a test card) is declined in test mode.
    expect(card("4111 1111 1111 1111")).toEqual({ problem: "live_card_in_test_mode" });
  });
});

describe("the hosted checkout page", () => {
  const en = setupI18n({ locale: "en", messages: { en: {} } });
  it("says test mode first, the item and amount, and escapes what it shows", () => {
    const html = checkoutPage(en, session({ name: `<script>alert(1)</script>` }));
    expect(html.indexOf("TEST MODE")).toBeLessThan(html.indexOf("US$ 98.00"));
    expect(html).toContain("US$ 98.00");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;");
    expect(html).toContain('action="/local-gateway/checkout/cs_test_local_0123456789abcdef01234567"');
    expect(html).toContain('autocomplete="cc-number"');
  });
  it("asks for the 3-D Secure step, and words a declined card", () => {
    expect(checkoutPage(en, session({ requires_action: true }))).toContain("Complete authentication");
    expect(checkoutPage(en, session({ last_error: { code: "card_declined", message: "x" } }))).toContain("Your card was declined.");
    expect(checkoutPage(en, null)).toContain("does not exist");
  });
  it("speaks the buyer's language", () => {
    const de = setupI18n({ locale: "de", messages: { de: { "checkout.page.testMode": "TESTMODUS: Es wird kein echtes Geld abgebucht" } } });
    const html = checkoutPage(de, session());
    expect(html).toContain('lang="de"');
    expect(html).toContain("TESTMODUS");
  });
});

describe("the lifetime purchase route's tier", () => {
  it("takes tier1…3 and the plan's own name, nothing else", () => {
    expect(LtdCheckoutQuery.parse({ ltd_tier: "tier2" }).ltd_tier).toBe("tier2");
    expect(LtdCheckoutQuery.parse({ ltd_tier: "ltd_tier3" }).ltd_tier).toBe("tier3");
    expect(LtdCheckoutQuery.safeParse({ ltd_tier: "tier4" }).success).toBe(false);
    expect(LtdCheckoutQuery.safeParse({ ltd_tier: "appsumo_tier1" }).success).toBe(false);
  });
});
