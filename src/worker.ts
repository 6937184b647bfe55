import type { Remote } from "comlink";
import type { Actions } from "../workers/actions";
import { loadMirror } from "./db/mirror";

type SyncWorker = Remote<Actions>;
let remote: Promise<SyncWorker> | undefined;
let booted: Promise<void> | undefined;

/** True once the sync worker runs: pages a signed-out visitor opens do without it until they act. */
export const workerStarted = () => remote !== undefined;

function start(): Promise<SyncWorker> {
  remote ??= import("comlink").then((Comlink) => {
    const wrapped = Comlink.wrap<Actions>(new Worker(new URL("../workers/sync.worker.ts", import.meta.url), { type: "module", name: "cutroom-sync" }));
    // ARCHITECTURE "Offline edits": the tab shows again or the connection is back, so the queued scene edits go now.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") void wrapped.syncOutbox();
    });
    window.addEventListener("online", () => void wrapped.syncOutbox());
    // Whatever starts the worker, it first reads the server's set-up (and, signed in, the user) into the mirror.
    // Booted, the worker has made the mirror: views that showed a visitor's page without it start watching it.
    booted = wrapped.boot().finally(() => void loadMirror());
    return wrapped;
  });
  return remote;
}

/** Starts the sync worker if it is not running; resolves once its boot (set-up, user) is done. */
export const bootWorker = (): Promise<void> => start().then(() => booted);

/**
 * The sync worker, typed from its actions: the one way views change data. It starts, with comlink, at
 * the first action (issue 18): a visitor who only reads the sign-in page downloads neither the sync
 * engine (~85 KB compressed) nor the messaging library; a signed-in app boots it at once. Every action
 * answers a promise, so a call made while the worker starts simply waits for it.
 */
export const worker = new Proxy({} as SyncWorker, {
  get: (_target, action) =>
    // Not a thenable, and no symbol is an action.
    typeof action !== "string" || action === "then"
      ? undefined
      : (...args: unknown[]) => start().then((w) => (w[action as keyof SyncWorker] as unknown as (...a: unknown[]) => Promise<unknown>)(...args)),
});

// DevTools and the browser tests reach the same actions the views call (as the service worker's
// `cutroomPush` does for notifications): the offline-chaos suite drives most of its edits through it.
(globalThis as { cutroom?: { worker: SyncWorker } }).cutroom = { worker };
