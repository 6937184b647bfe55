import type { Kysely } from "kysely";

/**
 * Issue 12 item 1: the demuxer a file's first probe found (one of media/ffmpeg.ts ALLOWED_CONTAINERS),
 * so every later ffmpeg run reads it with exactly that one (`-f`) and never detects again. Files
 * stored before this have none: their next probe detects among the allowed demuxers and fills it in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("media_files").addColumn("container", "varchar(32)").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("media_files").dropColumn("container").execute();
}
