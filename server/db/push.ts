import type { Selectable } from "kysely";
import type { Db } from "./index";
import type { PushSubscriptionsTable } from "./schema";

export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

/**
 * One row per endpoint: subscribing again (or as another user on the same browser) moves it. Another user
 * moves it only with the same browser's keys: knowing an endpoint alone does not take a subscription over
 * (issue 12 authorisation matrix). Undefined when the endpoint is someone else's.
 */
export function upsertPushSubscription(
  db: Db,
  row: { user_id: number; endpoint: string; p256dh: string; auth: string; device: string | null; expires_at: string | null },
): Promise<PushSubscriptionRow | undefined> {
  const now = new Date().toISOString();
  return db
    .insertInto("push_subscriptions")
    .values({ ...row, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc
        .column("endpoint")
        .doUpdateSet({ user_id: row.user_id, p256dh: row.p256dh, auth: row.auth, device: row.device, expires_at: row.expires_at, updated_at: now })
        .where((eb) =>
          eb.or([
            eb("push_subscriptions.user_id", "=", row.user_id),
            eb.and([eb("push_subscriptions.p256dh", "=", row.p256dh), eb("push_subscriptions.auth", "=", row.auth)]),
          ]),
        ),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Keeps a user's newest `keep` subscriptions, so one account cannot make a render fan out without end. */
export async function trimPushSubscriptions(db: Db, userId: number, keep: number): Promise<void> {
  const newest = db.selectFrom("push_subscriptions").select("id").where("user_id", "=", userId).orderBy("updated_at", "desc").orderBy("id", "desc").limit(keep);
  await db.deleteFrom("push_subscriptions").where("user_id", "=", userId).where("id", "not in", newest).execute();
}

export function listPushSubscriptions(db: Db, userId: number): Promise<PushSubscriptionRow[]> {
  return db.selectFrom("push_subscriptions").selectAll().where("user_id", "=", userId).orderBy("id").execute();
}

/** Scoped by owner: another user's endpoint is left alone. */
export async function deletePushSubscription(db: Db, userId: number, endpoint: string): Promise<boolean> {
  const result = await db.deleteFrom("push_subscriptions").where("user_id", "=", userId).where("endpoint", "=", endpoint).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** For the sender: the push service said the subscription is gone (404/410). */
export async function deletePushSubscriptionById(db: Db, id: number): Promise<void> {
  await db.deleteFrom("push_subscriptions").where("id", "=", id).execute();
}
