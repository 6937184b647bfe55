import type { Kysely } from "kysely";
import { withId } from "./helpers";

/**
 * Issue 15, background music: one row per song the server knows, from the shipped catalogue
 * (`source` 'catalogue', `key` its slug) or the operator's MUSIC_DIR ('library', `key` the path relative to
 * it). Rows are never deleted: a song that goes away is `available` 0, so ids are never reused and a
 * project's bgm_id keeps meaning the same song. Tag lists are JSON arrays of strings; `file_size` and
 * `file_mtime_ms` tell the sync a file changed and must be probed again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("songs"))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("author", "text", (c) => c.notNull())
    .addColumn("genre_tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("instrument_tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("video_theme_tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("licence_id", "text", (c) => c.notNull())
    .addColumn("attribution", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("loop_start_ms", "integer")
    .addColumn("loop_end_ms", "integer")
    .addColumn("energy", "integer")
    .addColumn("tempo", "real")
    .addColumn("file_size", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("file_mtime_ms", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("available", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("songs_source_key", ["source", "key"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("songs").execute();
}
