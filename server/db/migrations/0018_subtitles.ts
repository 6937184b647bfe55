import type { Kysely } from "kysely";

/**
 * Issue 14, subtitles from speech: a media file's recognised words (JSON: language, engine, draft, words), kept
 * so every project made from the file reuses them; on each project why it has no subtitles (JSON: reason code
 * and language; null when it has them or nothing was spoken) and whether its lines are draft captions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("media_files").addColumn("transcript", "text").execute();
  await db.schema.alterTable("projects").addColumn("subtitles_unavailable", "text").execute();
  await db.schema.alterTable("projects").addColumn("subtitles_draft", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("subtitles_draft").execute();
  await db.schema.alterTable("projects").dropColumn("subtitles_unavailable").execute();
  await db.schema.alterTable("media_files").dropColumn("transcript").execute();
}
