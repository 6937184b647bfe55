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
  // an owner's last claim is read at every claim: one index seek, however many jobs the owner ran before
  await db.schema.createIndex("jobs_owner_claimed").on("jobs").columns(["owner", "claimed_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("jobs_owner_claimed").execute();
  await db.schema.dropIndex("jobs_owner").execute();
  await db.schema.alterTable("jobs").dropColumn("claimed_at").execute();
  await db.schema.alterTable("jobs").dropColumn("owner").execute();
}
