import { createHash, randomBytes } from "node:crypto";
import type { Db } from "./index";

export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

const DAY_MS = 24 * 3600_000;

/**
 * How long an api token lives (issue 12 item 15): it lapses after `idleMs` without use (sliding), and
 * after `maxMs` since it was issued whatever its use.
 */
export interface TokenLifetime {
  idleMs: number;
  maxMs: number;
}

export const DEFAULT_TOKEN_LIFETIME: TokenLifetime = { idleMs: 30 * DAY_MS, maxMs: 365 * DAY_MS };
export const tokenLifetimeOfDays = (idleDays: number, maxDays: number): TokenLifetime => ({ idleMs: idleDays * DAY_MS, maxMs: maxDays * DAY_MS });

/** Last use is written at most this often: no write on every request. The idle lifetime is this coarse. */
export const TOKEN_TOUCH_EVERY_MS = 3600_000;

/** Issues a new api token; only its SHA-256 is stored. */
export async function issueToken(db: Db, userId: number, lifetime: TokenLifetime = DEFAULT_TOKEN_LIFETIME): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  await db
    .insertInto("api_tokens")
    .values({ user_id: userId, token_hash: sha256(token), created_at: now.toISOString(), last_used_at: now.toISOString(), revoked_at: null })
    .execute();
  // The user's lapsed tokens are of no use to anyone: drop them while we are here.
  const { idle, issued } = cutoffs(now, lifetime);
  await db
    .deleteFrom("api_tokens")
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("created_at", "<", issued), eb(eb.fn.coalesce("last_used_at", "created_at"), "<", idle)]))
    .execute();
  return token;
}

/** ISO timestamps before which a token has lapsed: last use (idle) and issue (absolute). */
function cutoffs(now: Date, lifetime: TokenLifetime) {
  return { idle: new Date(now.getTime() - lifetime.idleMs).toISOString(), issued: new Date(now.getTime() - lifetime.maxMs).toISOString() };
}

/** The owner of a live token (not revoked, not idle too long, not too old), or undefined. */
export async function userIdForToken(db: Db, token: string, lifetime: TokenLifetime = DEFAULT_TOKEN_LIFETIME, now = new Date()): Promise<number | undefined> {
  const row = await db
    .selectFrom("api_tokens")
    .select(["id", "user_id", "created_at", "last_used_at"])
    .where("token_hash", "=", sha256(token))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) return undefined;
  const lastUsed = Date.parse(row.last_used_at ?? row.created_at);
  if (now.getTime() - Date.parse(row.created_at) > lifetime.maxMs || now.getTime() - lastUsed > lifetime.idleMs) return undefined;
  if (now.getTime() - lastUsed > TOKEN_TOUCH_EVERY_MS) {
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
