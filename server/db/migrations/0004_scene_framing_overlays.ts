import type { Kysely } from "kysely";

/**
 * Issue 4: the needs-render flag of a project, and a scene's framing (punch-in, crop, faces) and
 * overlay. An overlay is a scene row of type "overscene" whose parent_scene_id is the scene it covers;
 * the overlay options live on the main scene (SPEC §3 Scene: overscene_type, _fade, _overflow, _bg).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("needs_render", "integer", (c) => c.notNull().defaultTo(0)).execute();
  const scenes = [
    ["punch_in", "integer", 1],
    ["punch_in_status", "integer", 0],
    ["crop", "integer", 0],
    ["selected_faces", "text", "[]"],
    ["overscene_fade", "integer", 0],
    ["overscene_overflow", "integer", 0],
    ["overscene_bg", "integer", 0],
  ] as const;
  for (const [name, type, value] of scenes) {
    await db.schema.alterTable("scenes").addColumn(name, type, (c) => c.notNull().defaultTo(value)).execute();
  }
  await db.schema.alterTable("scenes").addColumn("overscene_type", "varchar(16)").execute();
  await db.schema.alterTable("scenes").addColumn("parent_scene_id", "integer", (c) => c.references("scenes.id").onDelete("cascade")).execute();
  await db.schema.createIndex("scenes_parent").on("scenes").column("parent_scene_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("scenes_parent").execute();
  for (const name of ["parent_scene_id", "overscene_type", "overscene_bg", "overscene_overflow", "overscene_fade", "selected_faces", "crop", "punch_in_status", "punch_in"]) {
    await db.schema.alterTable("scenes").dropColumn(name).execute();
  }
  await db.schema.alterTable("projects").dropColumn("needs_render").execute();
}
