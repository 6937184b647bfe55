import type { Kysely } from "kysely";

/**
 * Issue 14, Preview Ready before speech recognition: 1 on a project from its Preview Ready until its spoken
 * words are recognised and their lines filled into the scenes the person has not written lines in (the
 * `transcribe` job). What a job resumed after a crash reads to know whether the lines still have to be filled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("subtitles_pending", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("subtitles_pending").execute();
}
