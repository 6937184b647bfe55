import { sql } from "kysely";
import type { Db } from "./index";
import type { Insertable, Selectable } from "kysely";
import type { MediaFilesTable } from "./schema";

export type MediaRow = Selectable<MediaFilesTable>;

/** Every read is scoped by owner: another user's id finds nothing. */
export function findMedia(db: Db, userId: number, id: number): Promise<MediaRow | undefined> {
  return db.selectFrom("media_files").selectAll().where("id", "=", id).where("user_id", "=", userId).where("deleted_at", "is", null).executeTakeFirst();
}

export function findMediaByName(db: Db, userId: number, name: string): Promise<MediaRow | undefined> {
  return db.selectFrom("media_files").selectAll().where("user_id", "=", userId).where("name", "=", name).where("deleted_at", "is", null).executeTakeFirst();
}

/** Internal use by jobs, which carry ids only. */
export function findMediaById(db: Db, id: number): Promise<MediaRow | undefined> {
  return db.selectFrom("media_files").selectAll().where("id", "=", id).executeTakeFirst();
}

export function insertMedia(db: Db, row: Insertable<MediaFilesTable>): Promise<MediaRow> {
  return db.insertInto("media_files").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateMedia(db: Db, id: number, changes: Partial<Omit<MediaRow, "id">>): Promise<void> {
  await db.updateTable("media_files").set({ ...changes, updated_at: new Date().toISOString() }).where("id", "=", id).execute();
}

export async function listMedia(db: Db, userId: number, page: number, perPage: number, kind?: MediaRow["kind"]) {
  let query = db.selectFrom("media_files").where("user_id", "=", userId).where("deleted_at", "is", null);
  if (kind) query = query.where("kind", "=", kind);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy("id", "desc").limit(perPage).offset((page - 1) * perPage).execute();
  return { rows, total: Number(total) };
}

/** Storage in use and minutes processed since the start of this calendar month (UTC). */
export async function usageOf(db: Db, userId: number): Promise<{ storageBytes: number; minutesThisMonth: number }> {
  const now = new Date();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  const storage = await db
    .selectFrom("media_files")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("size_bytes"), sql<number>`0`).as("bytes"))
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  const minutes = await db
    .selectFrom("media_files")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("duration_seconds"), sql<number>`0`).as("seconds"))
    .where("user_id", "=", userId)
    .where("kind", "!=", "image")
    .where("created_at", ">=", monthStart)
    .executeTakeFirstOrThrow();
  return { storageBytes: Number(storage.bytes), minutesThisMonth: Number(minutes.seconds) / 60 };
}
