import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql, type Insertable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectOf, migrate, type Db } from "../../server/db/index";
import type { MediaFilesTable } from "../../server/db/schema";
import { likeAsciiCaseless } from "../../server/db/sql";
import { databaseKind, dropDatabase, onPostgres, openTestDatabase } from "./database";

/**
 * Issue 19: the same schema and queries answer alike on SQLite and PostgreSQL. Runs in both projects
 * ("integration" on SQLite, "integration-pg" on PostgreSQL) with the same expectations: the JS types of what
 * comes back, what a column keeps, and the SQL whose meaning differs between the two by default.
 */
let dir: string;
let db: Db;
let userId: number;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-parity-"));
  db = openTestDatabase(dir);
  // On PostgreSQL the run's template is migrated already (nothing to do); on SQLite this makes the schema.
  await migrate(db);
  const now = new Date().toISOString();
  await db.insertInto("plans").values({ id: "free", nickname: "Free", amount: 0, original_amount: 0, interval: null, active: 1, coupon: null, metadata: "{}", features: "{}", position: 0 }).onConflict((oc) => oc.column("id").doNothing()).execute();
  const user = await db
    .insertInto("users")
    .values({
      ...{ email: "parity@example.com", password_hash: "x", first_name: "A", last_name: "B", locale: "en", email_verified_at: null, plan_id: "free", render_notifications: 1, show_wizard: 0 },
      ...{ ltd_tier: null, ltd_renew_at: null, appsumo_license_uuid: null, stripe_id: null, referral: null, clickid: null, total_used_storage: 0, created_at: now, updated_at: now },
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  userId = user.id;
});

afterAll(async () => {
  await db.destroy();
  await dropDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

const media = (name: string, values: Partial<Insertable<MediaFilesTable>> = {}) => {
  const now = new Date().toISOString();
  return db
    .insertInto("media_files")
    .values({
      ...{ user_id: userId, name, kind: "video", type: "library", mime: null, size_bytes: 1, duration_seconds: 0, width: null, height: null, fps: null, has_audio: 0, has_speech: 0, language: null },
      ...{ storage_key: `k/${name}`, proxy_key: null, thumbnail_key: null, analysis: null, container: null, status: "ready", progress: 0, raw_preview_render: 0, created_at: now, updated_at: now, deleted_at: null },
      ...values,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
};

describe(`the database layer on ${databaseKind}`, () => {
  it("talks to the database this project is for", () => {
    expect(dialectOf(db)).toBe(onPostgres ? "postgres" : "sqlite");
  });

  it("answers ids, counts, sums and 64-bit integers as numbers, 8-byte floats unrounded, and timestamps as the text stored", async () => {
    const big = 5 * 1024 ** 3 + 7; // a 5 GiB file: past 32 bits
    const row = await media("big.mp4", { size_bytes: big, duration_seconds: 0.1 + 0.2, fps: 29.97002997002997 });
    expect(typeof row.id).toBe("number");
    expect(row.size_bytes).toBe(big);
    expect(row.duration_seconds).toBe(0.1 + 0.2);
    expect(row.fps).toBe(29.97002997002997);
    expect(row.has_audio).toBe(0);
    expect(typeof row.created_at).toBe("string");
    const totals = await db
      .selectFrom("media_files")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("size_bytes").as("bytes"), eb.fn.max<number>("id").as("last")])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(totals).toEqual({ n: 1, bytes: big, last: row.id });
    const [now] = (await sql<{ now: unknown }>`select ${"2026-01-02T03:04:05.678Z"} as now`.execute(db)).rows;
    expect(now!.now).toBe("2026-01-02T03:04:05.678Z");
  });

  it("keeps text longer than a varchar's length, as SQLite does", async () => {
    const long = "n".repeat(400); // media_files.name is varchar(255)
    expect((await media(long)).name).toBe(long);
  });

  it("stores an integer column's value past 32 bits", async () => {
    const row = await media("wide.png", { width: 2 ** 40 });
    expect(row.width).toBe(2 ** 40);
  });

  it("answers an empty IN list as false and an empty NOT IN list as true", async () => {
    expect(await db.selectFrom("media_files").select("id").where("id", "in", []).execute()).toEqual([]);
    const all = await db.selectFrom("media_files").select("id").execute();
    expect(await db.selectFrom("media_files").select("id").where("id", "not in", []).execute()).toHaveLength(all.length);
  });

  it("matches LIKE in any ASCII case and every other character only as itself", async () => {
    await media("Ünïcode TALK_1.mp4");
    const names = async (pattern: string) =>
      (await db.selectFrom("media_files").select("name").where(likeAsciiCaseless(db, "name", pattern)).execute()).map((r) => r.name);
    expect(await names("%talk\\_1%")).toEqual(["Ünïcode TALK_1.mp4"]);
    expect(await names("%TALK_1%")).toEqual(["Ünïcode TALK_1.mp4"]);
    expect(await names("%talk\\_2%")).toEqual([]);
    expect(await names("ünïcode%")).toEqual([]); // SQLite folds ASCII only
    expect(await names("Ünïcode%")).toEqual(["Ünïcode TALK_1.mp4"]);
  });

  it("sorts and compares text byte by byte, and = minds case", async () => {
    for (const name of ["b.mp4", "B.mp4", "a.mp4", "_x.mp4"]) await media(`sort/${name}`);
    const sorted = (await db.selectFrom("media_files").select("name").where("name", "like", "sort/%").orderBy("name").execute()).map((r) => r.name);
    expect(sorted).toEqual(["sort/B.mp4", "sort/_x.mp4", "sort/a.mp4", "sort/b.mp4"]);
    expect(await db.selectFrom("media_files").select("name").where("name", "=", "SORT/A.MP4").execute()).toEqual([]);
    expect(await db.selectFrom("media_files").select("name").where("name", ">", "sort/_").where("name", "<", "sort/b").orderBy("name").execute()).toEqual([{ name: "sort/_x.mp4" }, { name: "sort/a.mp4" }]);
  });

  it("does nothing on a conflicting insert that says so, and counts what it inserted", async () => {
    const key = { user_id: userId, key: "k1", method: "POST", path: "/x", created_at: new Date().toISOString() };
    const first = await db.insertInto("idempotency_keys").values(key).onConflict((oc) => oc.columns(["user_id", "key"]).doNothing()).executeTakeFirst();
    const second = await db.insertInto("idempotency_keys").values(key).onConflict((oc) => oc.columns(["user_id", "key"]).doNothing()).executeTakeFirst();
    expect(Number(first.numInsertedOrUpdatedRows)).toBe(1);
    expect(Number(second.numInsertedOrUpdatedRows)).toBe(0);
  });

  it("rolls a failed transaction back", async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable("users").set({ first_name: "Changed" }).where("id", "=", userId).execute();
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect((await db.selectFrom("users").select("first_name").where("id", "=", userId).executeTakeFirstOrThrow()).first_name).toBe("A");
  });
});
