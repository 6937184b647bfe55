import type { Db } from "./index";
import type { PlanRow } from "./schema";
import { PLAN_CATALOGUE } from "../domain/plans";

/** Upserts the catalogue so a changed plan reaches existing databases. */
export async function seedPlans(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [position, plan] of PLAN_CATALOGUE.entries()) {
      const row = {
        id: plan.id,
        nickname: plan.nickname,
        amount: plan.amount,
        original_amount: plan.original_amount,
        interval: plan.interval,
        active: 1,
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
  });
}

export function findPlan(db: Db, id: string): Promise<PlanRow | undefined> {
  return db.selectFrom("plans").selectAll().where("id", "=", id).executeTakeFirst();
}

export function listPlans(db: Db, interval: "month" | "year"): Promise<PlanRow[]> {
  return db.selectFrom("plans").selectAll().where("interval", "=", interval).where("active", "=", 1).orderBy("position").execute();
}
