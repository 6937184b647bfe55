import type { Db } from "./index";

/** A user's YouTube connection (its tokens sealed), or undefined. */
export const findYoutubeConnection = (db: Db, userId: number) =>
  db.selectFrom("youtube_connections").selectAll().where("user_id", "=", userId).executeTakeFirst();

export async function saveYoutubeConnection(db: Db, userId: number, tokens: string, channel?: string | null) {
  const now = new Date().toISOString();
  await db
    .insertInto("youtube_connections")
    .values({ user_id: userId, tokens, channel: channel ?? null, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ tokens, updated_at: now, ...(channel !== undefined ? { channel } : {}) }))
    .execute();
}

export const deleteYoutubeConnection = (db: Db, userId: number) => db.deleteFrom("youtube_connections").where("user_id", "=", userId).execute();

export async function insertYoutubeAuthRequest(db: Db, row: { state_hash: string; user_id: number; verifier: string; expires_at: string }) {
  // Requests nobody finished are pruned as new ones arrive.
  await db.deleteFrom("youtube_auth_requests").where("expires_at", "<", new Date().toISOString()).execute();
  await db.insertInto("youtube_auth_requests").values(row).execute();
}

/** Single use: the request is gone once read, whatever Google answered. */
export async function takeYoutubeAuthRequest(db: Db, stateHash: string) {
  return db.deleteFrom("youtube_auth_requests").where("state_hash", "=", stateHash).returningAll().executeTakeFirst();
}
