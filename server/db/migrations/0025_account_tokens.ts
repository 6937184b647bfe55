import type { Kysely } from "kysely";
import { withId } from "./helpers";

/**
 * Issue 16, the rest of the account: single-use links mailed to the user, a password reset (60 minutes) or
 * the confirmation of a new e-mail address (24 hours, `new_email` is the address it makes the account's).
 * Only the SHA-256 of a link's token is kept: a copy of the database resets no password.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("account_tokens"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "varchar(16)", (c) => c.notNull())
    .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("new_email", "varchar(255)")
    .addColumn("expires_at", "varchar(32)", (c) => c.notNull())
    .addColumn("used_at", "varchar(32)")
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("account_tokens_user").on("account_tokens").columns(["user_id", "purpose"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_tokens").execute();
}
