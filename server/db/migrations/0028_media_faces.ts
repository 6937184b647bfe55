import type { Kysely } from "kysely";

/**
 * Issue 17: the faces found in a video (SPEC §2 face selection, §3 selected_faces): its samples' rate and the faces
 * followed across them (JSON tracks, server/domain/faces.ts), one row per file, made by the pipeline's faces step.
 * A scene's faces are the tracks seen during it, so trims and splits need no rewrite. `thumbs` is the JSON map of
 * track → store key of the face's picture cut from its frame.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("media_faces")
    .addColumn("media_file_id", "integer", (c) => c.primaryKey().references("media_files.id").onDelete("cascade"))
    .addColumn("sample_fps", "real", (c) => c.notNull())
    .addColumn("tracks", "text", (c) => c.notNull())
    .addColumn("thumbs", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("media_faces").execute();
}
