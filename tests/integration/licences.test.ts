/**
 * Issue 16, deals-marketplace licences: the operator's import script (idempotent, codes never printed
 * back), redemption giving the partner tier `{product}_tierN` with the lifetime plan's limits (SPEC §9),
 * spent codes refused without saying who spent them, a renewing paid subscription refused until its renewal
 * is cancelled, the per-user rate limit, and the marketplace's upgrade link when the operator set one.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, startTestServer, type TestServer } from "./helpers";
import { databaseEnv } from "./database";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const UPGRADE = "https://appsumo.example/account/redemption/{uuid}#change-plan";

let server: TestServer;
let plain: TestServer;
let codesDir = "";

const TIER1 = ["AS1-ALPHA-0001", "AS1-ALPHA-0002", "AS1-ALPHA-0003", "AS1-ALPHA-0004", "AS1-ALPHA-0005"];
const TIER2 = ["AS2-BRAVO-0001", "AS2-BRAVO-0002", "AS2-BRAVO-0003"];

async function call(on: TestServer, token: string, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) {
  const res = await on.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json(), text: res.body };
}

const redeem = (token: string, code: string, on = server) => call(on, token, "POST", "/user/licence/redeem", { code });

/** The operator's command, against the test server's own database. */
async function importCodes(file: string, product: string, tier: number) {
  const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/licences-import.ts"), file, "--product", product, "--tier", String(tier)], {
    cwd: ROOT,
    // The server's own database: its SQLite file, or (project integration-pg) its PostgreSQL database.
    env: { ...process.env, DATA_DIR: server.dataDir, ...databaseEnv(server.dataDir), LOG_LEVEL: "silent" },
  });
  return stdout + stderr;
}

beforeAll(async () => {
  server = await startTestServer({ APPSUMO_UPGRADE_URL: UPGRADE, RATE_LIMIT_LICENCE: "6" }, { startRunner: false });
  plain = await startTestServer({}, { startRunner: false });
  codesDir = fs.mkdtempSync(path.join(server.dataDir, "codes-"));
  fs.writeFileSync(path.join(codesDir, "tier1.csv"), `License Key,Batch\n${TIER1.map((c) => `"${c.toLowerCase()}",batch-7`).join("\n")}\n\n${TIER1[0]},batch-7\n`);
  fs.writeFileSync(path.join(codesDir, "tier2.txt"), `${TIER2.join("\r\n")}\r\n`);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await plain?.close();
});

describe("import", () => {
  it("stores each code once as a hash, says what it did in counts, and never prints a code back", async () => {
    const first = await importCodes(path.join(codesDir, "tier1.csv"), "appsumo", 1);
    expect(first).toContain("5 imported");
    expect(first).toContain("1 listed twice");
    expect(first).toContain("appsumo_tier1: 5 available");
    const again = await importCodes(path.join(codesDir, "tier1.csv"), "appsumo", 1);
    expect(again).toContain("0 imported");
    expect(again).toContain("5 already imported");
    const tier2 = await importCodes(path.join(codesDir, "tier2.txt"), "appsumo", 2);
    expect(tier2).toContain("3 imported");
    for (const code of [...TIER1, ...TIER2]) {
      expect(first + again + tier2).not.toContain(code);
      expect((first + again + tier2).toUpperCase()).not.toContain(code.slice(4));
    }
    const rows = await server.db.selectFrom("licences").selectAll().execute();
    expect(rows).toHaveLength(8);
    expect(JSON.stringify(rows)).not.toMatch(/ALPHA|BRAVO/i);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.code_hash) && r.status === "available")).toBe(true);
  });

  it("refuses a tier the plans catalogue has no lifetime plan for", async () => {
    await expect(importCodes(path.join(codesDir, "tier2.txt"), "appsumo", 7)).rejects.toMatchObject({ stderr: expect.stringContaining("no lifetime plan ltd_tier7") });
  });
});

describe("redeem", () => {
  it("gives the partner tier with the lifetime limits (90 min per file, 5 GB per upload, 150 GB, 1080p, no watermark)", async () => {
    const { token } = await server.signUp();
    const before = await call(server, token, "GET", "/user/limits");
    expect(before.body.storage_gb).toBeLessThan(150);
    // Typed in lower case with spaces: still the code.
    const res = await redeem(token, ` ${TIER1[0]!.toLowerCase().replace(/-/g, " - ")} `);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ltd_tier: "appsumo_tier1", video_tier: 2, max_storage: 150 * 1024 ** 3 });
    expect(res.body.appsumo_license_uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.features).toContain("no_watermark");
    const limits = await call(server, token, "GET", "/user/limits");
    expect(limits.body).toMatchObject({ storage_gb: 150, upload_max_length_minutes: 90, upload_max_size_mb: 5120, video_tier: 2 });
    const quotas = await call(server, token, "GET", "/user/quotas");
    expect(quotas.body).toMatchObject({ uploadMaxSizeBytes: 5120 * 1024 ** 2, uploadMaxLengthMinutes: 90 });
    // The same code sent again by its owner (a retried request) answers the same.
    const again = await redeem(token, TIER1[0]!);
    expect(again.status).toBe(200);
    expect(again.body.appsumo_license_uuid).toBe(res.body.appsumo_license_uuid);
    const row = await server.db.selectFrom("licences").selectAll().where("uuid", "=", res.body.appsumo_license_uuid).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "redeemed", redeemed_by: res.body.id, product: "appsumo", tier: 1 });
  });

  it("refuses a code someone else redeemed, without saying who", async () => {
    const owner = await server.signUp();
    expect((await redeem(owner.token, TIER1[1]!)).status).toBe(200);
    const other = await server.signUp();
    const res = await redeem(other.token, TIER1[1]!);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("licence_used");
    expect(res.text).not.toContain(owner.email);
    expect((await call(server, other.token, "GET", "/user")).body).toMatchObject({ ltd_tier: null, appsumo_license_uuid: null, video_tier: 0 });
  });

  it("refuses an unknown code, and a tier the account already has; a higher tier replaces a lower one", async () => {
    const { token } = await server.signUp();
    const unknown = await redeem(token, "AS1-NOT-A-CODE");
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe("licence_invalid");
    expect((await redeem(token, TIER1[2]!)).status).toBe(200);
    const same = await redeem(token, TIER1[3]!);
    expect(same.status).toBe(409);
    expect(same.body.code).toBe("licence_held");
    // The refused code is still there for someone else.
    expect((await server.db.selectFrom("licences").select("status").where("redeemed_by", "is", null).execute()).length).toBeGreaterThan(0);
    const higher = await redeem(token, TIER2[0]!);
    expect(higher.status).toBe(200);
    expect(higher.body.ltd_tier).toBe("appsumo_tier2");
    const limits = await call(server, token, "GET", "/user/limits");
    expect(limits.body.plan.id).toBe("ltd_tier2");
  });

  it("refuses while a paid subscription still renews, and redeems once its renewal is cancelled", async () => {
    const { token } = await server.signUp();
    const intent = await call(server, token, "GET", "/user/payment/setupintent");
    const confirmed = await server.app.inject({
      method: "POST",
      url: "/local-gateway/v1/setup_intents/confirm",
      payload: { client_secret: intent.body.client_secret, card: { number: "4242 4242 4242 4242", exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: "123" }, billing_details: { name: "Ana Silva" } },
    });
    const card = await call(server, token, "POST", "/user/payment/methods", { payment_method: confirmed.json().payment_method });
    expect(card.status).toBe(201);
    const started = await call(server, token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: card.body.id });
    expect(started.body.change).toBe("trial_started");
    const refused = await redeem(token, TIER2[1]!);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("licence_subscription_active");
    const cancelled = await call(server, token, "PUT", "/user/payment/subscription", { plan: "free" });
    expect(cancelled.body.change).toBe("cancel_scheduled");
    const res = await redeem(token, TIER2[1]!);
    expect(res.status).toBe(200);
    expect(res.body.ltd_tier).toBe("appsumo_tier2");
  });

  it("limits attempts per user (no guessing codes)", async () => {
    const { token } = await server.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await redeem(token, `GUESS-${i}`)).status);
    expect(statuses.slice(0, 6)).toEqual(Array(6).fill(422));
    expect(statuses.slice(6)).toEqual([429, 429]);
    // Another user is not held up by it.
    const other = await server.signUp();
    expect((await redeem(other.token, "GUESS-X")).status).toBe(422);
  });

  it("refuses anonymous calls", async () => {
    const res = await server.app.inject({ method: "POST", url: "/api/v1/user/licence/redeem", payload: { code: TIER1[4] } });
    expect(res.statusCode).toBe(401);
  });
});

describe("upgrade link", () => {
  it("answers the marketplace's page for the user's licence when configured, else 404", async () => {
    const { token } = await server.signUp();
    expect((await call(server, token, "GET", "/user/appsumo/upgradelink")).status).toBe(404);
    const redeemed = await redeem(token, TIER2[2]!);
    const link = await call(server, token, "GET", "/user/appsumo/upgradelink");
    expect(link.status).toBe(200);
    expect(link.body.url).toBe(`https://appsumo.example/account/redemption/${redeemed.body.appsumo_license_uuid}#change-plan`);

    const elsewhere = await plain.signUp();
    const none = await call(plain, elsewhere.token, "GET", "/user/appsumo/upgradelink");
    expect(none.status).toBe(404);
    expect(none.body.code).toBe("not_found");
  });
});
