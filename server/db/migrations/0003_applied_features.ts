import type { Kysely } from "kysely";

/** What the last render actually applied (music, noise cancelling…), so highlights never claim more. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("applied_features", "text", (c) => c.notNull().defaultTo("{}")).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("applied_features").execute();
}
