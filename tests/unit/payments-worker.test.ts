import { beforeEach, describe, expect, it, vi } from "vitest";
import { CutroomDb } from "../../src/db";
import type { ApiCall } from "../../workers/api-client";
import { createPaymentActions } from "../../workers/payments";

const visa = { id: "pm_1", brand: "visa", last_four: "4242", exp_month: 12, exp_year: 2034, name: null };
const master = { id: "pm_2", brand: "mastercard", last_four: "4444", exp_month: 1, exp_year: 2030, name: null };
let db: CutroomDb;
let call: ReturnType<typeof vi.fn>;
let actions: ReturnType<typeof createPaymentActions>;

beforeEach(() => {
  db = new CutroomDb(`payments-${Math.random()}`);
  call = vi.fn();
  actions = createPaymentActions(db, call as unknown as ApiCall);
});

const meta = async (key: "paymentMethods" | "subscription" | "limits") => (await db.meta.get(key))?.value as Record<string, unknown> | undefined;

describe("the account page's billing mirror (workers/payments.ts)", () => {
  it("keeps the saved cards as the server lists them, and what is left after a removal", async () => {
    call.mockResolvedValueOnce({ ok: true, data: { data: [visa, master] } });
    await actions.refreshPaymentMethods();
    expect(call).toHaveBeenCalledWith("paymentMethods.list");
    expect((await meta("paymentMethods"))?.data).toEqual([visa, master]);

    call.mockResolvedValueOnce({ ok: true, data: { data: [master] } });
    await actions.removePaymentMethod("pm_1");
    expect(call).toHaveBeenLastCalledWith("paymentMethods.remove", { params: { id: "pm_1" } });
    expect((await meta("paymentMethods"))?.data).toEqual([master]);
  });

  it("saves a confirmed card by its id only, then lists the cards again", async () => {
    call.mockResolvedValueOnce({ ok: true, data: visa }).mockResolvedValueOnce({ ok: true, data: { data: [visa] } });
    const result = await actions.addPaymentMethod("pm_1");
    expect(result).toEqual({ ok: true, data: visa });
    expect(call.mock.calls).toEqual([["paymentMethods.add", { body: { payment_method: "pm_1" } }], ["paymentMethods.list"]]);
    expect((await meta("paymentMethods"))?.data).toEqual([visa]);
  });

  it("keeps what it last knew when the server cannot be reached", async () => {
    call.mockResolvedValueOnce({ ok: true, data: { data: [visa] } });
    await actions.refreshPaymentMethods();
    call.mockResolvedValueOnce({ ok: false, failure: { kind: "network" } });
    const result = await actions.refreshPaymentMethods();
    expect(result.ok).toBe(false);
    expect((await meta("paymentMethods"))?.data).toEqual([visa]);

    call.mockResolvedValueOnce({ ok: false, failure: { kind: "network" } });
    await actions.refreshSubscription();
    expect(await meta("subscription")).toBeUndefined();
  });

  it("mirrors the subscription and the plan's limits with when they were fetched", async () => {
    call.mockResolvedValueOnce({ ok: true, data: { stripe_plan: "free", renews_at: null } });
    await actions.refreshSubscription();
    expect(await meta("subscription")).toMatchObject({ stripe_plan: "free", renews_at: null, fetchedAt: expect.any(String) });
    call.mockResolvedValueOnce({ ok: true, data: { monthly_minutes: 30, video_tier: 0 } });
    await actions.refreshLimits();
    expect(await meta("limits")).toMatchObject({ monthly_minutes: 30, fetchedAt: expect.any(String) });
  });
});
