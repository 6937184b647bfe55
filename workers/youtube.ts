import type { CutroomDb } from "../src/db";
import type { VideoSiteExportBody, YoutubeConnection } from "../api/youtube";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";

/** Video-site export (SPEC §7): the YouTube connection, mirrored in Dexie, and the export of a finished project. */
export function createYoutubeActions(db: CutroomDb, call: ApiCall) {
  const keep = async (result: Result<YoutubeConnection>) => {
    if (result.ok) await db.meta.put({ key: "youtube", value: result.data });
    return result;
  };
  return {
    /** The connection check (SPEC §9: polled every 1 s, up to 180 times, while the consent window is open). */
    refreshYoutube: async () => keep(await call("youtube.status")),
    /** Google's consent page for this user, to open in a new window. */
    youtubeConnectLink: () => call("youtube.connect"),
    disconnectYoutube: async () => keep(await call("youtube.disconnect")),
    /** Queues the upload; the project comes back with youtube_export 'exporting'. */
    async exportToYoutube(projectId: number, body: VideoSiteExportBody) {
      const result = await call("projects.shareYoutube", { params: { id: projectId }, body });
      if (result.ok) await db.projects.put(result.data);
      return result;
    },
  };
}
