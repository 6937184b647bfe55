/// <reference lib="webworker" />
/**
 * Web Push in the service worker (SPEC §2 Service worker): show what the server sent, tell open tabs
 * to refresh the project at once, and on a click bring back the editor tab of that project.
 * The pure parts (reading a payload, choosing a tab) are exported for unit tests.
 */

import type { PushKind, PushPayload } from "../api/push";

/** Kept on the notification for the click. */
export interface PushNotificationData {
  url: string;
  projectId: number | null;
  kind: PushKind | null;
}

/** Posted to every open tab: the page asks the sync worker to refresh that project now. */
export interface ProjectUpdatedMessage {
  type: "project-updated";
  projectId: number;
}

export const NOTIFICATION_ICON = "/icons/icon-192.png";
/** Monochrome: Android shows only its alpha channel in the status bar. */
export const NOTIFICATION_BADGE = "/icons/badge-96.png";
/** A push we cannot read still has to show something (userVisibleOnly); it names the app. */
const FALLBACK_TITLE = "Cutroom";

const KINDS: readonly PushKind[] = ["preview_ready", "render_ready", "render_failed"];

/** Parses a push's JSON text; null when it is not the server's payload. */
export function readPayload(text: string | null | undefined): PushPayload | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const projectId = Number(v.projectId);
  if (typeof v.title !== "string" || typeof v.url !== "string" || !Number.isInteger(projectId) || projectId <= 0) return null;
  return {
    title: v.title,
    body: typeof v.body === "string" ? v.body : "",
    url: v.url,
    projectId,
    kind: KINDS.includes(v.kind as PushKind) ? (v.kind as PushKind) : "preview_ready",
    tag: typeof v.tag === "string" && v.tag ? v.tag : `project-${projectId}`,
  };
}

/** The project's editor for a kind: a finished render opens the share view, the rest the storyboard. */
export const projectPath = (projectId: number, kind: PushKind | null) =>
  `/projects/${projectId}/${kind === "render_ready" ? "share" : "storyboard"}`;

/** Only our own pages are opened; anything else falls back to the project's editor. */
export function sameOriginUrl(url: string, origin: string, fallbackPath: string): string {
  try {
    const parsed = new URL(url, origin);
    if (parsed.origin === origin) return parsed.href;
  } catch {
    // not a URL at all: use the fallback
  }
  return new URL(fallbackPath, origin).href;
}

/** Title and options for `showNotification`. */
export function notificationFor(payload: PushPayload | null, origin: string): { title: string; options: NotificationOptions } {
  if (!payload) {
    const data: PushNotificationData = { url: new URL("/open", origin).href, projectId: null, kind: null };
    return { title: FALLBACK_TITLE, options: { icon: NOTIFICATION_ICON, badge: NOTIFICATION_BADGE, data } };
  }
  const data: PushNotificationData = {
    url: sameOriginUrl(payload.url, origin, projectPath(payload.projectId, payload.kind)),
    projectId: payload.projectId,
    kind: payload.kind,
  };
  const options: NotificationOptions & { renotify?: boolean } = {
    body: payload.body,
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_BADGE,
    tag: payload.tag,
    // A second render of the same project replaces the first notification and still alerts.
    renotify: true,
    data,
  };
  return { title: payload.title, options };
}

const EDITOR_PATH = /^\/projects\/(\d+)\/(storyboard|share)\/?$/;

/** The project and view of an editor URL (storyboard or share), or null. */
export function editorView(url: string): { projectId: number; view: "storyboard" | "share" } | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const match = EDITOR_PATH.exec(path);
  return match ? { projectId: Number(match[1]), view: match[2] as "storyboard" | "share" } : null;
}

const withoutHash = (url: string) => url.split("#")[0]!;

/**
 * Which open tab a click brings back: one already at the link, else one on the same view of that
 * project, else any storyboard or share tab of that project; a focused tab wins a tie. Undefined: open a new one.
 */
export function pickClient<C extends { url: string; focused?: boolean }>(clients: readonly C[], target: string, projectId: number | null): C | undefined {
  const wanted = editorView(target);
  const id = projectId ?? wanted?.projectId ?? null;
  const rank = (client: C): number => {
    if (withoutHash(client.url) === withoutHash(target)) return 3;
    const view = editorView(client.url);
    if (!view || id === null || view.projectId !== id) return 0;
    return view.view === wanted?.view ? 2 : 1;
  };
  let best: C | undefined;
  let bestScore = 0;
  for (const client of clients) {
    const score = rank(client) * 2 + (client.focused ? 1 : 0);
    if (rank(client) > 0 && score > bestScore) [best, bestScore] = [client, score];
  }
  return best;
}

/** Shows the push and tells the open tabs that the project changed. */
export async function showPush(sw: ServiceWorkerGlobalScope, text: string | null): Promise<void> {
  const payload = readPayload(text);
  const { title, options } = notificationFor(payload, sw.location.origin);
  if (payload) {
    const message: ProjectUpdatedMessage = { type: "project-updated", projectId: payload.projectId };
    const windows = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) client.postMessage(message);
  }
  await sw.registration.showNotification(title, options);
}

export type ClickOutcome = { action: "focused" | "navigated" | "opened"; url: string };

/** Asked of every open tab on a click; the page answers its address on the port (src/app/service-worker.ts). */
export interface WhereAreYouMessage {
  type: "where-are-you";
}

/** How long a tab has to say where it is before its last known address is used. */
const ASK_MS = 300;

/**
 * Where a tab really is. A single-page app moves between routes without the browser telling the
 * service worker (a client's `url` stays where the tab loaded), so the page is asked.
 */
export function askUrl(client: Pick<WindowClient, "url" | "postMessage">, timeoutMs = ASK_MS): Promise<string> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(client.url), timeoutMs);
    channel.port1.onmessage = (event: MessageEvent) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(typeof event.data === "string" ? event.data : client.url);
    };
    const message: WhereAreYouMessage = { type: "where-are-you" };
    try {
      client.postMessage(message, [channel.port2]);
    } catch {
      clearTimeout(timer);
      resolve(client.url);
    }
  });
}

/**
 * A click: close the notification, bring back the project's editor tab (moving it to the link when
 * it shows something else), otherwise open the link in a new window.
 */
export async function openNotification(sw: ServiceWorkerGlobalScope, notification: Notification): Promise<ClickOutcome> {
  notification.close();
  const data = (notification.data ?? {}) as Partial<PushNotificationData>;
  const projectId = typeof data.projectId === "number" ? data.projectId : null;
  const fallback = projectId ? projectPath(projectId, data.kind ?? null) : "/open";
  const url = sameOriginUrl(data.url ?? fallback, sw.location.origin, fallback);
  const windows = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
  const tabs = await Promise.all(windows.map(async (client) => ({ client, url: await askUrl(client), focused: client.focused })));
  const tab = pickClient(tabs, url, projectId);
  if (tab) {
    // Focus is only granted inside a real click; the tab is still the one to use without it.
    const focused = await tab.client.focus().catch(() => tab.client);
    if (withoutHash(tab.url) === withoutHash(url)) return { action: "focused", url };
    const moved = await focused.navigate(url).catch(() => null);
    if (moved) return { action: "navigated", url };
  }
  await sw.clients.openWindow(url);
  return { action: "opened", url };
}

/** Wires push and notificationclick. */
export function registerPush(sw: ServiceWorkerGlobalScope) {
  sw.addEventListener("push", (event) => {
    event.waitUntil(showPush(sw, event.data?.text() ?? null));
  });
  sw.addEventListener("notificationclick", (event) => {
    event.waitUntil(openNotification(sw, event.notification));
  });
}
