import type { TrackBody } from "../api/analytics";
import type { CutroomDb } from "../src/db";
import type { ApiCall } from "./api-client";

/** Issue 17: home's tips feed and the product events (SPEC §7). */
export function createHomeActions(db: CutroomDb, call: ApiCall) {
  // Once the server says it keeps no analytics (ANALYTICS_URL unset, the default), this worker stops sending events.
  let analyticsOff = false;
  return {
    /** Home's tips and updates in the user's language, kept in the mirror for offline visits. */
    async refreshHomeFeed() {
      const result = await call("home.feed");
      const locale = (await db.users.get("me"))?.locale ?? "en";
      if (result.ok) await db.meta.put({ key: "homeFeed", value: { ...result.data, locale, fetchedAt: new Date().toISOString() } });
      return result;
    },

    /** One product event to this server (never a third party); it goes on to the self-hosted sink when one is set. */
    async track(event: TrackBody): Promise<void> {
      if (analyticsOff) return;
      const result = await call("analytics.track", { body: event });
      if (result.ok && !result.data.accepted) analyticsOff = true;
    },
  };
}
