import type { Kysely } from "kysely";
import { withId } from "./helpers";

/** Media files, projects, their scenes, and the durable job queue of the local run mode. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("media_files"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("kind", "varchar(8)", (c) => c.notNull()) // video | audio | image
    .addColumn("type", "varchar(16)", (c) => c.notNull().defaultTo("library")) // library | intro | outro
    .addColumn("mime", "varchar(127)")
    .addColumn("size_bytes", "bigint", (c) => c.notNull())
    .addColumn("duration_seconds", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("fps", "real")
    .addColumn("has_audio", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("has_speech", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("language", "varchar(8)")
    .addColumn("storage_key", "varchar(255)", (c) => c.notNull())
    .addColumn("proxy_key", "varchar(255)")
    .addColumn("thumbnail_key", "varchar(255)")
    .addColumn("analysis", "text") // JSON: speech segments and noise floor
    .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("processing")) // processing | ready | failed
    .addColumn("progress", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("raw_preview_render", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
    .addColumn("deleted_at", "varchar(32)")
    .execute();
  await db.schema.createIndex("media_files_user_name").on("media_files").columns(["user_id", "name"]).execute();

  await withId(db, db.schema.createTable("projects"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "varchar(140)", (c) => c.notNull())
    .addColumn("title", "varchar(255)")
    .addColumn("locale", "varchar(8)")
    .addColumn("type", "varchar(16)", (c) => c.notNull().defaultTo("project")) // project | library
    .addColumn("status", "varchar(32)", (c) => c.notNull().defaultTo("new"))
    .addColumn("failure", "varchar(255)")
    .addColumn("is_new", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("is_queued", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cuts_project", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("audioonly", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("thumbnail_key", "varchar(255)")
    .addColumn("duration_in_seconds", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("duration_out_seconds", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("total_filesize", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("scenes_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("working_progress", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("working_progress_raw", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("raw_preview_render", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("raw_preview_key", "varchar(255)")
    .addColumn("export_key", "varchar(255)")
    .addColumn("final_render", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("removed_length", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("jump_cuts_created", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("subtitles_lines_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("settings", "text", (c) => c.notNull()) // JSON: SPEC §3 project settings
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
    .addColumn("deleted_at", "varchar(32)")
    .execute();
  await db.schema.createIndex("projects_user").on("projects").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("project_media")
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("media_file_id", "integer", (c) => c.notNull().references("media_files.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("role", "varchar(8)", (c) => c.notNull().defaultTo("main")) // intro | main | outro
    .addPrimaryKeyConstraint("project_media_pk", ["project_id", "media_file_id"])
    .execute();

  await withId(db, db.schema.createTable("scenes"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("media_file_id", "integer", (c) => c.references("media_files.id"))
    .addColumn("order", "integer", (c) => c.notNull())
    .addColumn("type", "varchar(16)", (c) => c.notNull().defaultTo("default"))
    .addColumn("visibility", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("start", "real", (c) => c.notNull())
    .addColumn("end", "real", (c) => c.notNull())
    .addColumn("trim_start", "real", (c) => c.notNull())
    .addColumn("trim_end", "real", (c) => c.notNull())
    .addColumn("trim_start_default", "real", (c) => c.notNull())
    .addColumn("trim_end_default", "real", (c) => c.notNull())
    .addColumn("trim_start_raw", "real", (c) => c.notNull())
    .addColumn("trim_end_raw", "real", (c) => c.notNull())
    .addColumn("thumbnail_key", "varchar(255)")
    .addColumn("text", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("media_audio", "varchar(16)", (c) => c.notNull().defaultTo("standard"))
    .addColumn("music_type", "varchar(16)", (c) => c.notNull().defaultTo("bgmstandard"))
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("scenes_project_order").on("scenes").columns(["project_id", "order"]).execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "varchar(128)", (c) => c.primaryKey()) // deterministic: `${type}:${ids}`
    .addColumn("type", "varchar(32)", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("group_key", "varchar(64)") // e.g. project:42, so a project's jobs can be cancelled together
    .addColumn("priority", "integer", (c) => c.notNull().defaultTo(0)) // higher runs first
    .addColumn("seq", "bigint", (c) => c.notNull()) // FIFO within a priority
    .addColumn("status", "varchar(16)", (c) => c.notNull()) // queued | running | done | failed | cancelled
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull().defaultTo(3))
    .addColumn("run_at", "varchar(32)", (c) => c.notNull())
    .addColumn("lease_owner", "varchar(64)")
    .addColumn("lease_expires_at", "varchar(32)")
    .addColumn("last_error", "text")
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("jobs_ready").on("jobs").columns(["status", "priority", "seq"]).execute();
  await db.schema.createIndex("jobs_group").on("jobs").column("group_key").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["jobs", "scenes", "project_media", "projects", "media_files"]) await db.schema.dropTable(table).execute();
}
