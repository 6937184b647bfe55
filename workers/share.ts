import type { CutroomDb } from "../src/db";
import type { ShareBody } from "../api/share";
import type { Project } from "../api/projects";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";

/**
 * Share pages (SPEC §6): the owner sets the privacy or revokes the link, and the project in the mirror takes the
 * server's answer; the watch page asks for a page by its token (signed in or not: a private page shows only to its
 * owner, so the call carries the sign-in when there is one).
 */
export function createShareActions(db: CutroomDb, call: ApiCall) {
  const stored = async (result: Result<Project>) => {
    if (result.ok) await db.projects.put(result.data);
    return result;
  };
  return {
    shareProject: async (id: number, body: ShareBody) => stored(await call("projects.share", { params: { id }, body })),
    unshareProject: async (id: number) => stored(await call("projects.unshare", { params: { id } })),
    sharePage: (token: string) => call("share.get", { params: { token } }),
  };
}
