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
export async function usageOf(db: Db, userId: number, periodStart?: number): Promise<{ storageBytes: number; minutesThisMonth: number }> {
  const now = new Date();
  // The billing period's month when the user has a subscription (issue 16), else the calendar month.
  const monthStart = new Date(periodStart ?? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
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
  // Projects made this month, for each file an earlier project already used (domain/quotas.ts projectChargeMinutes).
  const projects = await db
    .selectFrom("project_media as pm")
    .innerJoin("projects as p", "p.id", "pm.project_id")
    .innerJoin("media_files as m", "m.id", "pm.media_file_id")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("m.duration_seconds"), sql<number>`0`).as("seconds"))
    .where("p.user_id", "=", userId)
    .where("p.type", "=", "project")
    .where("p.created_at", ">=", monthStart)
    .where("m.kind", "!=", "image")
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("project_media as earlier")
          .innerJoin("projects as e", "e.id", "earlier.project_id")
          .select("earlier.project_id")
          .whereRef("earlier.media_file_id", "=", "pm.media_file_id")
          .where("e.type", "=", "project")
          .whereRef("e.id", "<", "p.id"),
      ),
    )
    .executeTakeFirstOrThrow();
  return { storageBytes: Number(storage.bytes), minutesThisMonth: (Number(minutes.seconds) + Number(projects.seconds)) / 60 };
}

/** Which of these files of the user some project (deleted ones included) was already made from. */
export async function filesInProjects(db: Db, userId: number, mediaIds: readonly number[]): Promise<Set<number>> {
  if (mediaIds.length === 0) return new Set();
  const used = await db
    .selectFrom("media_files as m")
    .select("m.id")
    .where("m.user_id", "=", userId)
    .where("m.id", "in", [...mediaIds])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("project_media as pm")
          .innerJoin("projects as p", "p.id", "pm.project_id")
          .select("pm.project_id")
          .whereRef("pm.media_file_id", "=", "m.id")
          .where("p.type", "=", "project"),
      ),
    )
    .execute();
  return new Set(used.map((m) => m.id));
}

/** The user's projects waiting in the queue or being processed (library items excluded). */
export async function queuedProjectsOf(db: Db, userId: number, busyStatuses: readonly string[]): Promise<number> {
  const { count } = await db
    .selectFrom("projects")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("type", "=", "project")
    .where("deleted_at", "is", null)
    .where((eb) => eb.or([eb("is_queued", "=", 1), eb("status", "in", [...busyStatuses])]))
    .executeTakeFirstOrThrow();
  return Number(count);
}
