/**
 * Issue 16, the rest of the account over the real API: a new e-mail address takes effect only through the
 * link mailed to it (the old address is told), a password change signs out the other sessions, sign out of
 * other devices, the account deletion (rows, files, the subscription cancelled at the local gateway), the
 * data export zip, and the password reset by e-mail (same answer for an unknown address, hashed single-use
 * tokens that expire).
 */
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { bearer, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";
import { spawnServer } from "./server-process";
import { startFakeYoutube } from "./youtube-server";

let server: TestServer;
let base = "";

beforeAll(async () => {
  server = await startTestServer({ PUSH: "outbox", RATE_LIMIT_PASSWORD_RESET: "1000" });
  base = await listen(server);
}, 60_000);
afterAll(() => server?.close());

async function call(token: string | undefined, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) {
  const res = await server.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
}
const login = (email: string, password = "secret123") => call(undefined, "POST", "/user/login", { email, password });
const mailsTo = (address: string) => server.mails.filter((m) => m.to === address);
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
/** Mails that go out in the background (reset, password changed) land a moment after the answer. */
const settle = () => new Promise((r) => setTimeout(r, 50));
const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;

describe("changing the e-mail address", () => {
  it("waits for the link mailed to the new address, tells the old one, and refuses a taken address", async () => {
    const { token, email } = await server.signUp();
    const other = await server.signUp();
    const fresh = `new-${Date.now()}@example.com`;

    expect((await call(token, "POST", "/user/email", { email: fresh, password: "wrong-password" })).body).toMatchObject({ code: "validation_failed", fields: { password: "password_wrong" } });
    expect((await call(token, "POST", "/user/email", { email: email.toUpperCase(), password: "secret123" })).body.fields).toEqual({ email: "email_unchanged" });
    const taken = await call(token, "POST", "/user/email", { email: other.email, password: "secret123" });
    expect(taken.status).toBe(422);
    expect(taken.body.fields).toEqual({ email: "email_taken" });
    expect(mailsTo(other.email)).toHaveLength(1); // only its own verification mail

    const asked = await call(token, "POST", "/user/email", { email: fresh, password: "secret123" });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ email: fresh, expires_at: expect.any(String) });
    expect((await call(token, "GET", "/user/email/pending")).body.email).toBe(fresh);
    // Nothing changed yet: the account keeps its address until the link is opened.
    expect((await call(token, "GET", "/user")).body.email).toBe(email);
    const notice = mailsTo(email).at(-1)!;
    expect(notice.template).toBe("email-change-notice");
    expect(notice.text).toContain(fresh);
    expect(notice.links).toEqual([]);
    const confirm = mailsTo(fresh).at(-1)!;
    expect(confirm.template).toBe("email-change");
    const link = confirm.links![0]!;
    const token64 = new URL(link).searchParams.get("token")!;
    const stored = await server.db.selectFrom("account_tokens").selectAll().where("purpose", "=", "email_change").where("new_email", "=", fresh).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(sha256(token64));
    expect(JSON.stringify(stored)).not.toContain(token64);

    const opened = await server.app.inject({ method: "GET", url: pathOf(link) });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe("/email-changed?status=changed");
    const user = (await call(token, "GET", "/user")).body;
    expect(user.email).toBe(fresh);
    expect(user.email_verified_at).toBeTruthy();
    expect((await call(token, "GET", "/user/email/pending")).body).toEqual({ email: null, expires_at: null });
    // Single use; the new address signs in, the old one no longer does.
    expect((await server.app.inject({ method: "GET", url: pathOf(link) })).headers.location).toBe("/email-changed?status=expired");
    expect((await login(fresh)).status).toBe(200);
    expect((await login(email)).status).toBe(422);
  });

  it("refuses an expired link, a cancelled change, and an address someone registered meanwhile", async () => {
    const { token } = await server.signUp();
    const first = `late-${Date.now()}@example.com`;
    await call(token, "POST", "/user/email", { email: first, password: "secret123" });
    await server.db.updateTable("account_tokens").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("new_email", "=", first).execute();
    expect((await server.app.inject({ method: "GET", url: pathOf(mailsTo(first).at(-1)!.links![0]!) })).headers.location).toBe("/email-changed?status=expired");

    const second = `cancelled-${Date.now()}@example.com`;
    await call(token, "POST", "/user/email", { email: second, password: "secret123" });
    expect((await call(token, "DELETE", "/user/email/pending")).body).toEqual({ email: null, expires_at: null });
    expect((await server.app.inject({ method: "GET", url: pathOf(mailsTo(second).at(-1)!.links![0]!) })).headers.location).toBe("/email-changed?status=expired");

    const third = `raced-${Date.now()}@example.com`;
    await call(token, "POST", "/user/email", { email: third, password: "secret123" });
    await server.signUp(third);
    expect((await server.app.inject({ method: "GET", url: pathOf(mailsTo(third).find((m) => m.template === "email-change")!.links![0]!) })).headers.location).toBe("/email-changed?status=taken");
  });
});

describe("changing the e-mail address of a paying customer", () => {
  it("gives the gateway's customer the new address once the change is confirmed", async () => {
    const { token } = await server.signUp();
    await addCard(token);
    const userId = (await call(token, "GET", "/user")).body.id as number;
    const customer = (await server.db.selectFrom("users").select("stripe_id").where("id", "=", userId).executeTakeFirstOrThrow()).stripe_id!;
    const customerEmail = async () => JSON.parse((await server.db.selectFrom("local_gateway_objects").select("data").where("id", "=", customer).executeTakeFirstOrThrow()).data).email as string;
    const fresh = `billing-${Date.now()}@example.com`;
    await call(token, "POST", "/user/email", { email: fresh, password: "secret123" });
    expect(await customerEmail()).not.toBe(fresh);
    await server.app.inject({ method: "GET", url: pathOf(mailsTo(fresh).at(-1)!.links![0]!) });
    expect(await customerEmail()).toBe(fresh);
  });
});

describe("password and sessions", () => {
  it("changes the password with the current one and signs out every other session", async () => {
    const { token, email } = await server.signUp();
    const laptop = (await login(email)).body.api_token as string;
    const wrong = await call(token, "POST", "/user/password", { current_password: "nope-nope", password: "brand-new-1", password_confirmation: "brand-new-1" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.fields).toEqual({ current_password: "password_wrong" });
    const mismatch = await call(token, "POST", "/user/password", { current_password: "secret123", password: "brand-new-1", password_confirmation: "brand-new-2" });
    expect(mismatch.body.fields).toEqual({ password_confirmation: "passwords_different" });
    const short = await call(token, "POST", "/user/password", { current_password: "secret123", password: "short", password_confirmation: "short" });
    expect(short.body.fields).toEqual({ password: "password_short" });

    const changed = await call(token, "POST", "/user/password", { current_password: "secret123", password: "brand-new-1", password_confirmation: "brand-new-1" });
    expect(changed.status).toBe(200);
    expect(changed.body.revoked).toBe(1); // the laptop's
    expect((await call(laptop, "GET", "/user")).status).toBe(401);
    expect((await call(token, "GET", "/user")).status).toBe(200);
    expect((await login(email)).status).toBe(422);
    expect((await login(email, "brand-new-1")).status).toBe(200);
    await settle();
    expect(mailsTo(email).at(-1)!.template).toBe("password-changed");
  });

  it("signs out every other device and keeps this one", async () => {
    const { token, email } = await server.signUp();
    const phone = (await login(email)).body.api_token as string;
    const tablet = (await login(email)).body.api_token as string;
    const other = await server.signUp();
    const res = await call(token, "POST", "/user/sessions/revoke-others");
    expect(res.status).toBe(200);
    expect(res.body.revoked).toBe(2); // the phone's and the tablet's
    expect((await call(phone, "GET", "/user")).status).toBe(401);
    expect((await call(tablet, "GET", "/user")).status).toBe(401);
    expect((await call(token, "GET", "/user")).status).toBe(200);
    // Someone else's sessions are untouched.
    expect((await call(other.token, "GET", "/user")).status).toBe(200);
    expect((await call(undefined, "POST", "/user/sessions/revoke-others")).status).toBe(401);
  });
});

describe("password reset by e-mail", () => {
  it("is the app's own unless FORGOT_PASSWORD_URL names an external page", async () => {
    expect((await call(undefined, "GET", "/config")).body.links.forgotPassword).toBeNull();
    expect(loadConfig({ FORGOT_PASSWORD_URL: "https://example.com/reset" }).links.forgotPassword).toBe("https://example.com/reset");
    expect(() => loadConfig({ FORGOT_PASSWORD_URL: "not a url" })).toThrow(/FORGOT_PASSWORD_URL/);
  });

  it("answers an unknown address exactly as a known one, and mails only the known one", async () => {
    const { email } = await server.signUp();
    const before = server.mails.length;
    const known = await call(undefined, "POST", "/user/password/forgot", { email: email.toUpperCase() });
    const unknown = await call(undefined, "POST", "/user/password/forgot", { email: `nobody-${Date.now()}@example.com` });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known.status).toBe(200);
    await settle();
    expect(server.mails.slice(before).map((m) => m.to)).toEqual([email]);
    // A second ask within the minute answers the same and sends nothing more (no mailbox flooding).
    expect((await call(undefined, "POST", "/user/password/forgot", { email })).body).toEqual(known.body);
    await settle();
    expect(server.mails.slice(before)).toHaveLength(1);
  });

  it("makes one link and one mail when the same address asks several times at once", async () => {
    const { email } = await server.signUp();
    const answers = await Promise.all([1, 2, 3].map(() => call(undefined, "POST", "/user/password/forgot", { email })));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    await settle();
    expect(mailsTo(email).filter((m) => m.template === "password-reset")).toHaveLength(1);
    const user = (await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
    expect(await server.db.selectFrom("account_tokens").select("id").where("user_id", "=", user).where("purpose", "=", "password_reset").execute()).toHaveLength(1);
  });

  it("stores the token hashed, sets the password once, signs every session out", async () => {
    const { token, email } = await server.signUp();
    await call(undefined, "POST", "/user/password/forgot", { email });
    await settle();
    const mail = mailsTo(email).at(-1)!;
    expect(mail.template).toBe("password-reset");
    const link = new URL(mail.links![0]!);
    expect(link.pathname).toBe("/reset-password");
    const resetToken = link.searchParams.get("token")!;
    const row = await server.db.selectFrom("account_tokens").selectAll().where("purpose", "=", "password_reset").where("token_hash", "=", sha256(resetToken)).executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(60 * 60_000);
    const all = await server.db.selectFrom("account_tokens").selectAll().execute();
    expect(JSON.stringify(all)).not.toContain(resetToken);

    const mismatch = await call(undefined, "POST", "/user/password/reset", { token: resetToken, password: "reset-pass-1", password_confirmation: "other-pass-1" });
    expect(mismatch.status).toBe(422);
    const done = await call(undefined, "POST", "/user/password/reset", { token: resetToken, password: "reset-pass-1", password_confirmation: "reset-pass-1" });
    expect(done.status).toBe(200);
    expect((await call(token, "GET", "/user")).status).toBe(401);
    expect((await login(email)).status).toBe(422);
    expect((await login(email, "reset-pass-1")).status).toBe(200);
    const again = await call(undefined, "POST", "/user/password/reset", { token: resetToken, password: "reset-pass-2", password_confirmation: "reset-pass-2" });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe("reset_link_invalid");
    expect((await login(email, "reset-pass-2")).status).toBe(422);
  });

  it("refuses an expired token and a made-up one", async () => {
    const { email } = await server.signUp();
    await call(undefined, "POST", "/user/password/forgot", { email });
    await settle();
    const resetToken = new URL(mailsTo(email).at(-1)!.links![0]!).searchParams.get("token")!;
    await server.db.updateTable("account_tokens").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("token_hash", "=", sha256(resetToken)).execute();
    const expired = await call(undefined, "POST", "/user/password/reset", { token: resetToken, password: "reset-pass-1", password_confirmation: "reset-pass-1" });
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe("reset_link_invalid");
    const madeUp = await call(undefined, "POST", "/user/password/reset", { token: "x".repeat(43), password: "reset-pass-1", password_confirmation: "reset-pass-1" });
    expect(madeUp.status).toBe(410);
    expect((await login(email)).status).toBe(200);
  });
});

const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])) : [];

/** What the card form does at the local gateway: a setup intent, the 4242 card, then the card saved. */
async function addCard(token: string): Promise<string> {
  const intent = await call(token, "GET", "/user/payment/setupintent");
  const confirmed = await server.app.inject({
    method: "POST",
    url: "/local-gateway/v1/setup_intents/confirm",
    payload: { client_secret: intent.body.client_secret, card: { number: "4242 4242 4242 4242", exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: "123" }, billing_details: { name: "Ana Silva" } },
  });
  const saved = await call(token, "POST", "/user/payment/methods", { payment_method: confirmed.json().payment_method });
  expect(saved.status).toBe(201);
  return saved.body.id as string;
}

describe("a creator's data and the account's end", () => {
  let token = "";
  let email = "";
  let userId = 0;
  let projectId = 0;

  beforeAll(async () => {
    ({ token, email } = await server.signUp());
    userId = (await call(token, "GET", "/user")).body.id;
    projectId = await processedTalkProject(base, token, "Café: the talk");
    // Subtitle lines as a person would type them, and a translated set of them.
    const scene = await server.db.selectFrom("scenes").selectAll().where("project_id", "=", projectId).where("parent_scene_id", "is", null).orderBy("order").executeTakeFirstOrThrow();
    const start = scene.trim_start + 0.2;
    await server.db.updateTable("scenes").set({ text: JSON.stringify([{ start, end: start + 1, text: "Hello there" }]) }).where("id", "=", scene.id).execute();
    const key = `${scene.media_file_id}@${Math.round(start * 1000)}`;
    const now = new Date().toISOString();
    await server.db
      .insertInto("subtitle_sets")
      .values({ project_id: projectId, user_id: userId, locale: "es-ES", original: 0, status: "ready", engine: "apertium", draft: 1, reason: null, error: null, detail: null, translations: JSON.stringify({ [key]: { source: "Hello there", text: "Hola", edited: 1 } }), created_at: now, updated_at: now })
      .execute();
    const card = await addCard(token);
    expect((await call(token, "PUT", "/user/payment/subscription", { plan: "professional_month", payment: card })).body.change).toBe("trial_started");
    const push = await call(token, "POST", "/push/subscriptions", { endpoint: `https://push.example.com/send/${userId}`, keys: { p256dh: "BOr".padEnd(87, "A"), auth: "a".repeat(22) } });
    expect(push.status).toBe(201);
  }, 240_000);

  it("downloads one's data as a zip: account, payments without card data, each project with scenes and subtitles", async () => {
    const link = await call(token, "GET", "/user/export");
    expect(link.status).toBe(200);
    expect(link.body.filename).toMatch(/^cutroom-data-\d{4}-\d{2}-\d{2}\.zip$/);
    // A plain browser download: no bearer header.
    const res = await fetch(`${base}${link.body.url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain(link.body.filename);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const text = (name: string) => strFromU8(files[name]!);
    const names = Object.keys(files);
    const folder = names.find((n) => n.startsWith(`projects/${projectId}-`))!.split("/").slice(0, 2).join("/");
    expect(folder).toBe(`projects/${projectId}-Café_ the talk`);
    expect(names).toEqual(
      expect.arrayContaining([
        "account.json",
        "payments.json",
        "library.json",
        `${folder}/project.json`,
        `${folder}/scenes.json`,
        `${folder}/subtitle-sets.json`,
        `${folder}/subtitles/en-US.vtt`,
        `${folder}/subtitles/en-US.srt`,
        `${folder}/subtitles/es-ES.vtt`,
        `${folder}/subtitles/es-ES.srt`,
      ]),
    );
    const account = JSON.parse(text("account.json"));
    expect(account).toMatchObject({ email, first_name: "Ana", settings: { render_notifications: 1 } });
    expect(account.password_hash).toBeUndefined();
    const payments = JSON.parse(text("payments.json"));
    expect(payments.subscription).toMatchObject({ plan_id: "professional_month", status: "trialing" });
    for (const secret of ["4242", "last4", "client_secret", "gateway_", "cus_", "pm_"]) expect(text("payments.json")).not.toContain(secret);
    const project = JSON.parse(text(`${folder}/project.json`));
    expect(project).toMatchObject({ id: projectId, name: "Café: the talk", locale: "en-US" });
    expect(typeof project.settings).toBe("object");
    expect(Object.keys(project).some((k) => k.endsWith("_key") || k.endsWith("_hash"))).toBe(false);
    expect(JSON.parse(text(`${folder}/scenes.json`)).length).toBeGreaterThan(0);
    expect(text(`${folder}/subtitles/en-US.vtt`)).toMatch(/^WEBVTT[\s\S]*Hello there/);
    expect(text(`${folder}/subtitles/en-US.srt`)).toMatch(/^1\r?\n[\s\S]*Hello there/);
    expect(text(`${folder}/subtitles/es-ES.vtt`)).toContain("Hola");
    expect(JSON.parse(text(`${folder}/subtitle-sets.json`))[0]).toMatchObject({ locale: "es-ES", translations: expect.any(Object) });

    // The link is this user's and this signature's: tampered, or another user's id, it opens nothing.
    const url = new URL(link.body.url, base);
    const tampered = url.search.replace(/signature=([^&]+)/, (_m, s: string) => `signature=${s.slice(0, -2)}${s.endsWith("aa") ? "bb" : "aa"}`);
    expect((await fetch(`${base}${url.pathname}${tampered}`)).status).toBe(404);
    expect((await fetch(`${base}/api/v1/user/export/${userId + 1}${url.search}`)).status).toBe(404);
    expect((await fetch(`${base}${url.pathname}${url.search.replace(/expires=\d+/, "expires=1")}`)).status).toBe(404);
    expect((await call(undefined, "GET", "/user/export")).status).toBe(401);
  });

  it("deletes the account after the password: subscription cancelled, rows and files gone, credentials dead", async () => {
    const other = await server.signUp();
    const storeDir = server.config.storeDir;
    expect(filesUnder(path.join(storeDir, "media", String(userId))).length).toBeGreaterThan(0);
    expect(filesUnder(path.join(storeDir, "projects", String(userId))).length).toBeGreaterThan(0);
    const sub = await server.db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
    const customer = (await server.db.selectFrom("users").select("stripe_id").where("id", "=", userId).executeTakeFirstOrThrow()).stripe_id!;

    const wrong = await call(token, "POST", "/user/delete", { password: "not-my-password" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.fields).toEqual({ password: "password_wrong" });
    expect(await server.db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst()).toBeTruthy();
    expect((await call(other.token, "POST", "/user/delete", { password: "wrong" })).status).toBe(422);

    const deleted = await call(token, "POST", "/user/delete", { password: "secret123" });
    expect(deleted.status).toBe(200);

    // The gateway's subscription renews no more, and no card is left on the customer.
    const gatewaySub = JSON.parse((await server.db.selectFrom("local_gateway_objects").select("data").where("id", "=", sub.gateway_subscription_id!).executeTakeFirstOrThrow()).data);
    expect(gatewaySub.cancel_at_period_end).toBe(true);
    const cards = await server.db.selectFrom("local_gateway_objects").select("id").where("kind", "=", "payment_method").where("customer", "=", customer).execute();
    expect(cards).toEqual([]);

    for (const table of ["projects", "media_files", "subtitle_sets", "push_subscriptions", "api_tokens", "subscriptions", "payment_methods", "payments", "account_tokens"] as const) {
      expect(await server.db.selectFrom(table).select("user_id").where("user_id", "=", userId).execute(), table).toEqual([]);
    }
    expect(await server.db.selectFrom("scenes").select("id").where("project_id", "=", projectId).execute()).toEqual([]);
    expect(await server.db.selectFrom("users").select("id").where("id", "=", userId).execute()).toEqual([]);
    expect(fs.existsSync(path.join(storeDir, "media", String(userId)))).toBe(false);
    expect(fs.existsSync(path.join(storeDir, "projects", String(userId)))).toBe(false);
    expect(fs.readdirSync(server.config.uploadsDir).filter((n) => n.startsWith(`${userId}-`))).toEqual([]);

    expect((await call(token, "GET", "/user")).status).toBe(401);
    expect((await login(email)).status).toBe(422);
    // The other account is untouched.
    expect((await call(other.token, "GET", "/user")).status).toBe(200);
  });
});

describe("the log of a real server", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-account-log-"));
  const logFile = path.join(dataDir, "server.log");
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const origin = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill("SIGKILL");
      await new Promise((resolve) => child!.once("exit", resolve));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const json = async (method: string, url: string, body?: unknown, token?: string) => {
    const res = await fetch(`${origin}/api/v1${url}`, { method, redirect: "manual", headers: { ...(token ? bearer(token) : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  /** The newest mail to an address in DATA_DIR/outbox (the server has no SMTP here). */
  const outbox = (to: string, template: string) =>
    waitFor(async () => {
      const dir = path.join(dataDir, "outbox");
      // A mail being written is read again at the next try.
      const read = (f: string) => {
        try {
          return JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
        } catch {
          return {};
        }
      };
      const mails = fs.existsSync(dir) ? fs.readdirSync(dir).sort().map(read) : [];
      return mails.filter((m) => m.to === to && m.template === template).at(-1) as { links: string[] } | undefined;
    }, 10_000);

  it("never writes a reset token, an e-mail change token, an export signature or a password, even at trace level", async () => {
    child = spawnServer({ port, dataDir, logFile, env: { PUBLIC_URL: origin, LOG_LEVEL: "trace" } });
    await waitFor(async () => (await fetch(`${origin}/api/v1/config`).then((r) => r.ok).catch(() => false)) || undefined, 60_000);
    const email = `log-${Date.now()}@example.com`;
    const password = `first-pass-${Date.now()}`;
    expect((await json("POST", "/register", { locale: "en", first_name: "Ana", last_name: "Silva", email, password, password_confirmation: password, terms: true })).status).toBe(201);
    let token = (await json("POST", "/user/login", { email, password })).body.api_token as string;

    const newPassword = `second-pass-${Date.now()}`;
    expect((await json("POST", "/user/password", { current_password: password, password: newPassword, password_confirmation: newPassword }, token)).status).toBe(200);
    expect((await json("POST", "/user/password/forgot", { email })).status).toBe(200);
    const resetToken = new URL((await outbox(email, "password-reset")).links[0]!).searchParams.get("token")!;
    // The page the mail opens, then the reset itself.
    expect((await fetch(`${origin}/reset-password?token=${resetToken}`)).status).toBeLessThan(500);
    const resetPassword = `third-pass-${Date.now()}`;
    expect((await json("POST", "/user/password/reset", { token: resetToken, password: resetPassword, password_confirmation: resetPassword })).status).toBe(200);
    token = (await json("POST", "/user/login", { email, password: resetPassword })).body.api_token as string;

    const fresh = `log-new-${Date.now()}@example.com`;
    expect((await json("POST", "/user/email", { email: fresh, password: resetPassword }, token)).status).toBe(200);
    const confirmLink = (await outbox(fresh, "email-change")).links[0]!;
    const changeToken = new URL(confirmLink).searchParams.get("token")!;
    expect((await fetch(confirmLink, { redirect: "manual" })).status).toBe(303);

    const exportLink = (await json("GET", "/user/export", undefined, token)).body.url as string;
    const signature = new URL(exportLink, origin).searchParams.get("signature")!;
    expect((await fetch(`${origin}${exportLink}`)).status).toBe(200);

    const log = fs.readFileSync(logFile, "utf8");
    expect(log).toContain("/user/password/reset");
    for (const secret of [resetToken, changeToken, signature, password, newPassword, resetPassword, token]) expect(log).not.toContain(secret);
  }, 120_000);
});

describe("deleting an account connected to YouTube", () => {
  it("revokes Cutroom's access at Google before the tokens go", async () => {
    const fake = await startFakeYoutube();
    const yt = await startTestServer({ APP_SECRET: "account-youtube-secret-0123456789abcdef", ...fake.env() });
    try {
      const ytBase = await listen(yt);
      const { token, email } = await yt.signUp();
      // Connect as a person would: the consent link, Allow, the callback.
      const link = (await yt.app.inject({ method: "GET", url: "/api/v1/user/youtube/connect", headers: bearer(token) })).json().url as string;
      const allow = /href="([^"]+decision=allow)"/.exec(await (await fetch(link)).text())![1]!.replace(/&amp;/g, "&");
      const back = new URL((await fetch(new URL(allow, fake.url), { redirect: "manual" })).headers.get("location")!);
      await (await fetch(`${ytBase}${back.pathname}${back.search}`)).text();
      expect((await yt.app.inject({ method: "GET", url: "/api/v1/user/youtube", headers: bearer(token) })).json().connected).toBe(true);

      const deleted = await yt.app.inject({ method: "POST", url: "/api/v1/user/delete", headers: bearer(token), payload: { password: "secret123" } });
      expect(deleted.statusCode).toBe(200);
      expect(fake.log.revoked).toEqual(["refresh_token"]);
      expect(await yt.db.selectFrom("youtube_connections").selectAll().execute()).toEqual([]);
      expect((await yt.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email, password: "secret123" } })).statusCode).toBe(422);
    } finally {
      await yt.close();
      await fake.close();
    }
  }, 60_000);
});
