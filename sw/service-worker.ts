/// <reference lib="webworker" />
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst, NetworkOnly } from "workbox-strategies";
import { BackgroundSyncPlugin } from "workbox-background-sync";
import type { HTTPMethod } from "workbox-routing/utils/constants";
import { ExpirationPlugin } from "workbox-expiration";
import { openNotification, registerPush } from "./push";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
  cutroomPush?: { openNotification(notification: Notification): ReturnType<typeof openNotification> };
};

// ── App shell ──────────────────────────────────────────────────────────────────────────────
// Precached so the app starts offline.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Deep links (/projects/1/storyboard…) load the shell; the API never does.
// The local gateway's hosted checkout page (issue 16) is the server's, not the app's.
registerRoute(new NavigationRoute(createHandlerBoundToURL("/index.html"), { denylist: [/^\/api\//, /^\/local-gateway\//] }));

const isSignedFile = (href: string) => new URL(href).pathname.startsWith("/api/v1/files/");
const unsigned = (href: string) => {
  const url = new URL(href);
  return `${url.origin}${url.pathname}`;
};

// ── Images ─────────────────────────────────────────────────────────────────────────────────
// SPEC §9: images cached for offline use, 50 entries for 7 days.
registerRoute(
  ({ request, url }) => request.destination === "image" && url.origin === self.location.origin,
  new CacheFirst({
    cacheName: "cutroom-images",
    plugins: [
      // Thumbnails are signed links (/api/v1/files/<key>?expires…&signature…) signed again on every
      // load: the file's key, without the signature, is what names the picture, so a storyboard opened
      // offline finds its thumbnails. Files under a key never change (the server serves them immutable).
      { cacheKeyWillBeUsed: async ({ request }) => (isSignedFile(request.url) ? unsigned(request.url) : request) },
      new ExpirationPlugin({ maxEntries: 50, maxAgeSeconds: 7 * 24 * 3600 }),
    ],
  }),
);

// ── Outbox replay (scene edits, workbox-background-sync, 1440 min) ─────────────────────────
// ARCHITECTURE "Offline edits": an attribute edit of a scene that fails on the network is kept here
// (the exact request, Idempotency-Key included) and sent again by the browser when the connection is
// back, even with the page closed. The sync worker's outbox sends the same edit with the same key, and
// the server applies a key once, so the double path is safe. Reads (GET /scenes/{id}) carry no key and
// are left alone; structural edits never come here (they are disabled offline).
const SCENE_EDIT = /^\/api\/v1\/scenes\/\d+(\/(trim|removelines|overscene|show|hide|type(\/(intro|outro))?))?$/;
const sceneEdits = new NetworkOnly({
  plugins: [new BackgroundSyncPlugin("cutroom-scene-edits", { maxRetentionTime: 24 * 60 })],
});
for (const method of ["GET", "PUT", "POST", "DELETE"] satisfies HTTPMethod[]) {
  registerRoute(
    ({ request, url }) => url.origin === self.location.origin && SCENE_EDIT.test(url.pathname) && request.headers.has("idempotency-key"),
    sceneEdits,
    method,
  );
}
// A subtitle line edited on the Translate page (issue 14) waits in the same outbox and is replayed the same way.
const SUBTITLE_EDIT = /^\/api\/v1\/subtitles\/\d+$/;
registerRoute(({ request, url }) => url.origin === self.location.origin && SUBTITLE_EDIT.test(url.pathname) && request.headers.has("idempotency-key"), sceneEdits, "PUT");
// The project's song picked on the Music tab (issue 15) too.
const SONG_PICK = /^\/api\/v1\/bgms\/\d+$/;
registerRoute(({ request, url }) => url.origin === self.location.origin && SONG_PICK.test(url.pathname) && request.headers.has("idempotency-key"), sceneEdits, "PUT");

// ── Push (SPEC §2 Service worker) ──────────────────────────────────────────────────────────
registerPush(self);
// Headless browsers cannot click an OS notification: DevTools and the browser test call the
// same click handler on a shown notification through this.
self.cutroomPush = { openNotification: (notification) => openNotification(self, notification) };

// ── Updates ────────────────────────────────────────────────────────────────────────────────
// "Reload to update": a new version waits until the page asks it to take over.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});
clientsClaim();
