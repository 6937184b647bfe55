import type { Kysely } from "kysely";

/**
 * Issue 16, one-time purchases through a checkout session: a lifetime deal (SPEC §2 Lifetime-deal purchase)
 * and the watermark-free 1080p export of one project (SPEC §6). `checkout_sessions` keeps what each session
 * sells, to whom and for how much, written before the buyer is sent to pay: the gateway's completion event
 * is applied only to a session we opened, at the amount we asked, once (`status` moves from open to complete
 * in one guarded update). `projects.export_unlocked_at` marks a project bought that way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("checkout_sessions")
    .addColumn("id", "varchar(255)", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "varchar(16)", (c) => c.notNull())
    .addColumn("plan_id", "varchar(64)")
    .addColumn("project_id", "integer")
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("gateway", "varchar(16)", (c) => c.notNull())
    .addColumn("status", "varchar(16)", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("completed_at", "text")
    .execute();
  await db.schema.createIndex("checkout_sessions_user").on("checkout_sessions").column("user_id").execute();
  await db.schema.alterTable("projects").addColumn("export_unlocked_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("export_unlocked_at").execute();
  await db.schema.dropTable("checkout_sessions").execute();
}
