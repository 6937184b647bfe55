import { describe, expect, it } from "vitest";
import type { Plan } from "../../api/plans";
import { decide, lostOnDowngrade, settledStatus } from "../../src/features/billing/plan-selection";

const plan = (id: string, amount: number, metadata: Partial<Plan["metadata"]> = {}): Plan => ({
  id,
  nickname: id,
  amount,
  amount_decimal: String(amount),
  original_amount: amount,
  interval: "month",
  active: true,
  coupon: null,
  metadata: { monthly_minutes: 600, video_tier: 4, storage_gb: 200, upload_max_length_minutes: 90, upload_max_size_mb: 5120, original_amount: amount, ...metadata },
});

describe("SPEC §2 Plan selection flow", () => {
  it("does nothing for the current plan", () => {
    expect(decide(plan("standard_month", 3900), "standard_month", 3900)).toBe("none");
  });

  it("confirms a downgrade for a plan at or below the current amount", () => {
    expect(decide(plan("starter_month", 1900), "standard_month", 3900)).toBe("downgrade");
    expect(decide(plan("standard_year", 3900), "standard_month", 3900)).toBe("downgrade");
    expect(decide(plan("free", 0), "standard_month", 3900)).toBe("downgrade");
  });

  it("runs the upgrade flow for a dearer plan, from Free too", () => {
    expect(decide(plan("professional_month", 7900), "standard_month", 3900)).toBe("upgrade");
    expect(decide(plan("starter_month", 1900), "free", 0)).toBe("upgrade");
  });

  it("changes nothing when a free user picks another free plan (Basic is given, not chosen)", () => {
    expect(decide(plan("basic", 0), "free", 0)).toBe("none");
  });
});

describe("the downgrade warning lists what is lost", () => {
  it("names fewer hours, a lower resolution, less storage, shorter files and the paid features", () => {
    const professional = plan("professional_month", 7900);
    const free = plan("free", 0, { monthly_minutes: 30, video_tier: 0, storage_gb: 5, upload_max_length_minutes: 10 });
    expect(lostOnDowngrade(professional, free)).toEqual([
      { kind: "hours", from: 600, to: 30 },
      { kind: "resolution", from: 4, to: 0 },
      { kind: "storage", from: 200, to: 5 },
      { kind: "file", from: 90, to: 10 },
      { kind: "paid-features" },
    ]);
  });

  it("says nothing of what stays the same (a yearly plan to the monthly one of the same name)", () => {
    expect(lostOnDowngrade(plan("standard_year", 33600), plan("standard_month", 3900))).toEqual([]);
  });
});

describe("payment status pages (SPEC §4 Payment)", () => {
  it("goes from processing to success, failed or pending as the payment settles", () => {
    expect(settledStatus({ status: "succeeded" })).toBe("success");
    expect(settledStatus({ status: "failed" })).toBe("failed");
    expect(settledStatus({ status: "requires_action" })).toBe("failed");
    expect(settledStatus({ status: "pending" })).toBe("pending");
    expect(settledStatus({ status: "processing" })).toBeNull();
    // A trial charges nothing: no payment is success.
    expect(settledStatus(null)).toBe("success");
  });
});
