import type { Kysely } from "kysely";

/**
 * Issue 13: the size a project's last render was made at (final renders follow the resolution tier
 * asked for, capped by the plan and never above the source), so the export form can say it.
 * Null until a render made after this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("export_width", "integer").execute();
  await db.schema.alterTable("projects").addColumn("export_height", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("export_height").execute();
  await db.schema.alterTable("projects").dropColumn("export_width").execute();
}
