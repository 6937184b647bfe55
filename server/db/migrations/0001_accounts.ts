import type { Kysely } from "kysely";
import { withId } from "./helpers";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("plans")
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("nickname", "varchar(127)", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("original_amount", "integer", (c) => c.notNull())
    .addColumn("interval", "varchar(16)")
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("coupon", "varchar(64)")
    .addColumn("metadata", "text", (c) => c.notNull())
    .addColumn("features", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable("users"))
    .addColumn("email", "varchar(255)", (c) => c.notNull().unique())
    .addColumn("password_hash", "varchar(255)", (c) => c.notNull())
    .addColumn("first_name", "varchar(127)", (c) => c.notNull())
    .addColumn("last_name", "varchar(127)", (c) => c.notNull())
    .addColumn("locale", "varchar(8)", (c) => c.notNull())
    .addColumn("email_verified_at", "varchar(32)")
    .addColumn("plan_id", "varchar(64)", (c) => c.notNull().references("plans.id"))
    .addColumn("render_notifications", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("show_wizard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("ltd_tier", "varchar(32)")
    .addColumn("ltd_renew_at", "varchar(32)")
    .addColumn("appsumo_license_uuid", "varchar(64)")
    .addColumn("stripe_id", "varchar(64)")
    .addColumn("referral", "varchar(64)")
    .addColumn("clickid", "varchar(255)")
    .addColumn("total_used_storage", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("api_tokens"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("created_at", "varchar(32)", (c) => c.notNull())
    .addColumn("last_used_at", "varchar(32)")
    .addColumn("revoked_at", "varchar(32)")
    .execute();
  await db.schema.createIndex("api_tokens_user").on("api_tokens").column("user_id").execute();

  await db.schema
    .createTable("handoff_codes")
    .addColumn("code_hash", "varchar(64)", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "varchar(32)", (c) => c.notNull())
    .addColumn("used_at", "varchar(32)")
    .execute();

  await db.schema
    .createTable("captcha_spent")
    .addColumn("signature", "varchar(128)", (c) => c.primaryKey())
    .addColumn("expires_at", "varchar(32)", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("settings")
    .addColumn("key", "varchar(64)", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["settings", "captcha_spent", "handoff_codes", "api_tokens", "users", "plans"]) {
    await db.schema.dropTable(table).execute();
  }
}
