import type { Kysely } from "kysely";
import { withId } from "./helpers";

/**
 * Issue 16, plans and payments. Our side of the gateway's records: one subscription row per user (the
 * mirror of the gateway's subscription, written from its answers and webhooks), the user's saved cards
 * (brand, last four and expiry only: a card number never reaches our server), coupons an operator set,
 * each webhook event once (its id is unique, so a replay changes nothing) and every charge attempt.
 * `local_gateway_objects` is the local gateway's own store (customers, intents, subscriptions as JSON),
 * standing where Stripe's records would be; the Stripe adapter never touches it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("subscriptions"))
    .addColumn("user_id", "integer", (c) => c.notNull().unique().references("users.id").onDelete("cascade"))
    .addColumn("plan_id", "varchar(64)", (c) => c.notNull())
    .addColumn("pending_plan_id", "varchar(64)")
    .addColumn("status", "varchar(32)", (c) => c.notNull())
    .addColumn("trial_ends_at", "text")
    .addColumn("current_period_start", "text", (c) => c.notNull())
    .addColumn("current_period_end", "text", (c) => c.notNull())
    .addColumn("cancel_at", "text")
    .addColumn("coupon_code", "varchar(64)")
    .addColumn("coupon_percent_off", "integer")
    .addColumn("gateway", "varchar(16)", (c) => c.notNull())
    .addColumn("gateway_subscription_id", "varchar(255)", (c) => c.unique())
    .addColumn("trial_used", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("payment_methods"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("gateway_id", "varchar(255)", (c) => c.notNull().unique())
    .addColumn("brand", "varchar(32)", (c) => c.notNull())
    .addColumn("last4", "varchar(4)", (c) => c.notNull())
    .addColumn("exp_month", "integer", (c) => c.notNull())
    .addColumn("exp_year", "integer", (c) => c.notNull())
    .addColumn("name", "varchar(255)")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payment_methods_user").on("payment_methods").column("user_id").execute();

  await withId(db, db.schema.createTable("coupons"))
    .addColumn("code", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("percent_off", "integer", (c) => c.notNull())
    .addColumn("valid", "integer", (c) => c.notNull().defaultTo(1))
    // 'once': the coupon takes off one billing cycle's charge (SPEC §4 Coupon).
    .addColumn("duration", "varchar(16)", (c) => c.notNull().defaultTo("once"))
    // JSON array of plan ids, or null for every paid plan.
    .addColumn("plans", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("webhook_events")
    .addColumn("id", "varchar(255)", (c) => c.primaryKey())
    .addColumn("type", "varchar(64)", (c) => c.notNull())
    .addColumn("gateway", "varchar(16)", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .addColumn("processed_at", "text")
    .execute();

  await withId(db, db.schema.createTable("payments"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("plan_id", "varchar(64)", (c) => c.notNull())
    .addColumn("gateway_invoice_id", "varchar(255)", (c) => c.notNull().unique())
    .addColumn("gateway_intent_id", "varchar(255)")
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "varchar(8)", (c) => c.notNull().defaultTo("usd"))
    .addColumn("percent_off", "integer")
    .addColumn("coupon_code", "varchar(64)")
    .addColumn("reason", "varchar(32)", (c) => c.notNull())
    .addColumn("status", "varchar(32)", (c) => c.notNull())
    .addColumn("failure_code", "varchar(64)")
    .addColumn("failure_message", "text")
    .addColumn("client_secret", "varchar(255)")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payments_user").on("payments").columns(["user_id", "id"]).execute();

  await db.schema
    .createTable("local_gateway_objects")
    .addColumn("id", "varchar(255)", (c) => c.primaryKey())
    .addColumn("kind", "varchar(32)", (c) => c.notNull())
    .addColumn("customer", "varchar(255)")
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("local_gateway_objects_kind").on("local_gateway_objects").columns(["kind", "customer"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["local_gateway_objects", "payments", "webhook_events", "coupons", "payment_methods", "subscriptions"]) {
    await db.schema.dropTable(table).execute();
  }
}
