import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../server/db/tokens";
import { bearer, jsonApi, listen, startTestServer, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

const DAY = 24 * 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const UNAUTHENTICATED = { message: "Please authenticate", code: "unauthenticated" };

/** Issue 12 item 15: api tokens lapse after 30 idle days and 365 days in all; last use is written at most hourly. */
describe("api token lifetime", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const me = (token: string) => server.app.inject({ method: "GET", url: "/api/v1/user", headers: bearer(token) });
  const row = (token: string) => server.db.selectFrom("api_tokens").selectAll().where("token_hash", "=", sha256(token)).executeTakeFirstOrThrow();
  const setTimes = (token: string, times: { created_at?: string; last_used_at?: string | null }) =>
    server.db.updateTable("api_tokens").set(times).where("token_hash", "=", sha256(token)).execute();

  it("a token unused for more than 30 days is refused with 401 unauthenticated", async () => {
    const { token } = await server.signUp();
    expect((await me(token)).statusCode).toBe(200);
    await setTimes(token, { created_at: ago(40 * DAY), last_used_at: ago(31 * DAY) });
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHENTICATED);
  });

  it("a token used within the idle window slides on, and its last use is written at most once an hour", async () => {
    const { token } = await server.signUp();
    await setTimes(token, { created_at: ago(100 * DAY), last_used_at: ago(29 * DAY) });
    expect((await me(token)).statusCode).toBe(200);
    const touched = (await row(token)).last_used_at!;
    expect(Date.now() - Date.parse(touched)).toBeLessThan(60_000);

    // Used again within the hour: no write.
    const halfHour = ago(30 * 60_000);
    await setTimes(token, { last_used_at: halfHour });
    expect((await me(token)).statusCode).toBe(200);
    expect((await row(token)).last_used_at).toBe(halfHour);
  });

  it("no token outlives 365 days, however often it is used", async () => {
    const { token } = await server.signUp();
    await setTimes(token, { created_at: ago(366 * DAY), last_used_at: ago(60_000) });
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHENTICATED);
  });

  it("a token issued before last-use tracking (no last use) counts idle time from its issue", async () => {
    const { token } = await server.signUp();
    await setTimes(token, { created_at: ago(31 * DAY), last_used_at: null });
    expect((await me(token)).statusCode).toBe(401);
  });

  it("signing in drops the user's lapsed tokens, not the live ones", async () => {
    const { token: lapsed, email } = await server.signUp();
    const live = (await server.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email, password: "secret123" } })).json().api_token as string;
    await setTimes(lapsed, { last_used_at: ago(31 * DAY) });
    await server.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email, password: "secret123" } });
    expect(await server.db.selectFrom("api_tokens").select("id").where("token_hash", "=", sha256(lapsed)).executeTakeFirst()).toBeUndefined();
    expect((await me(live)).statusCode).toBe(200);
  });

  it("TOKEN_IDLE_DAYS and TOKEN_MAX_DAYS set the lifetimes", async () => {
    const short = await startTestServer({ TOKEN_IDLE_DAYS: "1", TOKEN_MAX_DAYS: "10" });
    try {
      const mine = (token: string) => short.app.inject({ method: "GET", url: "/api/v1/user", headers: bearer(token) });
      const set = (token: string, times: { created_at: string; last_used_at: string }) =>
        short.db.updateTable("api_tokens").set(times).where("token_hash", "=", sha256(token)).execute();
      const a = (await short.signUp()).token;
      await set(a, { created_at: ago(3 * DAY), last_used_at: ago(2 * DAY) });
      expect((await mine(a)).statusCode).toBe(401);
      const b = (await short.signUp()).token;
      await set(b, { created_at: ago(11 * DAY), last_used_at: ago(3600_000 / 2) });
      expect((await mine(b)).statusCode).toBe(401);
      const c = (await short.signUp()).token;
      await set(c, { created_at: ago(9 * DAY), last_used_at: ago(DAY / 2) });
      expect((await mine(c)).statusCode).toBe(200);
    } finally {
      await short.close();
    }
  });
});

/** Issue 12 item 15: nothing is uploaded or processed for an address that is not verified. */
describe("an unverified account", () => {
  let server: TestServer;
  let base = "";
  beforeAll(async () => {
    // The runner is held: queued work stays visible in the jobs table.
    server = await startTestServer({}, { startRunner: false });
    base = await listen(server);
  });
  afterAll(() => server.close());

  const REFUSED = { message: "Confirm your email address first: open the link we sent you.", code: "email_not_verified" };
  const jobCount = async () => Number((await server.db.selectFrom("jobs").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
  const projectCount = async (userId: number) =>
    Number((await server.db.selectFrom("projects").select((eb) => eb.fn.countAll().as("n")).where("user_id", "=", userId).executeTakeFirstOrThrow()).n);

  /** Registers and signs in without following the verification link. */
  async function unverified() {
    const res = await server.register();
    const { id, email } = res.json() as { id: number; email: string };
    const login = await server.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email, password: "secret123" } });
    return { id, email, token: login.json().api_token as string };
  }

  /** A raw tus creation request, answered as JSON. */
  async function createUpload(token: string) {
    const res = await fetch(`${base}/api/v1/uploads`, {
      method: "POST",
      headers: { ...bearer(token), "tus-resumable": "1.0.0", "upload-length": "1000", "upload-metadata": `filename ${Buffer.from("a.mp4").toString("base64")}` },
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get("content-type") ?? "", body: text ? JSON.parse(text) : undefined };
  }

  it("cannot start an upload (JSON 403 email_not_verified), and can once verified", async () => {
    const user = await unverified();
    const refused = await createUpload(user.token);
    expect(refused.status).toBe(403);
    expect(refused.type).toContain("application/json");
    expect(refused.body).toEqual(REFUSED);

    const link = server.mails.filter((m) => m.to === user.email).at(-1)!.links![0]!;
    await server.app.inject({ method: "GET", url: new URL(link).pathname + new URL(link).search });
    expect((await createUpload(user.token)).status).toBe(201);
  });

  it("cannot add a file for processing, create a project, or queue, restart, render or clip one; its session stays", async () => {
    // A file and a project made while verified, then the address is unverified again (an account from before the rule).
    const { token, email } = await server.signUp();
    const userId = (await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
    const api = jsonApi(() => base, () => token);
    const uploaded = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/talk.mp4"), { name: "talk.mp4" });
    const media = await api("POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 });
    expect(media.status).toBe(201);
    const project = await api("POST", "/createproject", { name: "Before", locale: "en-US", style: "video", media: [media.body.media_file.id] });
    expect(project.status).toBe(201);
    expect((await api("DELETE", `/projects/${project.body.id}/queue`)).status).toBe(200);
    const second = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/voice.m4a"), { name: "voice.m4a" });
    await server.db.updateTable("users").set({ email_verified_at: null }).where("id", "=", userId).execute();

    const jobsBefore = await jobCount();
    const projectsBefore = await projectCount(userId);
    const id = project.body.id as number;
    const calls: [string, string, unknown?][] = [
      ["POST", "/library", { media_file: second.id, name: "voice.m4a", locale: "en-US", has_speech: 1, process: 1 }],
      ["POST", "/createproject", { name: "After", locale: "en-US", style: "video", media: [media.body.media_file.id] }],
      ["POST", `/projects/${id}/restart`],
      ["POST", `/projects/${id}/render`, { final: false }],
      ["POST", `/projects/${id}/render`, { final: true }],
      ["POST", `/projects/${id}/renderraw`],
      ["POST", `/projects/${id}/cuts`, { name: "Clips", scenes: [1], aspect: "16x9", autocrop: 0, final: 0 }],
    ];
    for (const [method, url, body] of calls) {
      const res = await api(method, url, body);
      expect({ call: `${method} ${url}`, status: res.status, body: res.body }).toEqual({ call: `${method} ${url}`, status: 403, body: REFUSED });
    }
    // Nothing was queued, created or consumed.
    expect(await jobCount()).toBe(jobsBefore);
    expect(await projectCount(userId)).toBe(projectsBefore);
    expect((await api("GET", `/projects/${id}`)).body).toMatchObject({ status: "Not Started", is_queued: 0 });
    expect(fs.existsSync(path.join(server.dataDir, "uploads", second.id))).toBe(true);
    // A 403 outside /user is not a sign-out: the token still works.
    expect((await api("GET", "/user")).status).toBe(200);
  });
});
