import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CutroomDb } from "../../src/db";
import { createActions } from "../../workers/actions";
import { createApiClient } from "../../workers/api-client";

const user = {
  id: 7,
  name: "Ana Silva",
  first_name: "Ana",
  last_name: "Silva",
  email: "ana@example.com",
  email_verified_at: "2026-11-01T10:00:00.000Z",
  locale: "en",
  video_tier: 0,
  created_at: "2026-11-01T09:00:00.000Z",
  total_used_storage: 0,
  max_storage: 5 * 1024 ** 3,
  render_notifications: 1,
  show_wizard: 0,
  ltd_tier: null,
  ltd_renew_at: null,
  appsumo_license_uuid: null,
  stripe_id: null,
  plan: { id: "free", nickname: "Free" },
  features: [],
};

type Reply = { status: number; body: unknown };
let replies: Map<string, Reply[]>;
let requests: { method: string; url: string; headers: Record<string, string>; body?: unknown }[];

const fakeFetch = vi.fn(async (url: string, init: RequestInit = {}) => {
  const method = init.method ?? "GET";
  requests.push({ method, url, headers: init.headers as Record<string, string>, body: init.body ? JSON.parse(String(init.body)) : undefined });
  const queue = replies.get(`${method} ${url}`);
  const reply = queue?.shift();
  if (!reply) throw new TypeError("Failed to fetch");
  return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { "content-type": "application/json" } });
});

const reply = (key: string, ...list: Reply[]) => replies.set(key, list);

let db: CutroomDb;
let actions: ReturnType<typeof createActions>;

beforeEach(() => {
  replies = new Map();
  requests = [];
  db = new CutroomDb(`test-${Math.random()}`);
  const call = createApiClient({
    getToken: async () => (await db.auth.get("token"))?.token,
    onSignedOut: () => db.signOutLocally(),
    fetchImpl: fakeFetch as unknown as typeof fetch,
  });
  actions = createActions(db, call);
});

afterEach(async () => {
  await db.delete();
});

describe("the sync worker's account actions", () => {
  it("signing in stores the user for the views and the token apart from it", async () => {
    reply("POST /api/v1/user/login", { status: 200, body: { ...user, api_token: "tok-123" } });
    const result = await actions.login("ana@example.com", "secret123");
    expect(result.ok).toBe(true);
    const stored = await db.currentUser();
    expect(stored?.email).toBe("ana@example.com");
    expect(stored).not.toHaveProperty("api_token");
    expect((await db.auth.get("token"))?.token).toBe("tok-123");
  });

  it("clears the stored sign-in before each attempt, so a failed attempt leaves nobody signed in", async () => {
    await db.users.put({ ...user, key: "me" } as never);
    await db.auth.put({ key: "token", token: "old" });
    reply("POST /api/v1/user/login", { status: 422, body: { message: "Invalid e-mail address or password", code: "invalid_credentials" } });
    const result = await actions.login("ana@example.com", "wrong");
    expect(result).toEqual({
      ok: false,
      failure: { kind: "body", status: 422, body: { message: "Invalid e-mail address or password", code: "invalid_credentials" } },
    });
    expect(await db.currentUser()).toBeNull();
    expect(await db.auth.get("token")).toBeUndefined();
  });

  it("sends the bearer token and removes the stored user when the server answers 401", async () => {
    await db.users.put({ ...user, key: "me" } as never);
    await db.auth.put({ key: "token", token: "revoked" });
    reply("GET /api/v1/user", { status: 401, body: { message: "Please authenticate", code: "unauthenticated" } });
    const result = await actions.refreshUser();
    expect(result).toEqual({ ok: false, failure: { kind: "signed_out" } });
    expect(requests[0]?.headers.authorization).toBe("Bearer revoked");
    expect(await db.currentUser()).toBeNull();
  });

  it("keeps the stored user when the network is down", async () => {
    await db.users.put({ ...user, key: "me" } as never);
    await db.auth.put({ key: "token", token: "t" });
    const result = await actions.refreshUser();
    expect(result).toEqual({ ok: false, failure: { kind: "network" } });
    expect((await db.currentUser())?.id).toBe(7);
  });

  it("logout clears the stored user even when the server cannot be reached", async () => {
    await db.users.put({ ...user, key: "me" } as never);
    await db.auth.put({ key: "token", token: "t" });
    await actions.logout();
    expect(await db.currentUser()).toBeNull();
    expect(await db.auth.get("token")).toBeUndefined();
  });

  it("changes the language in the mirror at once and saves it on the server", async () => {
    await db.users.put({ ...user, key: "me" } as never);
    await db.auth.put({ key: "token", token: "t" });
    reply("POST /api/v1/user/locale/de", { status: 200, body: { ...user, locale: "de" } });
    const pending = actions.setLocale("de");
    await pending;
    expect((await db.currentUser())?.locale).toBe("de");
    expect(requests.map((r) => `${r.method} ${r.url}`)).toContain("POST /api/v1/user/locale/de");
    expect(requests[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("builds the new-AI-version link from a one-time code, never from the api token", async () => {
    await db.auth.put({ key: "token", token: "long-lived-secret" });
    await db.meta.put({
      key: "config",
      value: {
        captcha: { provider: "off", recaptchaSiteKey: null },
        links: { newAiApp: "https://ai.example/", pricing: "", help: "", contact: "", terms: "", forgotPassword: "", aiProduct: "", tipsVideo: "" },
        sunsetRedirectUrl: null,
        betaHost: false,
      } as never,
    });
    reply("POST /api/v1/user/handoff", { status: 200, body: { code: "one-time", expires_at: "2026-11-21T00:00:00.000Z" } });
    const result = await actions.newAiVersionLink();
    expect(result).toEqual({ ok: true, data: "https://ai.example/?token=one-time" });
    expect(JSON.stringify(result)).not.toContain("long-lived-secret");
  });

  it("refuses a success answer that does not match the contract", async () => {
    await db.auth.put({ key: "token", token: "t" });
    reply("GET /api/v1/user", { status: 200, body: { id: "not-a-number" } });
    expect(await actions.refreshUser()).toEqual({ ok: false, failure: { kind: "internal" } });
  });
});
