import type { Insertable, Selectable, Updateable } from "kysely";
import type { Db } from "./index";
import type { ProjectsTable } from "./schema";

export type ProjectRow = Selectable<ProjectsTable>;

/** Scoped by owner: another user's project id finds nothing (the API answers 404). */
export function findProject(db: Db, userId: number, id: number): Promise<ProjectRow | undefined> {
  return db.selectFrom("projects").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
}

/** Internal use by jobs, which carry ids only. */
export function findProjectById(db: Db, id: number): Promise<ProjectRow | undefined> {
  return db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirst();
}

/** What every new project row starts with: no output yet, no progress, nothing cut. */
export const FRESH_PROJECT = {
  duration_out_seconds: 0,
  scenes_count: 0,
  working_progress: 0,
  working_progress_raw: 0,
  raw_preview_render: 0,
  raw_preview_key: null,
  export_key: null,
  final_render: 0,
  removed_length: 0,
  jump_cuts_created: 0,
  subtitles_lines_count: 0,
  deleted_at: null,
} as const satisfies Partial<Insertable<ProjectsTable>>;

export function insertProject(db: Db, row: Insertable<ProjectsTable>): Promise<ProjectRow> {
  return db.insertInto("projects").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateProject(db: Db, id: number, changes: Updateable<ProjectsTable>): Promise<ProjectRow> {
  return db
    .updateTable("projects")
    .set({ ...changes, updated_at: new Date().toISOString() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Newest first. Deleted projects stay listed for a day with their notice, then disappear (SPEC §4).
 * Library-type projects belong to the media library, not to this list.
 */
export async function listProjects(db: Db, userId: number, page: number, perPage: number) {
  const recentlyDeleted = new Date(Date.now() - 24 * 3600_000).toISOString();
  const base = db
    .selectFrom("projects")
    .where("user_id", "=", userId)
    .where("type", "!=", "library")
    .where((eb) => eb.or([eb("deleted_at", "is", null), eb("deleted_at", ">", recentlyDeleted)]));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy("id", "desc").limit(perPage).offset((page - 1) * perPage).execute();
  return { rows, total: Number(total) };
}

export function projectMedia(db: Db, projectId: number) {
  return db
    .selectFrom("project_media")
    .innerJoin("media_files", "media_files.id", "project_media.media_file_id")
    .selectAll("media_files")
    .select(["project_media.role", "project_media.position"])
    .where("project_media.project_id", "=", projectId)
    .orderBy("project_media.position")
    .execute();
}
