import type { Db } from "../db";
import { findMediaById, type MediaRow } from "../db/media";
import { FRESH_PROJECT, updateProject, type ProjectRow } from "../db/projects";
import { PROJECT_NAME_MAX } from "../../api/limits";
import { DEFAULT_SETTINGS } from "../domain/project-settings";
import { buildStoryboard } from "./storyboard-builder";
import { transcribed } from "../jobs/steps/transcribe";

/** Said of a library item whose file could not be processed (SPEC §8 Failed project). */
export const LIBRARY_FAILED_MESSAGE = "Uploaded file may be corrupted or not be compatible";

export function findLibraryProject(db: Db, mediaFileId: number): Promise<ProjectRow | undefined> {
  return db.selectFrom("projects").selectAll().where("library_media_file_id", "=", mediaFileId).executeTakeFirst();
}

/**
 * The library-type project of an upload (SPEC §3 Project type 'library'): created once per file, however
 * often it is asked for; the unique link column makes a second insert a no-op.
 */
export async function ensureLibraryProject(db: Db, media: MediaRow): Promise<ProjectRow> {
  const existing = await findLibraryProject(db, media.id);
  if (existing) return existing;
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    // Silences cut and smooth cuts on, like a new project (the defaults).
    await trx
      .insertInto("projects")
      .values({
        user_id: media.user_id,
        name: media.name.slice(0, PROJECT_NAME_MAX),
        title: null,
        locale: media.language,
        type: "library",
        library_media_file_id: media.id,
        status: "Working",
        failure: null,
        is_new: 1,
        // Never queued: the file's own ingest job fills this project in (no minutes charged twice).
        is_queued: 0,
        cuts_project: 0,
        audioonly: media.kind === "audio" ? 1 : 0,
        thumbnail_key: media.thumbnail_key,
        duration_in_seconds: media.duration_seconds,
        ...FRESH_PROJECT,
        // Shown on the project only: storage is counted from the files, so this adds no bytes.
        total_filesize: Number(media.size_bytes),
        settings: JSON.stringify(DEFAULT_SETTINGS),
        created_at: media.created_at,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("library_media_file_id").doNothing())
      .execute();
    const project = await trx.selectFrom("projects").selectAll().where("library_media_file_id", "=", media.id).executeTakeFirstOrThrow();
    await trx
      .insertInto("project_media")
      .values({ project_id: project.id, media_file_id: media.id, position: 0, role: "main" })
      .onConflict((oc) => oc.columns(["project_id", "media_file_id"]).doNothing())
      .execute();
    return project;
  });
}

/**
 * Brings the library project in line with its file: scenes from the stored analysis once the file is
 * ready (the raw preview is the file's proxy, no extra encode), Failed when it failed. Safe to repeat:
 * a finished project is left alone, and an unfinished one has its scenes replaced, never duplicated.
 * `subtitles`: the caller recognises the file's words after this (issue 14): the project is marked
 * pending in the same write that makes it Preview Ready when they are still to be recognised.
 */
export async function completeLibraryProject(db: Db, media: MediaRow, options: { subtitles?: boolean } = {}): Promise<ProjectRow> {
  let project = await ensureLibraryProject(db, media);
  if (project.deleted_at || media.deleted_at) return project;
  if (media.status === "failed") {
    if (project.status === "Failed") return project;
    return updateProject(db, project.id, { status: "Failed", failure: LIBRARY_FAILED_MESSAGE, is_queued: 0 });
  }
  if (media.status !== "ready" || project.status === "Preview Ready") return project;
  const settings = { ...DEFAULT_SETTINGS, ...(JSON.parse(project.settings) as Partial<typeof DEFAULT_SETTINGS>) };
  project = await buildStoryboard(db, project, [media], !!settings.autocutsilences);
  const scenes = await db.selectFrom("scenes").select(["trim_start", "trim_end"]).where("project_id", "=", project.id).execute();
  return updateProject(db, project.id, {
    status: "Preview Ready",
    failure: null,
    is_new: 0,
    is_queued: 0,
    raw_preview_render: 1,
    working_progress_raw: 100,
    working_progress: 100,
    subtitles_pending: options.subtitles && !transcribed([media], project.locale) ? 1 : 0,
    duration_out_seconds: scenes.reduce((sum, s) => sum + (s.trim_end - s.trim_start), 0),
  });
}

/** The ingest progress, mirrored on the library project while the file is processed. */
export async function reportLibraryProgress(db: Db, mediaFileId: number, progress: number): Promise<void> {
  await db
    .updateTable("projects")
    .set({ working_progress_raw: progress, working_progress: progress, updated_at: new Date().toISOString() })
    .where("library_media_file_id", "=", mediaFileId)
    .where("status", "=", "Working")
    .execute();
}

/** The job gave up on the file: it shows as failed in the library, and its project as Failed. */
export async function failLibraryMedia(db: Db, mediaFileId: number): Promise<void> {
  const media = await findMediaById(db, mediaFileId);
  if (!media || media.status === "ready") return;
  await db.updateTable("media_files").set({ status: "failed", updated_at: new Date().toISOString() }).where("id", "=", mediaFileId).execute();
  await completeLibraryProject(db, { ...media, status: "failed" });
}

/** Files from before library projects existed: each gets its project when the library is listed. */
export async function adoptOrphanMedia(db: Db, userId: number): Promise<void> {
  const orphans = await db
    .selectFrom("media_files")
    .selectAll()
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("projects").select("projects.id").whereRef("projects.library_media_file_id", "=", "media_files.id"))))
    .orderBy("id")
    .execute();
  for (const media of orphans) await completeLibraryProject(db, media);
}
