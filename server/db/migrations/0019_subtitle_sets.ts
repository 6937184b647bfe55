import type { Kysely } from "kysely";
import { withId } from "./helpers";

/**
 * Issue 14, subtitle sets: one row per project and locale. The original set (the spoken language, `original`
 * 1) takes its lines from the scenes; a translated set keeps its translations as JSON, one per original line,
 * keyed `${media_file_id}@${start in ms}` → { source, text, edited }. `error` is the last failure's code
 * (a translate_* error code), `detail` what an operator reads about it (English).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("subtitle_sets"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("original", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("engine", "text")
    .addColumn("draft", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reason", "text")
    .addColumn("error", "text")
    .addColumn("detail", "text")
    .addColumn("translations", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("subtitle_sets_project_locale", ["project_id", "locale"])
    .execute();
  await db.schema.createIndex("subtitle_sets_user").on("subtitle_sets").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("subtitle_sets").execute();
}
