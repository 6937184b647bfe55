import { sql, type Kysely } from "kysely";

/**
 * Issue 13 sharing (SPEC §6 "private, public or unlisted"): a project's share page privacy, the nonce its share
 * token is derived from (with the app secret) and only the token's hash for look-ups, and the export form's video
 * name and description (the download's file name and the share page's title and text).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("privacy", "text", (c) => c.notNull().defaultTo("private")).execute();
  await db.schema.alterTable("projects").addColumn("share_nonce", "text").execute();
  await db.schema.alterTable("projects").addColumn("share_token_hash", "text").execute();
  await db.schema.alterTable("projects").addColumn("video_name", "text").execute();
  await db.schema.alterTable("projects").addColumn("description", "text", (c) => c.notNull().defaultTo(sql`''`)).execute();
  await db.schema.createIndex("projects_share_token_hash").unique().on("projects").column("share_token_hash").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("projects_share_token_hash").execute();
  for (const column of ["description", "video_name", "share_token_hash", "share_nonce", "privacy"]) {
    await db.schema.alterTable("projects").dropColumn(column).execute();
  }
}
