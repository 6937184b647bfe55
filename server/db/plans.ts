import type { Db } from "./index";
import type { PlanRow } from "./schema";
import { PLAN_CATALOGUE } from "../domain/plans";
import type { Catalogue } from "../payments/catalogue";

/**
 * Upserts the catalogue so a changed plan reaches existing databases. Plans the catalogue no longer
 * lists stay (users on them keep their limits) but are no longer offered; coupons likewise stop being valid.
 */
export async function seedPlans(db: Db, catalogue: Catalogue = { plans: [...PLAN_CATALOGUE], coupons: [] }): Promise<void> {
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    for (const [position, plan] of catalogue.plans.entries()) {
      const row = {
        id: plan.id,
        nickname: plan.nickname,
        amount: plan.amount,
        original_amount: plan.original_amount,
        interval: plan.interval,
        active: plan.offered === false ? 0 : 1,
        coupon: plan.coupon ?? null,
        metadata: JSON.stringify(plan.metadata),
        features: JSON.stringify(plan.features),
        position,
      };
      await trx
        .insertInto("plans")
        .values(row)
        .onConflict((oc) => oc.column("id").doUpdateSet({ ...row, id: undefined }))
        .execute();
    }
    const listed = catalogue.plans.map((p) => p.id);
    await trx.updateTable("plans").set({ active: 0 }).where("id", "not in", listed).execute();
    for (const coupon of catalogue.coupons) {
      const row = { code: coupon.code.toUpperCase(), percent_off: coupon.percent_off, valid: coupon.valid ? 1 : 0, plans: coupon.plans ? JSON.stringify(coupon.plans) : null, updated_at: now };
      await trx
        .insertInto("coupons")
        .values({ ...row, created_at: now })
        .onConflict((oc) => oc.column("code").doUpdateSet(row))
        .execute();
    }
    const codes = catalogue.coupons.map((c) => c.code.toUpperCase());
    await trx.updateTable("coupons").set({ valid: 0, updated_at: now }).where("code", "not in", codes.length ? codes : [""]).execute();
  });
}

export function findPlan(db: Db, id: string): Promise<PlanRow | undefined> {
  return db.selectFrom("plans").selectAll().where("id", "=", id).executeTakeFirst();
}

export function listPlans(db: Db, interval: "month" | "year"): Promise<PlanRow[]> {
  return db.selectFrom("plans").selectAll().where("interval", "=", interval).where("active", "=", 1).orderBy("position").execute();
}

/** A plan row as the API answers it (SPEC §3 Plan). */
export function toApiPlan(row: PlanRow) {
  const metadata = JSON.parse(row.metadata);
  return {
    id: row.id,
    nickname: row.nickname,
    amount: row.amount,
    amount_decimal: String(row.amount),
    original_amount: row.original_amount,
    interval: row.interval as "month" | "year" | null,
    active: row.active === 1,
    coupon: row.coupon,
    metadata: { ...metadata, original_amount: row.original_amount },
  };
}
