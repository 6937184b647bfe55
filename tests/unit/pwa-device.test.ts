import { describe, expect, it, vi } from "vitest";

const worker = vi.hoisted(() => ({}));
vi.mock("../../src/worker", () => ({ worker }));

import type { PublicConfig } from "../../api/config";
import type { UserRow } from "../../src/db";
import { base64UrlToBytes, deviceName, hasRenderNotifications, shouldOfferPush, wantsPush } from "../../src/app/push";
import { formatGBorMB, persistStorageOnce, PERSIST_KEY, storageUse } from "../../src/app/storage";
import { createPushActions } from "../../workers/push";
import type { ApiCall } from "../../workers/api-client";

describe("storage use in the account menu", () => {
  it("shows MB below 1 GB and GB from 1 GB, one decimal", () => {
    expect(formatGBorMB(0)).toBe("0.0 MB");
    expect(formatGBorMB(12.34 * 1024 ** 2)).toBe("12.3 MB");
    expect(formatGBorMB(1023.9 * 1024 ** 2)).toBe("1,023.9 MB"); // grouped the way the language groups digits
    expect(formatGBorMB(1024 ** 3)).toBe("1.0 GB");
    expect(formatGBorMB(2.56 * 1024 ** 3)).toBe("2.6 GB");
  });

  it("turns an estimate into used and available", () => {
    expect(storageUse({ usage: 5 * 1024 ** 2, quota: 10 * 1024 ** 3 })).toEqual({ used: "5.0 MB", quota: "10.0 GB" });
    expect(storageUse({})).toBeNull();
    expect(storageUse(null)).toBeNull();
  });
});

describe("persistent storage", () => {
  const memory = () => {
    const map = new Map<string, string>();
    return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
  };

  it("asks once per device and remembers the answer", async () => {
    const store = memory();
    const storage = { persist: vi.fn(async () => true), persisted: vi.fn(async () => false) };
    await expect(persistStorageOnce(storage, store)).resolves.toBe(true);
    await expect(persistStorageOnce(storage, store)).resolves.toBe(true);
    expect(storage.persist).toHaveBeenCalledTimes(1);
    expect(store.map.get(PERSIST_KEY)).toBe("granted");
  });

  it("remembers a refusal too, and does not ask when storage is already persistent", async () => {
    const refused = memory();
    await expect(persistStorageOnce({ persist: async () => false, persisted: async () => false }, refused)).resolves.toBe(false);
    expect(refused.map.get(PERSIST_KEY)).toBe("denied");
    const persist = vi.fn(async () => true);
    await expect(persistStorageOnce({ persist, persisted: async () => true }, memory())).resolves.toBe(true);
    expect(persist).not.toHaveBeenCalled();
  });

  it("answers null where the browser has no storage manager", async () => {
    await expect(persistStorageOnce(undefined, memory())).resolves.toBeNull();
  });
});

describe("push on this device", () => {
  const user = (over: Partial<UserRow> = {}) => ({ features: ["render_notifications"], render_notifications: 1, ...over }) as UserRow;
  const config = (key: string | null) => ({ push: { vapidPublicKey: key } }) as PublicConfig;

  it("subscribes only with the feature, the user's switch on, a server key and permission", () => {
    expect(wantsPush(user(), config("BKey"), "granted")).toBe(true);
    expect(wantsPush(user({ render_notifications: 0 }), config("BKey"), "granted")).toBe(false);
    expect(wantsPush(user({ features: [] }), config("BKey"), "granted")).toBe(false);
    expect(wantsPush(user(), config(null), "granted")).toBe(false);
    expect(wantsPush(user(), config("BKey"), "default")).toBe(false);
    expect(wantsPush(user(), config("BKey"), "denied")).toBe(false);
    expect(hasRenderNotifications({ features: ["translation"] })).toBe(false);
  });

  it("offers notifications at a render once, and only to someone who would get them", () => {
    expect(shouldOfferPush(user(), config("BKey"), "default", false)).toBe(true);
    expect(shouldOfferPush(user(), config("BKey"), "default", true)).toBe(false);
    expect(shouldOfferPush(user(), config("BKey"), "granted", false)).toBe(false);
    expect(shouldOfferPush(user(), config("BKey"), "denied", false)).toBe(false);
    expect(shouldOfferPush(user({ render_notifications: 0 }), config("BKey"), "default", false)).toBe(false);
    expect(shouldOfferPush(user({ features: [] }), config("BKey"), "default", false)).toBe(false);
    expect(shouldOfferPush(user(), config(null), "default", false)).toBe(false);
    expect(shouldOfferPush(null, config("BKey"), "default", false)).toBe(false);
  });

  it("decodes a base64url VAPID key", () => {
    expect([...base64UrlToBytes("AQID_-8")]).toEqual([1, 2, 3, 255, 239]);
    expect(base64UrlToBytes("BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U")).toHaveLength(65);
  });

  it("names the device for the server", () => {
    expect(deviceName("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36")).toBe("Chrome on Android");
    expect(deviceName("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")).toBe("Safari on iOS");
    expect(deviceName("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0")).toBe("Edge on Windows");
    expect(deviceName("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")).toBe("Firefox on Linux");
    expect(deviceName("curl/8")).toBe("Browser");
  });

  it("the sync worker sends the subscription and the device, and forgets an endpoint", async () => {
    const call = vi.fn(async () => ({ ok: true, data: {} }));
    const actions = createPushActions(call as unknown as ApiCall);
    await actions.subscribePush({ endpoint: "https://push.example/abc", expirationTime: null, keys: { p256dh: "BKey", auth: "sec" } }, "Chrome on Android");
    expect(call).toHaveBeenCalledWith("push.subscribe", {
      body: { endpoint: "https://push.example/abc", expirationTime: null, keys: { p256dh: "BKey", auth: "sec" }, device: "Chrome on Android" },
    });
    await actions.unsubscribePush("https://push.example/abc");
    expect(call).toHaveBeenLastCalledWith("push.unsubscribe", { body: { endpoint: "https://push.example/abc" } });
  });
});
