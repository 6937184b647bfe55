import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Plan } from "../../api/plans";
import type { SubscriptionInfo } from "../../api/payments";

// jsdom has no CSS.escape; react-aria's overlays read a meta tag with it.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => ({
  refreshPlans: vi.fn(async () => ({ ok: true as const, data: [] })),
  checkCoupon: vi.fn(),
  updateSubscription: vi.fn(),
  refreshAccount: vi.fn(async () => undefined),
}));
vi.mock("../../src/worker", () => ({ worker }));
const navigate = vi.hoisted(() => vi.fn());
vi.mock("@tanstack/react-router", () => ({ useNavigate: () => navigate }));
const state = vi.hoisted(() => ({ user: null as unknown, meta: {} as Record<string, unknown> }));
vi.mock("../../src/app/hooks", () => ({ useCurrentUser: () => state.user }));
vi.mock("../../src/features/account/hooks", () => ({ useAccountMeta: (key: string) => state.meta[key] ?? null }));
const confirm = vi.hoisted(() => vi.fn());
vi.mock("../../src/features/billing/useConfirmPayment", () => ({ useConfirmPayment: () => ({ confirm, element: null }) }));
// The card form is A1's (its own tests); here it stands for "a card was saved".
vi.mock("../../src/features/billing/CardForm", () => ({
  CardForm: ({ onSaved }: { onSaved: (m: unknown) => void }) => (
    <button type="button" onClick={() => onSaved({ id: "pm_new", brand: "visa", last_four: "4242", exp_month: 12, exp_year: 2034, name: "Rui" })}>
      Save test card
    </button>
  ),
}));

import { db } from "../../src/db";
import { PlanPicker } from "../../src/features/billing/PlanPicker";
import { toasts } from "../../src/ui/Toast";

const plan = (id: string, nickname: string, amount: number, interval: "month" | "year", minutes: number, tier: number, storage: number): Plan => ({
  id,
  nickname,
  amount,
  amount_decimal: String(amount),
  original_amount: amount,
  interval,
  active: true,
  coupon: null,
  metadata: { monthly_minutes: minutes, video_tier: tier, storage_gb: storage, upload_max_length_minutes: 30, upload_max_size_mb: 2048, original_amount: amount },
});
const FREE = plan("free", "Free", 0, "month", 30, 0, 5);
const STARTER_MONTH = plan("starter_month", "Starter - Monthly", 1900, "month", 120, 1, 50);
const BASIC = plan("basic", "Basic", 0, "year", 60, 0, 10);
const STARTER_YEAR = plan("starter_year", "Starter - Yearly", 15600, "year", 360, 1, 50);
const PRO_YEAR = plan("professional_year", "Professional - Yearly", 70800, "year", 1800, 4, 200);

const paymentMode = { gateway: "local" as const, mode: "test" as const, publishable_key: null, local_gateway_url: "/local-gateway" };
const subscription = (current: Plan, live: boolean): SubscriptionInfo & { fetchedAt: string } => ({
  stripe_plan: current.id,
  plan: current,
  updated_at: null,
  trial_ends_at: null,
  stripe_subscription: live
    ? { status: "active", current_period_start: "2026-11-01T00:00:00Z", current_period_end: "2027-11-01T00:00:00Z", cancel_at: null, plan: current.id, pending_plan: null, coupon: null }
    : null,
  interval: live ? current.interval : null,
  renews_at: null,
  trial_available: !live,
  deprecated: false,
  latest_payment: null,
  payment_mode: paymentMode,
  fetchedAt: "",
});
const user = (planId: string, ltd: string | null = null) => ({ key: "me", id: 1, locale: "en", ltd_tier: ltd, plan: { id: planId, nickname: planId }, video_tier: 0 });
const attempt = (status: string, extra: Record<string, unknown> = {}) => ({ id: 7, status, amount: 70800, percent_off: null, reason: "subscription_update", failure_code: null, failure_message: null, client_secret: null, created_at: "", ...extra });

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(async () => {
  await db.meta.bulkPut([
    { key: "plans:month", value: { plans: [FREE, STARTER_MONTH], fetchedAt: "" } },
    { key: "plans:year", value: { plans: [BASIC, STARTER_YEAR, PRO_YEAR], fetchedAt: "" } },
  ]);
  state.user = user("free");
  state.meta = { subscription: subscription(FREE, false), paymentMethods: { data: [], fetchedAt: "" } };
  for (const key of ["checkCoupon", "updateSubscription"] as const) worker[key].mockReset();
  navigate.mockReset();
  confirm.mockReset();
});
afterEach(async () => {
  cleanup();
  for (const toast of toasts.visibleToasts) toasts.close(toast.key);
  await db.meta.clear();
});

const show = () => render(<I18nProvider i18n={i18n}><PlanPicker /></I18nProvider>);
const toastTexts = () => toasts.visibleToasts.map((t) => `${t.content.title}: ${t.content.description ?? ""}`);

async function openUpgrade(name: string) {
  show();
  fireEvent.click(await screen.findByRole("button", { name: `Choose ${name}` }));
  return screen.findByRole("dialog", { name: `Upgrade to ${name}` });
}

describe("PlanPicker (SPEC §2 Plan selection flow)", () => {
  it("shows yearly plans first, badges the current plan and offers nothing to choose on it", async () => {
    state.user = user("starter_year");
    state.meta.subscription = subscription(STARTER_YEAR, true);
    show();
    const current = (await screen.findByRole("heading", { name: "Starter" })).closest("li")!;
    expect(within(current as HTMLElement).getByText("My current plan")).toBeTruthy();
    expect(within(current as HTMLElement).queryByRole("button")).toBeNull();
    expect(screen.getByRole("button", { name: "Choose Professional" })).toBeTruthy();
  });

  it("is not there for lifetime users", () => {
    state.user = user("ltd_tier1", "ltd_tier1");
    const { container } = show();
    expect(container.textContent).toBe("");
  });

  it("runs the upgrade: details with the trial, coupon checked (invalid hides Next, empty clears), card, pay, success page", async () => {
    const dialog = await openUpgrade("Professional");
    expect(dialog.textContent).toContain("US$\u00a0708.00");
    expect(dialog.textContent).toContain("free trial");

    const coupon = within(dialog).getByLabelText("Coupon (optional)");
    fireEvent.change(coupon, { target: { value: "WRONG" } });
    expect(within(dialog).queryByRole("button", { name: "Next" })).toBeNull();
    worker.checkCoupon.mockResolvedValueOnce({ ok: true, data: { coupon: { isValid: false, percent_off: null, code: "WRONG" }, plan: { id: PRO_YEAR.id, amount: 70800, discounted_amount: 70800 } } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Apply" }));
    await within(dialog).findByText("This coupon is not valid.");
    expect(within(dialog).queryByRole("button", { name: "Next" })).toBeNull();
    fireEvent.change(coupon, { target: { value: "" } });
    expect(within(dialog).getByRole("button", { name: "Next" })).toBeTruthy();

    fireEvent.change(coupon, { target: { value: "SAVE25" } });
    worker.checkCoupon.mockResolvedValueOnce({ ok: true, data: { coupon: { isValid: true, percent_off: 25, code: "SAVE25" }, plan: { id: PRO_YEAR.id, amount: 70800, discounted_amount: 53100 } } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Apply" }));
    await within(dialog).findByText("25% off the first billing period only.");
    expect(dialog.textContent).toContain("US$\u00a0531.00");
    expect(worker.checkCoupon).toHaveBeenLastCalledWith("SAVE25", "professional_year");
    fireEvent.click(within(dialog).getByRole("button", { name: "Next" }));

    // No card yet: paying asks for a payment method and sends nothing.
    fireEvent.click(within(dialog).getByRole("button", { name: "Start free trial" }));
    expect(toastTexts()[0]).toMatch(/^Select a payment method/);
    expect(worker.updateSubscription).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole("button", { name: "Add a new card" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Save test card" }));
    worker.updateSubscription.mockResolvedValueOnce({ ok: true, data: { subscription_updated: true, change: "trial_started", payment: null, subscription: subscription(PRO_YEAR, true) } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Start free trial" }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: "/payment/$status", params: { status: "success" }, search: {} }));
    expect(worker.updateSubscription).toHaveBeenCalledWith("professional_year", "pm_new", "SAVE25");
  });

  it("says the card's error and 'payment error' when the charge fails (no subscription_updated)", async () => {
    state.meta.paymentMethods = { data: [{ id: "pm_1", brand: "visa", last_four: "0341", exp_month: 1, exp_year: 2030, name: null }], fetchedAt: "" };
    state.meta.subscription = { ...subscription(FREE, false), trial_available: false };
    const dialog = await openUpgrade("Professional");
    fireEvent.click(within(dialog).getByRole("button", { name: "Next" }));
    worker.updateSubscription.mockResolvedValueOnce({
      ok: true,
      data: { change: "payment_failed", payment: attempt("failed", { failure_code: "card_declined", failure_message: "Your card was declined." }), subscription: subscription(FREE, false) },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Pay" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Your card was declined. Try another card or contact your bank.");
    expect(toastTexts()).toContain("Error: payment error");
    expect(worker.updateSubscription).toHaveBeenCalledWith("professional_year", "pm_1", null);
    expect(navigate).not.toHaveBeenCalled();
  });

  it("confirms a payment that needs 3-D Secure, then waits for it on the processing page", async () => {
    state.meta.paymentMethods = { data: [{ id: "pm_3ds", brand: "visa", last_four: "3184", exp_month: 1, exp_year: 2030, name: null }], fetchedAt: "" };
    state.meta.subscription = { ...subscription(FREE, false), trial_available: false };
    confirm.mockResolvedValueOnce("succeeded");
    const dialog = await openUpgrade("Professional");
    fireEvent.click(within(dialog).getByRole("button", { name: "Next" }));
    worker.updateSubscription.mockResolvedValueOnce({
      ok: true,
      data: { change: "requires_action", payment: attempt("requires_action", { client_secret: "pi_7_secret" }), subscription: subscription(FREE, false) },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Pay" }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: "/payment/$status", params: { status: "processing" }, search: { payment: 7 } }));
    expect(confirm).toHaveBeenCalledWith("pi_7_secret", paymentMode);
    expect(worker.refreshAccount).toHaveBeenCalled();
  });

  it("says 'Error processing payment' when the request fails", async () => {
    state.meta.paymentMethods = { data: [{ id: "pm_1", brand: "visa", last_four: "4242", exp_month: 1, exp_year: 2030, name: null }], fetchedAt: "" };
    const dialog = await openUpgrade("Professional");
    fireEvent.click(within(dialog).getByRole("button", { name: "Next" }));
    worker.updateSubscription.mockResolvedValueOnce({ ok: false, failure: { kind: "network" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Start free trial" }));
    await waitFor(() => expect(toastTexts()).toContain("Error: Error processing payment"));
  });

  it("confirms a downgrade with what is lost, effective at the period end", async () => {
    state.user = user("professional_year");
    state.meta.subscription = subscription(PRO_YEAR, true);
    show();
    fireEvent.click(await screen.findByRole("button", { name: "Switch to Starter" }));
    const dialog = await screen.findByRole("dialog", { name: "Switch to Starter?" });
    expect(dialog.textContent).toContain("at the end of this billing period, on 11/01/2027");
    expect(dialog.textContent).toContain("Exports up to 720p instead of 4k");
    expect(dialog.textContent).toContain("Storage: 50 GB instead of 200 GB");
    worker.updateSubscription.mockResolvedValueOnce({ ok: true, data: { subscription_updated: true, change: "downgrade_scheduled", payment: null, subscription: subscription(PRO_YEAR, true) } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Switch to Starter" }));
    await waitFor(() => expect(worker.updateSubscription).toHaveBeenCalledWith("starter_year", null, null));
    await waitFor(() => expect(toastTexts()[0]).toMatch(/^Plan change scheduled/));
  });

  it("cancels renewal by choosing Free, warning of the paid features lost", async () => {
    state.user = user("professional_year");
    state.meta.subscription = subscription(PRO_YEAR, true);
    show();
    fireEvent.click(await screen.findByRole("button", { name: "Cancel renewal" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel renewal?" });
    expect(dialog.textContent).toContain("Auto subtitle translation, priority support, and videos without a watermark");
    worker.updateSubscription.mockResolvedValueOnce({ ok: true, data: { subscription_updated: true, change: "cancel_scheduled", payment: null, subscription: subscription(PRO_YEAR, true) } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel renewal" }));
    await waitFor(() => expect(worker.updateSubscription).toHaveBeenCalledWith("free", null, null));
  });
});
