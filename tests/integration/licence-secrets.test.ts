/**
 * Issue 16: a real server process logging at trace level, with the support-chat and referral secrets set
 * and a licence code imported by the operator's script. After the hashes are asked and the code is
 * redeemed (and tried again by another user), neither secret nor the code appears in the log, in any file
 * of the data folder (the database keeps only the code's SHA-256) or in an error body.
 */
import type { ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "./helpers";
import { spawnServer } from "./server-process";
import { databaseEnv } from "./database";

const ROOT = path.resolve(__dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-licence-secrets-"));
const logFile = path.join(os.tmpdir(), `cutroom-licence-secrets-${process.pid}.log`);
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
const TAWKTO_SECRET = `tawk-${randomBytes(18).toString("base64url")}`;
const IMPACT_SECRET = `impact-${randomBytes(18).toString("base64url")}`;
const CODE = `LIC-${randomBytes(9).toString("hex").toUpperCase()}`;
let child: ChildProcess | undefined;
const bodies: string[] = [];

async function api(method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  bodies.push(text);
  return { status: res.status, json: () => JSON.parse(text) };
}

async function signUp(): Promise<string> {
  const email = `licence-${randomBytes(4).toString("hex")}@example.com`;
  const reg = await api("POST", "/register", undefined, { locale: "en", first_name: "Ana", last_name: "Silva", email, password: "secret123", password_confirmation: "secret123", terms: true });
  expect(reg.status, bodies.at(-1)).toBe(201);
  const outbox = path.join(dataDir, "outbox");
  const link = await waitFor(async () => {
    if (!fs.existsSync(outbox)) return undefined;
    const mail = fs.readdirSync(outbox).map((f) => JSON.parse(fs.readFileSync(path.join(outbox, f), "utf8"))).find((m) => m.to === email);
    return mail?.links?.[0] as string | undefined;
  }, 20_000);
  await fetch(link.replace(/^https?:\/\/[^/]+/, base), { redirect: "manual" });
  const login = await api("POST", "/user/login", undefined, { email, password: "secret123" });
  return login.json().api_token as string;
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

beforeAll(async () => {
  const codes = path.join(os.tmpdir(), `cutroom-licence-codes-${process.pid}.txt`);
  fs.writeFileSync(codes, `${CODE}\n`);
  const report = execFileSync(process.execPath, ["--import", "tsx", "scripts/licences-import.ts", codes, "--product", "appsumo", "--tier", "2"], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, ...databaseEnv(dataDir) }, encoding: "utf8" });
  fs.rmSync(codes, { force: true });
  expect(report).not.toContain(CODE);
  child = spawnServer({ port, dataDir, logFile, env: { PUBLIC_URL: base, LOG_LEVEL: "trace", TAWKTO_SECRET, IMPACT_SECRET } });
  await waitFor(async () => ((await fetch(`${base}/api/v1/config`).catch(() => null))?.ok ? true : undefined), 60_000);
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(logFile, { force: true });
});

describe("licence codes and hash secrets stay out of logs and files", () => {
  it("never writes the secrets or a licence code, at trace level", async () => {
    const owner = await signUp();
    expect((await api("GET", "/user/tawkto/hash", owner)).status).toBe(200);
    expect((await api("GET", "/user/impact/hash", owner)).status).toBe(200);
    const redeemed = await api("POST", "/user/licence/redeem", owner, { code: CODE.toLowerCase() });
    expect(redeemed.status).toBe(200);
    expect(redeemed.json().ltd_tier).toBe("appsumo_tier2");
    const other = await signUp();
    const refused = await api("POST", "/user/licence/redeem", other, { code: CODE });
    expect(refused.status).toBe(409);
    // Let the log reach the file.
    await new Promise((r) => setTimeout(r, 500));

    const log = fs.readFileSync(logFile, "utf8");
    expect(log.length).toBeGreaterThan(0);
    expect(log).toContain("/user/licence/redeem");
    for (const secret of [TAWKTO_SECRET, IMPACT_SECRET, CODE, CODE.toLowerCase()]) {
      expect(log, "log").not.toContain(secret);
      for (const file of walk(dataDir)) expect(fs.readFileSync(file).includes(secret), file).toBe(false);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
  });
});
