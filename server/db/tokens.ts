import { createHash, randomBytes } from "node:crypto";
import type { Db } from "./index";

export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/** Issues a new api token; only its SHA-256 is stored. */
export async function issueToken(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db
    .insertInto("api_tokens")
    .values({ user_id: userId, token_hash: sha256(token), created_at: new Date().toISOString(), last_used_at: null, revoked_at: null })
    .execute();
  return token;
}

/** The owner of a live token, or undefined. */
export async function userIdForToken(db: Db, token: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("api_tokens")
    .select(["id", "user_id", "last_used_at"])
    .where("token_hash", "=", sha256(token))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) return undefined;
  const now = new Date();
  // Touch at most once a minute: no write on every request.
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > 60_000) {
    await db.updateTable("api_tokens").set({ last_used_at: now.toISOString() }).where("id", "=", row.id).execute();
  }
  return row.user_id;
}

export async function revokeToken(db: Db, token: string): Promise<void> {
  await db
    .updateTable("api_tokens")
    .set({ revoked_at: new Date().toISOString() })
    .where("token_hash", "=", sha256(token))
    .where("revoked_at", "is", null)
    .execute();
}
