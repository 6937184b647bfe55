import type { Kysely } from "kysely";
import { withId } from "./helpers";

/**
 * Issue 16, deals-marketplace licences (SPEC §1, §3 "The partner licence tier prefix is {product}_tier"):
 * the codes an operator imported, each kept only as a SHA-256 of its normalised text (a leaked database
 * gives no redeemable code). `uuid` is the licence's own id, the one the marketplace's upgrade link names
 * (users.appsumo_license_uuid). A code is `available` until one user redeems it; then `redeemed_by` is that
 * user (null again if the account is deleted: the code stays spent).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("licences"))
    .addColumn("code_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("uuid", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("product", "varchar(32)", (c) => c.notNull())
    .addColumn("tier", "integer", (c) => c.notNull())
    .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("available"))
    .addColumn("redeemed_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("redeemed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("licences_redeemed_by").on("licences").column("redeemed_by").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("licences").execute();
}
