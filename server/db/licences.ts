import { randomUUID } from "node:crypto";
import type { Db } from "./index";
import type { LicenceRow } from "./schema";
import { licenceCodeHash } from "../domain/licences";

export interface LicenceImport {
  /** New codes stored. */
  imported: number;
  /** Codes already stored for the same product and tier (a file imported again). */
  unchanged: number;
  /** Codes already stored under another product or tier: left as they were. */
  conflicting: number;
  /** Codes listed twice in the file itself. */
  duplicates: number;
}

/**
 * Stores an operator's licence codes (issue 16), as hashes. Idempotent: importing the same file again
 * changes nothing; a code already known keeps its product, tier and status (a redeemed code stays spent).
 */
export async function importLicences(db: Db, codes: readonly string[], product: string, tier: number, now = new Date()): Promise<LicenceImport> {
  const result: LicenceImport = { imported: 0, unchanged: 0, conflicting: 0, duplicates: 0 };
  const seen = new Set<string>();
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    for (const code of codes) {
      const hash = licenceCodeHash(code);
      if (seen.has(hash)) {
        result.duplicates += 1;
        continue;
      }
      seen.add(hash);
      const inserted = await trx
        .insertInto("licences")
        .values({ code_hash: hash, uuid: randomUUID(), product, tier, status: "available", redeemed_by: null, redeemed_at: null, created_at: at, updated_at: at })
        .onConflict((oc) => oc.column("code_hash").doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
        result.imported += 1;
        continue;
      }
      const existing = await trx.selectFrom("licences").select(["product", "tier"]).where("code_hash", "=", hash).executeTakeFirstOrThrow();
      if (existing.product === product && existing.tier === tier) result.unchanged += 1;
      else result.conflicting += 1;
    }
  });
  return result;
}

export function findLicenceByCode(db: Db, code: string): Promise<LicenceRow | undefined> {
  return db.selectFrom("licences").selectAll().where("code_hash", "=", licenceCodeHash(code)).executeTakeFirst();
}

/** Counts by product, tier and status, for the operator's report. */
export function licenceCounts(db: Db, product: string) {
  return db
    .selectFrom("licences")
    .select(["tier", "status", (eb) => eb.fn.countAll<number>().as("count")])
    .where("product", "=", product)
    .groupBy(["tier", "status"])
    .orderBy("tier")
    .execute();
}
