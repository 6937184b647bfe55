import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { UserRow } from "../../src/db";

globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => ({
  setRenderNotifications: vi.fn(async (on: boolean) => ({ ok: true as const, data: { render_notifications: on ? 1 : 0 } })),
  setLocale: vi.fn(),
  logout: vi.fn(),
  subscribePush: vi.fn(),
  unsubscribePush: vi.fn(),
}));
vi.mock("../../src/worker", () => ({ worker }));
const config = vi.hoisted(() => ({ current: { links: { pricing: "https://example.com/pricing" }, push: { vapidPublicKey: "AQID" } } }));
vi.mock("../../src/app/hooks", () => ({ useConfig: () => config.current }));

import { UserMenu } from "../../src/app/UserMenu";
import { toasts } from "../../src/ui/Toast";

const makeUser = (over: Partial<UserRow> = {}): UserRow =>
  ({
    key: "me",
    id: 1,
    name: "Rui Costa",
    first_name: "Rui",
    last_name: "Costa",
    email: "rui@example.com",
    locale: "en",
    render_notifications: 1,
    features: ["render_notifications"],
    plan: { id: "pro", nickname: "Pro - monthly" },
    ...over,
  }) as UserRow;

const open = async (user: UserRow) => {
  render(
    <I18nProvider i18n={i18n}>
      <UserMenu user={user} />
    </I18nProvider>,
  );
  fireEvent.click(screen.getByRole("button", { name: "Account menu for Rui Costa" }));
  return screen.findByRole("menu");
};

/** A browser with Web Push whose permission is still to be asked. */
function stubPush(answer: NotificationPermission) {
  const requestPermission = vi.fn(async () => {
    Object.assign(Notification, { permission: answer });
    return answer;
  });
  vi.stubGlobal("Notification", { permission: "default", requestPermission });
  vi.stubGlobal("PushManager", class {});
  Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { getRegistration: async () => undefined } });
  return requestPermission;
}

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  vi.clearAllMocks();
  for (const toast of toasts.visibleToasts) toasts.close(toast.key);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
  Reflect.deleteProperty(navigator, "storage");
});

describe("the account menu", () => {
  it("shows this device's storage use, read when the menu opens", async () => {
    const estimate = vi.fn(async () => ({ usage: 5 * 1024 ** 2, quota: 10 * 1024 ** 3 }));
    Object.defineProperty(navigator, "storage", { configurable: true, value: { estimate } });
    await open(makeUser());
    expect(await screen.findByText("On this device: 5.0 MB of 10.0 GB")).toBeTruthy();
    expect(estimate).toHaveBeenCalledTimes(1);
  });

  it("has no render-notifications switch without the plan feature (SPEC §6)", async () => {
    await open(makeUser({ features: [] }));
    expect(screen.queryByRole("menuitemcheckbox", { name: "Render notifications" })).toBeNull();
  });

  it("turns render notifications off", async () => {
    await open(makeUser());
    const item = screen.getByRole("menuitemcheckbox", { name: "Render notifications" });
    expect(item.getAttribute("aria-checked")).toBe("true");
    fireEvent.click(item);
    await waitFor(() => expect(worker.setRenderNotifications).toHaveBeenCalledWith(false));
  });

  it("turning them on asks this browser for permission from the click, then saves", async () => {
    const requestPermission = stubPush("granted");
    await open(makeUser({ render_notifications: 0 }));
    const item = screen.getByRole("menuitemcheckbox", { name: "Render notifications" });
    expect(item.getAttribute("aria-checked")).toBe("false");
    fireEvent.click(item);
    // Asked synchronously inside the click: browsers refuse the question outside a gesture.
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(worker.setRenderNotifications).toHaveBeenCalledWith(true));
    await act(async () => {});
    expect(toasts.visibleToasts.map((t) => t.content.title)).toContain("Settings updated");
  });

  it("says so when the browser blocks notifications; the switch still saves for email", async () => {
    stubPush("denied");
    await open(makeUser({ render_notifications: 0 }));
    fireEvent.click(screen.getByRole("menuitemcheckbox", { name: "Render notifications" }));
    await waitFor(() => expect(worker.setRenderNotifications).toHaveBeenCalledWith(true));
    await waitFor(() => expect(toasts.visibleToasts.map((t) => t.content.title)).toContain("Notifications are blocked in this browser"));
  });

  it("offers to allow notifications here when they are on but this browser was never asked", async () => {
    const requestPermission = stubPush("granted");
    await open(makeUser());
    fireEvent.click(screen.getByRole("menuitem", { name: "Allow notifications on this device" }));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(worker.setRenderNotifications).not.toHaveBeenCalled();
  });
});
