import type { Kysely } from "kysely";

/**
 * Issue 5, offline edits: the answer to each Idempotency-Key, per user, so a replayed edit (the
 * worker's outbox or workbox-background-sync, whichever delivers it) is applied exactly once.
 * `status` is null while the first request runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("idempotency_keys")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("key", "varchar(255)", (c) => c.notNull())
    .addColumn("method", "varchar(8)", (c) => c.notNull())
    .addColumn("path", "varchar(2048)", (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("body", "text")
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["user_id", "key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_created").on("idempotency_keys").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("idempotency_keys").execute();
}
