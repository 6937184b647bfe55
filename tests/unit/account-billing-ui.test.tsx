import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { PaymentAttempt, PaymentMode, SubscriptionInfo } from "../../api/payments";
import { db, type UserRow } from "../../src/db";

// jsdom has no CSS.escape; react-aria's overlays read a meta tag with it.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => ({
  paymentSetupIntent: vi.fn(),
  addPaymentMethod: vi.fn(),
  refreshSubscription: vi.fn(async () => ({ ok: true })),
  refreshUser: vi.fn(async () => ({ ok: true })),
  refreshQuotas: vi.fn(async () => ({ ok: true })),
  refreshLimits: vi.fn(async () => ({ ok: true })),
}));
vi.mock("../../src/worker", () => ({ worker }));
vi.mock("../../src/app/hooks", () => ({ useConfig: () => ({ links: { contact: "mailto:support@example.com" } }) }));

// Stripe.js as @stripe/stripe-js/pure gives it: loaded only when the Stripe gateway is on.
const stripe = vi.hoisted(() => {
  const card = { on: vi.fn(), mount: vi.fn(), destroy: vi.fn() };
  const instance = { elements: vi.fn(() => ({ create: vi.fn(() => card) })), confirmCardSetup: vi.fn(), confirmCardPayment: vi.fn() };
  return { card, instance, loadStripe: vi.fn(async () => instance) };
});
vi.mock("@stripe/stripe-js/pure", () => ({ loadStripe: stripe.loadStripe }));

import { CardForm } from "../../src/features/billing/CardForm";
import { CurrentPlanCard } from "../../src/features/account/CurrentPlanCard";

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
const localMode: PaymentMode = { gateway: "local", mode: "test", publishable_key: null, local_gateway_url: "http://localhost/local-gateway/v1" };
const stripeMode: PaymentMode = { gateway: "stripe", mode: "live", publishable_key: "pk_live_123", local_gateway_url: null };
const method = { id: "pm_1", brand: "visa", last_four: "4242", exp_month: 12, exp_year: 2034, name: "Rui Costa" };

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  vi.clearAllMocks();
});
afterEach(async () => {
  cleanup();
  await db.meta.clear();
});

describe("the card form (issue 16, SPEC §5 Payment)", () => {
  it("with the local gateway: says test mode, lists the test cards and never loads Stripe.js", async () => {
    worker.paymentSetupIntent.mockResolvedValue({ ok: true, data: { client_secret: "seti_1_secret_x", payment_mode: localMode } });
    wrap(<CardForm onSaved={vi.fn()} />);
    expect(await screen.findByText("Test mode")).toBeTruthy();
    expect(screen.getByText("4000 0027 6000 3184")).toBeTruthy();
    expect(screen.getByLabelText(/Card number/)).toBeTruthy();
    expect(stripe.loadStripe).not.toHaveBeenCalled();
  });

  it("with the local gateway: sends the card to the gateway on this page's origin, never to the API, then saves the method", async () => {
    worker.paymentSetupIntent.mockResolvedValue({ ok: true, data: { client_secret: "seti_4_secret_w", payment_mode: { ...localMode, local_gateway_url: "http://cutroom.example:9999/local-gateway/v1" } } });
    worker.addPaymentMethod.mockResolvedValue({ ok: true, data: method });
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).endsWith("/setup_intents/confirm")
        ? new Response(JSON.stringify({ id: "seti_4", status: "requires_action", payment_method: "pm_1" }), { status: 200 })
        : new Response(JSON.stringify({ id: "seti_4", status: "succeeded", last_error: null }), { status: 200 }),
    );
    const onSaved = vi.fn();
    wrap(<CardForm onSaved={onSaved} />);
    fireEvent.change(await screen.findByLabelText(/Name on card/), { target: { value: "Rui Costa" } });
    fireEvent.change(screen.getByLabelText(/Card number/), { target: { value: "4000 0027 6000 3184" } });
    fireEvent.change(screen.getByLabelText(/Expiry/), { target: { value: "12/34" } });
    fireEvent.change(screen.getByLabelText(/Security code/), { target: { value: "123" } });
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));

    // The card needs 3-D Secure: the test-mode dialog stands for the bank.
    fireEvent.click(await screen.findByRole("button", { name: "Complete authentication" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(method));
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(["/local-gateway/v1/setup_intents/confirm", "/local-gateway/v1/intents/authenticate"]);
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toEqual({
      client_secret: "seti_4_secret_w",
      card: { number: "4000 0027 6000 3184", exp_month: 12, exp_year: 2034, cvc: "123" },
      billing_details: { name: "Rui Costa" },
    });
    expect(JSON.parse(String(fetchMock.mock.calls[1]![1]!.body))).toEqual({ client_secret: "seti_4_secret_w", outcome: "complete" });
    expect(worker.addPaymentMethod).toHaveBeenCalledWith("pm_1");
    fetchMock.mockRestore();
  });

  it("with Stripe: mounts Stripe's card field, confirms the setup with the name on the card, then saves the method", async () => {
    worker.paymentSetupIntent.mockResolvedValue({ ok: true, data: { client_secret: "seti_2_secret_y", payment_mode: stripeMode } });
    worker.addPaymentMethod.mockResolvedValue({ ok: true, data: method });
    stripe.instance.confirmCardSetup.mockResolvedValue({ setupIntent: { status: "succeeded", payment_method: "pm_1" } });
    const onSaved = vi.fn();
    wrap(<CardForm onSaved={onSaved} />);
    await waitFor(() => expect(stripe.card.mount).toHaveBeenCalled());
    expect(stripe.loadStripe).toHaveBeenCalledWith("pk_live_123");
    // Live keys: no test-mode notice.
    expect(screen.queryByText("Test mode")).toBeNull();

    // The card field says when its details are complete.
    const onChange = stripe.card.on.mock.calls.find(([event]) => event === "change")![1] as (e: { complete: boolean; error?: { code: string } }) => void;
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    expect(await screen.findByText("Enter the name on the card.")).toBeTruthy();
    expect(stripe.instance.confirmCardSetup).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(/Name on card/), { target: { value: "Rui Costa" } });
    onChange({ complete: true });
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(method));
    expect(stripe.instance.confirmCardSetup).toHaveBeenCalledWith("seti_2_secret_y", {
      payment_method: { card: stripe.card, billing_details: { name: "Rui Costa" } },
    });
    expect(worker.addPaymentMethod).toHaveBeenCalledWith("pm_1");
  });

  it("with Stripe: a declined card shows its message and nothing is saved", async () => {
    worker.paymentSetupIntent.mockResolvedValue({ ok: true, data: { client_secret: "seti_3_secret_z", payment_mode: stripeMode } });
    stripe.instance.confirmCardSetup.mockResolvedValue({ error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." } });
    wrap(<CardForm onSaved={vi.fn()} />);
    await waitFor(() => expect(stripe.card.mount).toHaveBeenCalled());
    const onChange = stripe.card.on.mock.calls.find(([event]) => event === "change")![1] as (e: { complete: boolean }) => void;
    fireEvent.change(screen.getByLabelText(/Name on card/), { target: { value: "Rui Costa" } });
    onChange({ complete: true });
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Your card was declined. Try another card or contact your bank.");
    expect(worker.addPaymentMethod).not.toHaveBeenCalled();
  });
});

const STARTER_PLAN = { id: "starter_month", nickname: "Starter - Monthly", amount: 1900, amount_decimal: "1900", original_amount: 1900, interval: "month" as const, active: true, coupon: null, metadata: { monthly_minutes: 300, video_tier: 1, storage_gb: 50, upload_max_length_minutes: 30, upload_max_size_mb: 2048, original_amount: 1900 } };
const attempt = (changes: Partial<PaymentAttempt>): PaymentAttempt => ({ id: 1, status: "succeeded", amount: 1900, percent_off: null, reason: "subscription_cycle", failure_code: null, failure_message: null, client_secret: null, created_at: "2026-11-01T10:00:00Z", ...changes });
const subscription = (changes: Partial<SubscriptionInfo> = {}, gateway: Partial<NonNullable<SubscriptionInfo["stripe_subscription"]>> = {}): SubscriptionInfo => ({
  stripe_plan: "starter_month",
  plan: STARTER_PLAN,
  updated_at: null,
  trial_ends_at: null,
  stripe_subscription: { status: "active", current_period_start: "2026-11-01T10:00:00Z", current_period_end: "2026-12-01T10:00:00Z", cancel_at: null, plan: "starter_month", pending_plan: null, coupon: null, ...gateway },
  interval: "month",
  renews_at: "2026-12-01T10:00:00Z",
  trial_available: false,
  deprecated: false,
  latest_payment: null,
  payment_mode: stripeMode,
  ...changes,
});
const user = (changes: Partial<UserRow> = {}) => ({ key: "me", locale: "en", ltd_tier: null, ltd_renew_at: null, plan: { id: "starter_month", nickname: "Starter - Monthly" }, ...changes }) as UserRow;
const showPlan = async (info: SubscriptionInfo, row = user()) => {
  await db.meta.put({ key: "subscription", value: { ...info, fetchedAt: new Date().toISOString() } });
  wrap(<CurrentPlanCard user={row} />);
  // The card reads the mirror: the cycle shows once the subscription is there.
  await screen.findByText("Billed monthly");
};

describe("the current-plan card (SPEC §2 Account, §8 payment messages)", () => {
  it("names the plan before the first hyphen, its cycle, renewal date and a coupon for the next charge", async () => {
    await showPlan(subscription({}, { coupon: { code: "SPRING", percent_off: 20 } }));
    expect(screen.getByText("Billed monthly")).toBeTruthy();
    expect(screen.getByText(/^Renews on \d{2}\/\d{2}\/2026\.$/)).toBeTruthy();
    expect(screen.getByText("Coupon SPRING: 20% off your next payment.")).toBeTruthy();
  });

  it("says when a downgrade waits for the period end", async () => {
    await showPlan(subscription({}, { pending_plan: "free" }));
    expect(screen.getByText(/^Your change to a lower plan takes effect on \d{2}\/\d{2}\/2026\.$/)).toBeTruthy();
  });

  it("a failed payment: SPEC's message and the card error", async () => {
    await showPlan(subscription({ latest_payment: attempt({ status: "failed", failure_code: "card_declined" }) }, { status: "past_due" }));
    expect(screen.getByText(/Your previous payment attempt failed\. You can try to pay again or contact us/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Contact" }).getAttribute("href")).toBe("mailto:support@example.com");
    expect(screen.getByText("Your card was declined. Try another card or contact your bank.")).toBeTruthy();
  });

  it("a pending payment: SPEC's advice to refresh", async () => {
    await showPlan(subscription({ latest_payment: attempt({ status: "pending" }) }));
    expect(screen.getByText("Payment pending... try refreshing in a couple of minutes")).toBeTruthy();
  });

  it("a payment waiting for 3-D Secure is confirmed through Stripe.js, then the account is read again", async () => {
    stripe.instance.confirmCardPayment.mockResolvedValue({ paymentIntent: { status: "succeeded" } });
    await showPlan(subscription({ latest_payment: attempt({ status: "requires_action", client_secret: "pi_1_secret_q" }) }, { status: "incomplete" }));
    fireEvent.click(screen.getByRole("button", { name: "Confirm payment" }));
    await waitFor(() => expect(worker.refreshSubscription).toHaveBeenCalled());
    expect(stripe.instance.confirmCardPayment).toHaveBeenCalledWith("pi_1_secret_q");
    expect(worker.refreshUser).toHaveBeenCalled();
  });

  it("a lifetime user sees the tier and renewal date instead", async () => {
    wrap(<CurrentPlanCard user={user({ ltd_tier: "ltd_tier2", ltd_renew_at: "2027-01-31T12:00:00Z" })} />);
    expect(await screen.findByText("Lifetime deal, Tier 2")).toBeTruthy();
    expect(screen.getByText("Your quotas renew on 01/31/2027.")).toBeTruthy();
  });
});
