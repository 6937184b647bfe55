import { i18n } from "@lingui/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages as en } from "../../locales/en/messages.po";
import { messages as de } from "../../locales/de/messages.po";
import { messages as ptBR } from "../../locales/pt-BR/messages.po";
import { cardErrorMessage } from "../../src/features/billing/card-errors";
import { parseExpiry } from "../../src/features/billing/expiry";
import { cardBrandName } from "../../src/features/billing/card-brand";
import { FALLBACK_MONTHLY_MINUTES, formatMinutes, lifetimeTierNumber, planDisplayName } from "../../src/features/account/format";
import { formatDate } from "../../src/lib/format";

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: en }));
afterAll(() => i18n.loadAndActivate({ locale: "en", messages: en }));

describe("card errors (issue 16)", () => {
  it("words each card error code the gateways answer", () => {
    expect(cardErrorMessage("card_declined")).toBe("Your card was declined. Try another card or contact your bank.");
    expect(cardErrorMessage("incorrect_number")).toBe("Your card number is incorrect.");
    expect(cardErrorMessage("expired_card")).toBe("Your card has expired.");
    expect(cardErrorMessage("incorrect_cvc")).toBe(cardErrorMessage("invalid_cvc"));
    expect(cardErrorMessage("authentication_required")).toContain("confirm this payment");
    expect(cardErrorMessage("processing_error")).toBe("An error occurred while processing your card. Try again in a moment.");
  });

  it("treats a real card in test mode and the 3-D Secure failures like Stripe does", () => {
    expect(cardErrorMessage("live_card_in_test_mode")).toBe(cardErrorMessage("card_declined"));
    expect(cardErrorMessage("setup_intent_authentication_failure")).toBe(cardErrorMessage("payment_intent_authentication_failure"));
  });

  it("uses the gateway's words for a code it does not know, else a general message", () => {
    expect(cardErrorMessage("some_new_code", "The bank said no.")).toBe("The bank said no.");
    expect(cardErrorMessage(null)).toBe("Your card could not be used. Try another card.");
  });

  it("answers in the interface language", () => {
    i18n.loadAndActivate({ locale: "de", messages: de });
    const declined = cardErrorMessage("card_declined");
    expect(declined).not.toBe("Your card was declined. Try another card or contact your bank.");
    expect(declined.length).toBeGreaterThan(10);
    i18n.loadAndActivate({ locale: "pt-BR", messages: ptBR });
    expect(cardErrorMessage("expired_card")).not.toBe("Your card has expired.");
    i18n.loadAndActivate({ locale: "en", messages: en });
  });
});

describe("the card form's expiry field", () => {
  it("reads MM/YY, MM/YYYY and MMYY", () => {
    expect(parseExpiry("12/34")).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry(" 4 / 2031 ")).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry("0930")).toEqual({ month: 9, year: 2030 });
    expect(parseExpiry("12-34")).toBeNull();
    expect(parseExpiry("")).toBeNull();
  });
});

describe("card brands", () => {
  it("are written as their owners write them", () => {
    expect(cardBrandName("visa")).toBe("Visa");
    expect(cardBrandName("mastercard")).toBe("Mastercard");
    expect(cardBrandName("amex")).toBe("American Express");
    expect(cardBrandName("elo")).toBe("Elo");
  });
});

describe("the account page's wording of plans and quotas (SPEC §2, §9)", () => {
  it("names a plan by its nickname before the first hyphen", () => {
    expect(planDisplayName("Professional - Yearly")).toBe("Professional");
    expect(planDisplayName("Professional BR - Monthly")).toBe("Professional BR");
    expect(planDisplayName("Free")).toBe("Free");
  });

  it("shows minutes as hours from 120 minutes, in the language's units", () => {
    expect(formatMinutes(45, "en")).toBe("45 min");
    expect(formatMinutes(119.6, "en")).toBe("119 min");
    expect(formatMinutes(120, "en")).toBe("2 hr");
    expect(formatMinutes(FALLBACK_MONTHLY_MINUTES, "de")).toBe("20 Std.");
    expect(formatMinutes(150, "pt-BR")).toBe("2,5 h");
    expect(formatMinutes(-5, "en")).toBe("0 min");
  });

  it("reads the lifetime tier of ltd_tier and of a partner licence", () => {
    expect(lifetimeTierNumber("ltd_tier2")).toBe(2);
    expect(lifetimeTierNumber("appsumo_tier3")).toBe(3);
    expect(lifetimeTierNumber("lifetime")).toBeNull();
  });

  it("writes renewal dates MM/DD/YYYY in English and DD/MM/YYYY otherwise", () => {
    const renewal = new Date(2027, 0, 31, 12);
    expect(formatDate(renewal, "en")).toBe("01/31/2027");
    for (const locale of ["pt-BR", "es", "it", "fr", "de"] as const) expect(formatDate(renewal, locale)).toBe("31/01/2027");
  });
});
