import * as Comlink from "comlink";
import type { Actions } from "../workers/actions";

/** The sync worker, typed from its actions. The one way views change data. */
export const worker = Comlink.wrap<Actions>(
  new Worker(new URL("../workers/sync.worker.ts", import.meta.url), { type: "module", name: "cutroom-sync" }),
);

// DevTools and the browser tests reach the same actions the views call (as the service worker's
// `cutroomPush` does for notifications): the offline-chaos suite drives most of its edits through it.
(globalThis as { cutroom?: { worker: typeof worker } }).cutroom = { worker };

// ARCHITECTURE "Offline edits": the tab shows again or the connection is back, so the queued scene edits go now.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") void worker.syncOutbox();
});
window.addEventListener("online", () => void worker.syncOutbox());
