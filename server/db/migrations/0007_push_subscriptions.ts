import type { Kysely } from "kysely";
import { withId } from "./helpers";

/** Issue 5, render notifications: each browser's Web Push subscription, one row per endpoint. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("push_subscriptions"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // A browser's endpoint belongs to whoever subscribed last on it.
    .addColumn("endpoint", "varchar(2048)", (c) => c.notNull().unique())
    .addColumn("p256dh", "varchar(255)", (c) => c.notNull())
    .addColumn("auth", "varchar(255)", (c) => c.notNull())
    .addColumn("device", "varchar(255)")
    .addColumn("expires_at", "varchar(32)")
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("push_subscriptions_user").on("push_subscriptions").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("push_subscriptions").execute();
}
