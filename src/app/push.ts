import { liveQuery } from "dexie";
import { msg } from "@lingui/core/macro";
import { useSyncExternalStore } from "react";
import type { PublicConfig } from "../../api/config";
import { db, type UserRow } from "../db";
import { i18n } from "../i18n";
import { toast } from "../ui/Toast";
import { worker } from "../worker";
import { persistStorageOnce } from "./storage";

/**
 * Web Push on this device (SPEC §2 Service worker, §6). The subscription lives on the service
 * worker's registration, so the page holds it; the sync worker sends it to the server.
 * Permission is only ever asked from a gesture (`turnOnRenderNotifications`), never on load.
 */

export const pushSupported = () =>
  typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** SPEC §6: render notifications are a plan feature. */
export const hasRenderNotifications = (user: Pick<UserRow, "features">) => user.features.includes("render_notifications");

/** The server's VAPID public key; null when it does not send pushes. */
export const vapidKey = (config: PublicConfig | null | undefined) => config?.push?.vapidPublicKey ?? null;

/** Whether this device should hold a subscription for the signed-in user. */
export function wantsPush(user: UserRow, config: PublicConfig, permission: NotificationPermission): boolean {
  return hasRenderNotifications(user) && user.render_notifications === 1 && !!vapidKey(config) && permission === "granted";
}

/** A VAPID key as the push manager takes it (base64url → bytes). */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = (value + "=".repeat((4 - (value.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const sameBytes = (a: ArrayBuffer | null | undefined, b: Uint8Array) => {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
};

const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/Edg\//, "Edge"],
  [/OPR\//, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

/** "Chrome on Android": how the server tells this user's devices apart. */
export function deviceName(userAgent: string): string {
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1] ?? "Browser";
  const os = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  return os ? `${browser} on ${os}` : browser;
}

// ── Notification permission, as React reads it ─────────────────────────────────────────────

const permissionListeners = new Set<() => void>();
const notifyPermission = () => permissionListeners.forEach((l) => l());
const currentPermission = (): NotificationPermission => (pushSupported() ? Notification.permission : "denied");

export const useNotificationPermission = () =>
  useSyncExternalStore(
    (l) => (permissionListeners.add(l), () => permissionListeners.delete(l)),
    currentPermission,
  );

// ── Keeping the subscription in step with the user ─────────────────────────────────────────

const registration = async () => (pushSupported() ? ((await navigator.serviceWorker.getRegistration("/")) ?? null) : null);

/** The subscription already sent in this page's life ("<user id> <endpoint>"), to send it once. */
let sent: string | null = null;
let latest: { user: UserRow | null; config: PublicConfig | null } | null = null;
let queue: Promise<void> = Promise.resolve();

async function reconcile(user: UserRow | null, config: PublicConfig | null): Promise<void> {
  const reg = await registration();
  if (!reg) return;
  const existing = await reg.pushManager.getSubscription();
  if (!user) {
    // Signed out (or never signed in): nothing may reach this device for anybody.
    await existing?.unsubscribe();
    sent = null;
    return;
  }
  // The set-up is not known yet (first start offline): change nothing.
  if (!config || config.push === undefined) return;
  const key = vapidKey(config);
  if (!key || !wantsPush(user, config, currentPermission())) {
    if (existing) {
      await worker.unsubscribePush(existing.endpoint);
      await existing.unsubscribe();
    }
    sent = null;
    return;
  }
  const bytes = base64UrlToBytes(key);
  let subscription = existing && sameBytes(existing.options.applicationServerKey, bytes) ? existing : null;
  if (!subscription) {
    // A subscription made with another key (the server's keys changed) cannot receive our pushes.
    await existing?.unsubscribe();
    subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
  }
  const mark = `${user.id} ${subscription.endpoint}`;
  if (sent === mark) return;
  const result = await worker.subscribePush(subscription.toJSON(), deviceName(navigator.userAgent));
  if (result.ok) sent = mark;
}

/** What the subscription depends on; the mirror rewrites the user on every refresh without changing these. */
const inputsOf = (user: UserRow | null, config: PublicConfig | null) =>
  JSON.stringify([user?.id, user?.render_notifications, user && hasRenderNotifications(user), config?.push?.vapidPublicKey, currentPermission()]);
let settled: string | null = null;

/**
 * Runs one reconcile at a time, with the newest user and set-up; again only when something it
 * depends on changed (a failing push service is not asked every minute), or when `force`d by a gesture.
 */
function syncPush(force = false): Promise<void> {
  queue = queue.then(async () => {
    if (!latest) return;
    const inputs = inputsOf(latest.user, latest.config);
    if (!force && inputs === settled) return;
    settled = inputs;
    await reconcile(latest.user, latest.config).catch((error: unknown) => console.warn("push subscription", error));
  });
  return queue;
}

/**
 * Once the app runs: follows the signed-in user and the server's set-up, keeps this device's
 * push subscription in step, and asks once for persistent storage after sign-in.
 */
export function watchDevice(): () => void {
  const subscription = liveQuery(async () => ({ user: (await db.currentUser()) ?? null, config: (await db.config()) ?? null })).subscribe({
    next: (value) => {
      latest = value;
      if (value.user) void persistStorageOnce().catch(() => null);
      void syncPush();
    },
  });
  // A permission changed in the browser's site settings.
  void navigator.permissions
    ?.query({ name: "notifications" })
    .then((status) => {
      status.onchange = () => {
        notifyPermission();
        void syncPush();
      };
    })
    .catch(() => undefined);
  return () => subscription.unsubscribe();
}

// ── From a gesture ─────────────────────────────────────────────────────────────────────────

/**
 * Turns the user's render notifications on. Call it straight from a click or key press: the
 * browser only shows its permission question inside a gesture. Answers the permission given.
 */
export async function turnOnRenderNotifications() {
  const asking = pushSupported() && Notification.permission === "default" ? Notification.requestPermission() : null;
  const permission = asking ? await asking.catch(() => currentPermission()) : currentPermission();
  notifyPermission();
  const result = await worker.setRenderNotifications(true);
  await syncPush(true);
  return { result, permission };
}

/** Asks for permission on this device (a gesture) when the user's notifications are already on. */
export async function allowNotificationsHere(): Promise<NotificationPermission> {
  if (!pushSupported()) return "denied";
  const permission = await Notification.requestPermission().catch(() => currentPermission());
  notifyPermission();
  await syncPush(true);
  return permission;
}

/** Turns the user's render notifications off; this device's subscription goes with them. */
export async function turnOffRenderNotifications() {
  const result = await worker.setRenderNotifications(false);
  await syncPush(true);
  return result;
}

/** Before signing out: the server forgets this device and the browser drops the subscription. */
export async function forgetPushDevice(timeoutMs = 3000): Promise<void> {
  const work = (async () => {
    const existing = await (await registration())?.pushManager.getSubscription();
    if (!existing) return;
    await worker.unsubscribePush(existing.endpoint);
    await existing.unsubscribe();
    sent = null;
  })().catch(() => undefined);
  await Promise.race([work, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
}

/** Remembers, per device, that the render-time offer was made (it is made once). */
export const OFFER_KEY = "cutroom:push-offered";

/** Whether to offer notifications when a render starts: the user gets them, this browser has not been asked. */
export function shouldOfferPush(user: UserRow | null | undefined, config: PublicConfig | null | undefined, permission: NotificationPermission, offered: boolean) {
  return !!user && !!config && !offered && permission === "default" && user.render_notifications === 1 && hasRenderNotifications(user) && !!vapidKey(config);
}

/**
 * The first time a render is requested on this device: a toast offers "Turn on notifications".
 * Its button is the gesture the permission question needs. Call it after a render started.
 */
export async function offerPushOnce(): Promise<void> {
  if (!pushSupported()) return;
  const [user, config] = await Promise.all([db.currentUser(), db.config()]);
  if (!shouldOfferPush(user, config, currentPermission(), !!localStorage.getItem(OFFER_KEY))) return;
  localStorage.setItem(OFFER_KEY, new Date().toISOString());
  toast({
    variant: "info",
    title: i18n._(msg`Get a notification when the render is ready?`),
    action: { label: i18n._(msg`Turn on notifications`), onAction: () => void allowNotificationsHere() },
  });
}
