import { randomBytes } from "node:crypto";
import type { Db } from "./index";

/** Reads a stored setting, creating it with `make()` the first time (e.g. secrets made on first start). */
export async function getOrCreateSetting(db: Db, key: string, make: () => string): Promise<string> {
  const existing = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  if (existing) return existing.value;
  await db.insertInto("settings").values({ key, value: make() }).onConflict((oc) => oc.column("key").doNothing()).execute();
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirstOrThrow();
  return row.value;
}

export const randomSecret = () => randomBytes(48).toString("base64url");
