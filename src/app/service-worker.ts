import { Workbox } from "workbox-window";
import { i18n } from "../i18n";
import { msg } from "@lingui/core/macro";
import { currentUser, whenMirror } from "../db/mirror";
import { toast } from "../ui/Toast";
import { worker } from "../worker";

/** A tab left open for days still hears about new versions. */
const UPDATE_CHECK_MS = 60 * 60_000;

/** Sent by the service worker when a push arrived for a project (sw/push.ts). */
const isProjectUpdated = (data: unknown): data is { type: "project-updated"; projectId: number } =>
  !!data && (data as { type?: unknown }).type === "project-updated" && Number.isInteger((data as { projectId?: unknown }).projectId);

/**
 * The new version takes over when the person asks: the waiting worker is told to skip waiting and
 * the tab reloads once it controls the page. With no waiting worker (another tab already took the
 * update) a plain reload loads the new version.
 */
export function reloadToUpdate(registration: ServiceWorkerRegistration | undefined) {
  const waiting = registration?.waiting;
  if (!waiting) {
    window.location.reload();
    return;
  }
  navigator.serviceWorker.addEventListener("controllerchange", () => window.location.reload(), { once: true });
  waiting.postMessage({ type: "SKIP_WAITING" });
}

/** Registers /service-worker.js; a new version offers "reload to update" instead of breaking the tab. */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  const wb = new Workbox("/service-worker.js", { scope: "/" });
  let registration: ServiceWorkerRegistration | undefined;
  let offered: ServiceWorker | null = null;

  wb.addEventListener("waiting", (event) => {
    // One toast per new version, however often the browser reports it.
    if (event.sw && event.sw === offered) return;
    offered = event.sw ?? null;
    toast({
      variant: "info",
      title: i18n._(msg`A new version of Cutroom is ready`),
      action: { label: i18n._(msg`Reload to update`), onAction: () => reloadToUpdate(registration) },
    });
  });

  navigator.serviceWorker.addEventListener("message", (event: MessageEvent) => {
    // A notification was clicked: the service worker cannot see the router's moves, so it asks.
    if ((event.data as { type?: unknown } | null)?.type === "where-are-you") event.ports[0]?.postMessage(window.location.href);
    // A push arrived: the project changes now, not at the next 60 s poll.
    if (!isProjectUpdated(event.data)) return;
    const { projectId } = event.data;
    void (async () => {
      // Signed out: no token to ask with (and a 401 would sign out again).
      if (await currentUser()) await worker.refreshProject(projectId);
    })();
  });

  void wb.register().then((reg) => {
    registration = reg;
    if (!reg) return;
    // Web Push concerns a signed-in user: its module loads once someone is (issue 18: not on the sign-in page's first load).
    // The mirror (and Dexie) is there once someone has signed in on this browser (issue 18).
    whenMirror(({ db, liveQuery }) => {
      const signedIn = liveQuery(() => db.currentUser()).subscribe((user) => {
        if (!user) return;
        signedIn.unsubscribe();
        void import("./push").then((push) => push.watchDevice());
      });
    });
    setInterval(() => void reg.update().catch(() => undefined), UPDATE_CHECK_MS);
  });
}
