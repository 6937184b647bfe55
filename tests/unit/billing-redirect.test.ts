import { describe, expect, it } from "vitest";
import { externalBillingRedirect } from "../../src/features/account/billing-redirect";

const links = (billingApp: string | null | undefined) => ({ links: { newAiApp: "", pricing: null, billingApp, help: "", contact: "", terms: "", forgotPassword: null, aiProduct: "", tipsVideo: "" } });

describe("/account's external billing redirect (SPEC §2 Account, issue 16)", () => {
  it("sends a user with no billing customer to the billing app the operator configured", () => {
    expect(externalBillingRedirect(links("https://billing.example/app"), { stripe_id: null })).toBe("https://billing.example/app");
  });
  it("keeps a user who has a billing customer on /account", () => {
    expect(externalBillingRedirect(links("https://billing.example/app"), { stripe_id: "cus_123" })).toBeNull();
  });
  it("never redirects when no billing app is configured (the default)", () => {
    expect(externalBillingRedirect(links(null), { stripe_id: null })).toBeNull();
    expect(externalBillingRedirect(links(undefined), { stripe_id: null })).toBeNull();
    expect(externalBillingRedirect(undefined, { stripe_id: null })).toBeNull();
  });
  it("does nothing before the user is known", () => {
    expect(externalBillingRedirect(links("https://billing.example/app"), null)).toBeNull();
  });
});

describe("BILLING_APP_URL", () => {
  it("is unset by default and reaches the public links when set", async () => {
    const { loadConfig } = await import("../../server/config");
    expect(loadConfig({ DATA_DIR: ".tmp/unit-config" }).links.billingApp).toBeNull();
    expect(loadConfig({ DATA_DIR: ".tmp/unit-config", BILLING_APP_URL: "https://billing.example/app" }).links.billingApp).toBe("https://billing.example/app");
  });
});
