import type { Kysely } from "kysely";

/**
 * Issue 12 item 5, fair scheduling: each job names its owner (the user it works for), and the runner
 * records when it claimed it, so within a priority the owner served least recently goes first and
 * one user's long queue never starves everyone else. Jobs from before this have no owner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("owner", "varchar(64)").execute();
  await db.schema.alterTable("jobs").addColumn("claimed_at", "varchar(32)").execute();
  await db.schema.createIndex("jobs_owner").on("jobs").columns(["owner", "status"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("jobs_owner").execute();
  await db.schema.alterTable("jobs").dropColumn("claimed_at").execute();
  await db.schema.alterTable("jobs").dropColumn("owner").execute();
}
