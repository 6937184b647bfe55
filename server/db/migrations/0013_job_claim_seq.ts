import type { Kysely } from "kysely";

/**
 * Fair scheduling (issue 12 item 5) picks, within a priority, the owner served least recently. A claim
 * time in milliseconds ties when claims follow each other within one millisecond (short jobs), which
 * broke the round-robin; a claim sequence, taken from the table inside the claiming statement like
 * `seq`, never ties within one process and orders claims across processes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("claim_seq", "integer").execute();
  await db.schema.createIndex("jobs_owner_claim_seq").on("jobs").columns(["owner", "claim_seq"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("jobs_owner_claim_seq").execute();
  await db.schema.alterTable("jobs").dropColumn("claim_seq").execute();
}
