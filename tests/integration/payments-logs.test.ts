/**
 * Issue 16, card data never touches our records: a real server process logging at info level takes
 * card entries (accepted, declined, 3-D Secure, a mistyped number) and a subscription through the
 * local gateway, then its log and every file of its data folder (the SQLite database and its WAL
 * included) are searched for the card numbers and security codes. Only brand, last four and expiry stay.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { waitFor } from "./helpers";
import { spawnServer } from "./server-process";
import { databaseDump, onPostgres } from "./database";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-payments-logs-"));
const logFile = path.join(os.tmpdir(), `cutroom-payments-logs-${process.pid}.log`);
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(logFile, { force: true });
});

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${url}`, {
    method: url.includes("/subscription") ? "PUT" : "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

describe("card data in logs and files", () => {
  it("keeps no card number or security code anywhere", async () => {
    child = spawnServer({ port, dataDir, logFile, env: { PUBLIC_URL: base, LOG_LEVEL: "info", CAPTCHA: "off" } });
    await waitFor(async () => (await fetch(`${base}/api/v1/config`).then((r) => r.ok).catch(() => false)) || undefined, 60_000);

    const email = `cards-${Date.now()}@example.com`;
    const registration = { locale: "en", first_name: "Ana", last_name: "Silva", email, password: "secret123", password_confirmation: "secret123", terms: true, "g-recaptcha-response": "" };
    expect((await post("/api/v1/register", registration)).status).toBe(201);
    const token = (await post("/api/v1/user/login", { email, password: "secret123" })).json.api_token as string;

    const year = new Date().getUTCFullYear() + 4;
    const cards = [
      { number: "4242424242424242", cvc: "737" },
      { number: "4000 0000 0000 0002", cvc: "838" },
      { number: "4000002760003184", cvc: "939" },
      { number: "4242424242424241", cvc: "646" },
    ];
    let saved = "";
    for (const card of cards) {
      const intent = await fetch(`${base}/api/v1/user/payment/setupintent`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
      expect(intent.payment_mode.mode).toBe("test");
      const confirmed = await post("/local-gateway/v1/setup_intents/confirm", { client_secret: intent.client_secret, card: { number: card.number, exp_month: 11, exp_year: year, cvc: card.cvc } });
      if (confirmed.status !== 200) {
        expect(JSON.stringify(confirmed.json)).not.toContain(card.number.replace(/ /g, "").slice(0, 12));
        continue;
      }
      if (confirmed.json.status === "requires_action") {
        await post("/local-gateway/v1/intents/authenticate", { client_secret: intent.client_secret, outcome: "complete" });
      }
      const method = await post("/api/v1/user/payment/methods", { payment_method: confirmed.json.payment_method }, token);
      expect(method.status).toBe(201);
      saved ||= method.json.id;
    }
    const subscribed = await post("/api/v1/user/payment/subscription", { plan: "starter_year", payment: saved }, token);
    expect(subscribed.json.subscription_updated).toBe(true);

    child.kill("SIGTERM");
    await new Promise((resolve) => child!.once("exit", resolve));
    const log = fs.readFileSync(logFile, "utf8");
    // The calls were logged (method and path), so a silent log is not what passes this test.
    expect(log).toContain("/local-gateway/v1/setup_intents/confirm");
    expect(log).toContain("/api/v1/user/payment/methods");
    // The database is a file of the data folder on SQLite; on PostgreSQL its rows are searched too.
    const places = [{ name: "log", bytes: Buffer.from(log) }, ...walk(dataDir).map((file) => ({ name: path.relative(dataDir, file), bytes: fs.readFileSync(file) })), ...(onPostgres ? [{ name: "database rows", bytes: Buffer.from(await databaseDump(dataDir)) }] : [])];
    const found: string[] = [];
    for (const card of cards) {
      const digits = card.number.replace(/ /g, "");
      for (const needle of [digits, card.number, `${digits.slice(0, 4)} ${digits.slice(4, 8)}`, `"cvc":"${card.cvc}"`]) {
        for (const place of places) if (place.bytes.includes(needle)) found.push(`${needle} in ${place.name}`);
      }
    }
    expect(found).toEqual([]);
    // What is kept: the last four digits of the saved cards.
    const db = places.filter((p) => p.name.startsWith("cutroom.sqlite") || p.name === "database rows");
    expect(db.some((p) => p.bytes.includes("4242") && p.bytes.includes("3184"))).toBe(true);
  }, 120_000);
});
