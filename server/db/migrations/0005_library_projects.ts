import type { Kysely } from "kysely";

/**
 * Issue 4, media library: every upload has one library-type project holding its scenes. The link is a
 * column with a unique index, so creating it twice (a re-run job, two lists at once) keeps one project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("library_media_file_id", "integer", (c) => c.references("media_files.id")).execute();
  await db.schema.createIndex("projects_library_media").on("projects").column("library_media_file_id").unique().execute();
  // The project list leaves library projects out; the library lists them by type.
  await db.schema.createIndex("projects_user_type").on("projects").columns(["user_id", "type"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("projects_user_type").execute();
  await db.schema.dropIndex("projects_library_media").execute();
  await db.schema.alterTable("projects").dropColumn("library_media_file_id").execute();
}
