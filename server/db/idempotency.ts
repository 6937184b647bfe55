import type { Selectable } from "kysely";
import type { Db } from "./index";
import type { IdempotencyKeysTable } from "./schema";

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

/** Takes the key for a first request (status null = running); false when the user already used it. */
export async function claimIdempotencyKey(db: Db, row: { user_id: number; key: string; method: string; path: string; created_at: string }): Promise<boolean> {
  const result = await db
    .insertInto("idempotency_keys")
    .values({ ...row, status: null, body: null })
    .onConflict((oc) => oc.columns(["user_id", "key"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findIdempotencyKey(db: Db, userId: number, key: string): Promise<IdempotencyRow | undefined> {
  return db.selectFrom("idempotency_keys").selectAll().where("user_id", "=", userId).where("key", "=", key).executeTakeFirst();
}

export async function completeIdempotencyKey(db: Db, userId: number, key: string, status: number, body: string): Promise<void> {
  await db.updateTable("idempotency_keys").set({ status, body }).where("user_id", "=", userId).where("key", "=", key).execute();
}

/** Forgets a key, only in the state it was seen in (`created_at`), so a newer claim is never dropped. */
export async function releaseIdempotencyKey(db: Db, userId: number, key: string, createdAt: string): Promise<void> {
  await db.deleteFrom("idempotency_keys").where("user_id", "=", userId).where("key", "=", key).where("created_at", "=", createdAt).execute();
}

/** Re-claims a running key whose request never finished (a crash); false when someone else got there first. */
export async function takeOverIdempotencyKey(db: Db, userId: number, key: string, seenCreatedAt: string, createdAt: string): Promise<boolean> {
  const result = await db
    .updateTable("idempotency_keys")
    .set({ created_at: createdAt })
    .where("user_id", "=", userId)
    .where("key", "=", key)
    .where("status", "is", null)
    .where("created_at", "=", seenCreatedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function pruneIdempotencyKeys(db: Db, olderThan: string): Promise<number> {
  const result = await db.deleteFrom("idempotency_keys").where("created_at", "<", olderThan).executeTakeFirst();
  return Number(result.numDeletedRows);
}
