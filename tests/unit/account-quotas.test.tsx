import { cleanup, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Limits, Quotas } from "../../api/user";
import { db, type UserRow } from "../../src/db";
import { QuotasCard } from "../../src/features/account/QuotasCard";

const GB = 1024 ** 3;
const user = (changes: Partial<UserRow> = {}) => ({ key: "me", video_tier: 0, ltd_tier: null, max_storage: 5 * GB, total_used_storage: 1 * GB, ...changes }) as UserRow;
const quotas: Quotas = { processingMinutes: 600, storageBytes: 4 * GB, uploadMaxLengthMinutes: 10, uploadMaxSizeBytes: 1 * GB };
const limits = (monthly: number): Limits & { fetchedAt: string } => ({
  plan: { id: "free", nickname: "Free" },
  monthly_minutes: monthly,
  video_tier: 0,
  storage_gb: 5,
  upload_max_length_minutes: 10,
  upload_max_size_mb: 1024,
  fetchedAt: new Date().toISOString(),
});
const renderCard = (row: UserRow) => render(<I18nProvider i18n={i18n}><QuotasCard user={row} /></I18nProvider>);

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(async () => {
  await db.meta.clear();
  await db.meta.put({ key: "quotas", value: quotas });
});
afterEach(cleanup);

describe("the quotas card (SPEC §2 Account, §9)", () => {
  it("shows the minutes and storage left as rings, and the per-file limits", async () => {
    await db.meta.put({ key: "limits", value: limits(2400) });
    renderCard(user());
    const length = await screen.findByRole("meter", { name: "Available length" });
    expect(length.getAttribute("aria-valuenow")).toBe("25");
    expect(length.getAttribute("aria-valuetext")).toBe("10 hr");
    expect(screen.getByText("of 40 hr this period")).toBeTruthy();
    const size = screen.getByRole("meter", { name: "Available size" });
    expect(size.getAttribute("aria-valuenow")).toBe("80");
    expect(size.getAttribute("aria-valuetext")).toBe("4.0 GB");
    expect(screen.getByText("10 min")).toBeTruthy();
    expect(screen.getByText("1.0 GB")).toBeTruthy();
  });

  it("counts the length ring against 1200 minutes when there is no plan", async () => {
    await db.meta.put({ key: "limits", value: limits(0) });
    renderCard(user());
    const length = await screen.findByRole("meter", { name: "Available length" });
    expect(length.getAttribute("aria-valuenow")).toBe("50");
    expect(screen.getByText("of 20 hr this period")).toBeTruthy();
  });

  it("offers Upgrade on the storage side only below tier 1", async () => {
    renderCard(user({ video_tier: 0 }));
    expect(await screen.findByRole("button", { name: "Upgrade" })).toBeTruthy();
    cleanup();
    renderCard(user({ video_tier: 1 }));
    await screen.findByRole("meter", { name: "Available size" });
    expect(screen.queryByRole("button", { name: "Upgrade" })).toBeNull();
    cleanup();
    renderCard(user({ video_tier: 0, ltd_tier: "ltd_tier1" }));
    await screen.findByRole("meter", { name: "Available size" });
    expect(screen.queryByRole("button", { name: "Upgrade" })).toBeNull();
  });
});
