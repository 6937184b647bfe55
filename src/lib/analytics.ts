import type { AnalyticsEvent, TrackBody } from "../../api/analytics";
import { worker } from "../worker";

/**
 * Product analytics events (SPEC §7): the one `track()` port. Events go to this app's own server, which passes them
 * to a self-hosted sink when the operator set one (ANALYTICS_URL) and drops them otherwise; no third-party script or
 * request from the browser. Only the page's path (ids removed on the server) and a few closed properties are sent.
 */
export function track(name: AnalyticsEvent, props: TrackBody["props"] = {}) {
  // The page the event happened on, before any navigation it starts.
  const path = window.location.pathname;
  void Promise.resolve()
    .then(() => worker.track({ name, path, props }))
    .catch(() => undefined);
}
