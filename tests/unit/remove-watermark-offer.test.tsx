import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeProject } from "./edit-fixtures";

const worker = vi.hoisted(() => ({ checkoutOffers: vi.fn(), startVideoCheckout: vi.fn() }));
vi.mock("../../src/worker", () => ({ worker }));
type TestUser = { video_tier: number; ltd_tier: string | null };
const hooks = vi.hoisted(() => ({ user: { video_tier: 0, ltd_tier: null } as TestUser }));
vi.mock("../../src/app/hooks", () => ({ useCurrentUser: () => hooks.user, useConfig: () => null }));
const toasts = vi.hoisted(() => vi.fn());
vi.mock("../../src/ui/Toast", () => ({ toast: toasts }));

import { RemoveWatermarkOffer } from "../../src/features/preview/RemoveWatermarkOffer";

/** The offer inside a router (its plans link is a router link). */
function wrap(ui: ReactNode) {
  const router = createRouter({ routeTree: createRootRoute({ component: () => <>{ui}</> }), history: createMemoryHistory({ initialEntries: ["/"] }) });
  return render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
}
const ready = makeProject({ id: 7, status: "Preview Ready" });
const assign = vi.fn();

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
  Object.defineProperty(window, "location", { value: { ...window.location, assign }, writable: true });
});
beforeEach(() => {
  hooks.user = { video_tier: 0, ltd_tier: null };
  worker.checkoutOffers.mockReset().mockResolvedValue({ ok: true, data: { lifetime: [], video_export: { amount: 900 } } });
  worker.startVideoCheckout.mockReset();
  toasts.mockReset();
  assign.mockReset();
});
afterEach(cleanup);

describe("Remove watermark on the preview (SPEC §2, §6; issue 16)", () => {
  it("offers a free user this video's watermark-free export at the catalogue's one-time price, and the plans", async () => {
    worker.startVideoCheckout.mockResolvedValue({ ok: true, data: { id: "cs_1", url: "http://localhost/local-gateway/checkout/cs_1" } });
    wrap(<RemoveWatermarkOffer project={ready} />);
    const button = await screen.findByRole("button", { name: "Remove watermark for this video (one-time US$ 9.00)" });
    expect(screen.getByRole("link", { name: "or see the plans" }).getAttribute("href")).toBe("/account#plans");
    fireEvent.click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledWith("http://localhost/local-gateway/checkout/cs_1"));
    expect(worker.startVideoCheckout).toHaveBeenCalledWith(7);
  });

  it("says why when the payment page cannot be opened", async () => {
    worker.startVideoCheckout.mockResolvedValue({ ok: false, failure: { kind: "body", status: 409, body: { code: "export_unlocked", message: "x" } } });
    wrap(<RemoveWatermarkOffer project={ready} />);
    fireEvent.click(await screen.findByRole("button", { name: /Remove watermark for this video/ }));
    await waitFor(() => expect(toasts).toHaveBeenCalled());
    expect(toasts.mock.calls[0]![0]).toMatchObject({ variant: "danger", title: "Could not open the payment page", description: "This video already exports at 1080p without the watermark." });
    expect(assign).not.toHaveBeenCalled();
  });

  it("says a bought video is unlocked, and shows nothing to paid or lifetime users", async () => {
    const { unmount } = wrap(<RemoveWatermarkOffer project={{ ...ready, export_unlocked: 1 }} />);
    expect(await screen.findByText("This video exports at 1080p without the watermark.")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
    unmount();
    hooks.user = { video_tier: 0, ltd_tier: "ltd_tier1" };
    const lifetime = wrap(<RemoveWatermarkOffer project={ready} />);
    await waitFor(() => expect(screen.queryByText(/watermark/i)).toBeNull());
    lifetime.unmount();
    hooks.user = { video_tier: 2, ltd_tier: null };
    wrap(<RemoveWatermarkOffer project={ready} />);
    await waitFor(() => expect(screen.queryByText(/watermark/i)).toBeNull());
    expect(worker.checkoutOffers).toHaveBeenCalledTimes(0);
  });
});
