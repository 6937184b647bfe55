import type { Kysely } from "kysely";

/**
 * Issue 13, video-site export: a user's YouTube connection (tokens sealed with AES-256-GCM), the OAuth
 * requests waiting for Google's answer (state stored hashed, the PKCE verifier sealed), and on each
 * project the export's state, the uploaded video, the last failure and the resumable upload in progress.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("youtube_connections")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("tokens", "text", (c) => c.notNull())
    .addColumn("channel", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("youtube_auth_requests")
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("verifier", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.alterTable("projects").addColumn("youtube_export", "text").execute();
  await db.schema.alterTable("projects").addColumn("youtube_video_id", "text").execute();
  await db.schema.alterTable("projects").addColumn("youtube_error", "text").execute();
  await db.schema.alterTable("projects").addColumn("youtube_upload", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["youtube_upload", "youtube_error", "youtube_video_id", "youtube_export"]) {
    await db.schema.alterTable("projects").dropColumn(column).execute();
  }
  await db.schema.dropTable("youtube_auth_requests").execute();
  await db.schema.dropTable("youtube_connections").execute();
}
