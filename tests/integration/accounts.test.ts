import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../server/db/tokens";
import { bearer, startTestServer, type TestServer } from "./helpers";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const inject = (options: InjectOptions) => server.app.inject(options);
const linkPath = (link: string) => new URL(link).pathname + new URL(link).search;

describe("an account from registration to sign-out", () => {
  it("registers, verifies by the emailed link, signs in, reads itself and signs out", async () => {
    const res = await server.register({ email: "Flow@Example.com", referral: "friend42", clickid: "click-9", locale: "pt-BR" });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ email: "flow@example.com", name: "Ana Silva", locale: "pt-BR" });
    expect(typeof created.id).toBe("number");

    const stored = await server.db.selectFrom("users").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(stored.referral).toBe("friend42");
    expect(stored.clickid).toBe("click-9");
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.plan_id).toBe("free");

    const mail = server.mails.find((m) => m.to === "flow@example.com")!;
    expect(mail.links).toHaveLength(1);

    // Signed in but unverified: /user says so.
    const early = await inject({ method: "POST", url: "/api/v1/user/login", payload: { email: "flow@example.com", password: "secret123" } });
    expect(early.statusCode).toBe(200);
    expect(early.json().email_verified_at).toBeNull();

    const visit = await inject({ method: "GET", url: linkPath(mail.links![0]!) });
    expect(visit.statusCode).toBe(303);
    expect(visit.headers.location).toBe("/verify-email?status=verified");

    const login = await inject({ method: "POST", url: "/api/v1/user/login", payload: { email: "FLOW@example.com", password: "secret123" } });
    expect(login.statusCode).toBe(200);
    const { api_token: token, ...user } = login.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(user.email_verified_at).not.toBeNull();
    expect(user).toMatchObject({ video_tier: 0, max_storage: 5 * 1024 ** 3, plan: { id: "free", nickname: "Free" } });

    const me = await inject({ method: "GET", url: "/api/v1/user", headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(created.id);

    const out = await inject({ method: "POST", url: "/api/v1/user/logout", headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    const after = await inject({ method: "GET", url: "/api/v1/user", headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: "Please authenticate", code: "unauthenticated" });
  });

  it("keeps only a hash of each api token", async () => {
    const { token } = await server.signUp();
    const rows = await server.db.selectFrom("api_tokens").select("token_hash").execute();
    expect(rows.some((r) => r.token_hash === sha256(token))).toBe(true);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });

  it("refuses a missing, malformed or unknown token with 401", async () => {
    for (const headers of [{}, { authorization: "Basic abc" }, { authorization: "Bearer not-a-token" }]) {
      const res = await inject({ method: "GET", url: "/api/v1/user/quotas", headers });
      expect(res.statusCode).toBe(401);
    }
  });

  it("writes the verification email in the user's language", async () => {
    await server.register({ email: "de@example.com", locale: "de" });
    const mail = server.mails.find((m) => m.to === "de@example.com")!;
    expect(mail.subject).not.toBe("Confirm your email for Cutroom");
    expect(mail.text).toContain(mail.links![0]);
  });
});

describe("registration refuses bad input with a field error (SPEC §5)", () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ["no first name", { first_name: "" }, "first_name", "required"],
    ["a 128-character last name", { last_name: "x".repeat(128) }, "last_name", "too_long"],
    ["no email", { email: "" }, "email", "required"],
    ["an invalid email", { email: "nobody" }, "email", "email_invalid"],
    ["a 7-character password", { password: "1234567", password_confirmation: "1234567" }, "password", "password_short"],
    ["a different confirmation", { password_confirmation: "secret999" }, "password_confirmation", "passwords_different"],
    ["terms not accepted", { terms: false }, "terms", "terms_required"],
    ["an unknown language", { locale: "xx" }, "locale", "invalid"],
  ];
  it.each(cases)("%s", async (_name, overrides, field, code) => {
    const res = await server.register(overrides);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: "validation_failed", fields: { [field]: code } });
  });

  it("an email that is already registered", async () => {
    await server.register({ email: "taken@example.com" });
    const again = await server.register({ email: "TAKEN@example.com" });
    expect(again.statusCode).toBe(422);
    expect(again.json().fields).toEqual({ email: "email_taken" });
  });

  it("a missing or wrong captcha, and a captcha solution used twice", async () => {
    expect((await server.register({ "g-recaptcha-response": "" })).json().code).toBe("captcha_failed");
    expect((await server.register({ "g-recaptcha-response": "bm90IGpzb24=" })).json().code).toBe("captcha_failed");
    const payload = await server.captchaPayload();
    expect((await server.register({ "g-recaptcha-response": payload })).statusCode).toBe(201);
    const replay = await server.register({ "g-recaptcha-response": payload });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().code).toBe("captcha_failed");
  });

  it("malformed JSON is a 400 with the error body, not a 500", async () => {
    const res = await inject({ method: "POST", url: "/api/v1/register", headers: { "content-type": "application/json" }, payload: "{oops" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "Bad request", code: "bad_request" });
  });

  it("a body that is not an object is refused without a stack trace", async () => {
    const res = await inject({ method: "POST", url: "/api/v1/user/login", headers: { "content-type": "application/json" }, payload: "[1,2]" });
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe("sign-in", () => {
  it("answers the same refusal for a wrong password and an unknown email", async () => {
    const { email } = await server.signUp();
    const wrong = await inject({ method: "POST", url: "/api/v1/user/login", payload: { email, password: "wrongpass" } });
    const unknown = await inject({ method: "POST", url: "/api/v1/user/login", payload: { email: "ghost@example.com", password: "wrongpass" } });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: "Invalid e-mail address or password", code: "invalid_credentials" });
    }
  });

  it("is rate limited per address and client", async () => {
    const limited = await startTestServer({ RATE_LIMIT_LOGIN: "3" });
    try {
      const attempt = () => limited.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email: "x@example.com", password: "whatever1" } });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await attempt()).statusCode);
      expect(statuses).toEqual([422, 422, 422, 429]);
      const res = await attempt();
      expect(res.json()).toMatchObject({ code: "rate_limited" });
    } finally {
      await limited.close();
    }
  });

  it("is limited per client and address: one address tried too often does not lock the others out (issue 12)", async () => {
    const limited = await startTestServer({ RATE_LIMIT_LOGIN: "10" });
    try {
      const { email: alice } = await limited.signUp("alice@x.example");
      const login = (email: string, password: string, remoteAddress = "203.0.113.7") =>
        limited.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email, password }, remoteAddress });
      const statuses = [];
      for (let i = 0; i < 10; i++) statuses.push((await login("victim@x.example", `guess-${i}`)).statusCode);
      expect(statuses).toEqual(Array(10).fill(422));
      const refused = await login("victim@x.example", "guess-10");
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: "Too many attempts. Wait a minute and try again.", code: "rate_limited" });
      // The same client signs in to another account; the victim's address from another client is not locked either.
      const ok = await login(alice, "secret123");
      expect(ok.statusCode).toBe(200);
      expect(typeof ok.json().api_token).toBe("string");
      expect((await login("victim@x.example", "guess-11", "198.51.100.9")).statusCode).toBe(422);
    } finally {
      await limited.close();
    }
  });

  it("keeps a per-client ceiling over every address it tries", async () => {
    const limited = await startTestServer({ RATE_LIMIT_LOGIN: "3", RATE_LIMIT_LOGIN_IP: "5" });
    try {
      const login = (email: string, remoteAddress = "203.0.113.8") =>
        limited.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email, password: "whatever1" }, remoteAddress });
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await login(`spray${i}@x.example`)).statusCode);
      expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
      const refused = await login("spray-new@x.example");
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: "Too many attempts. Wait a minute and try again.", code: "rate_limited" });
      // Another client is not affected.
      expect((await login("spray0@x.example", "198.51.100.10")).statusCode).toBe(422);
    } finally {
      await limited.close();
    }
  });

  it("registration and resend are rate limited too", async () => {
    const limited = await startTestServer({ RATE_LIMIT_REGISTER: "2", RATE_LIMIT_RESEND: "1" });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.register()).statusCode);
      expect(statuses).toEqual([201, 201, 429]);
      const login = await limited.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email: limited.mails[0]!.to, password: "secret123" } });
      const resend = () => limited.app.inject({ method: "GET", url: "/api/v1/user/email/resend", headers: bearer(login.json().api_token) });
      expect((await resend()).statusCode).toBe(200);
      expect((await resend()).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe("email verification", () => {
  it("a tampered link does not verify", async () => {
    const { json } = await server.register({ email: "tamper@example.com" });
    const link = server.mails.find((m) => m.to === "tamper@example.com")!.links![0]!;
    const tampered = linkPath(link).replace(/signature=[^&]+/, "signature=AAAA");
    const res = await inject({ method: "GET", url: tampered });
    expect(res.headers.location).toBe("/verify-email?status=invalid");
    const other = linkPath(link).replace(`/verify/${json().id}`, `/verify/${json().id + 1000}`);
    expect((await inject({ method: "GET", url: other })).headers.location).toBe("/verify-email?status=invalid");
  });

  it("an expired link says so", async () => {
    await server.register({ email: "late@example.com" });
    const link = server.mails.find((m) => m.to === "late@example.com")!.links![0]!;
    const url = new URL(link);
    const id = Number(url.pathname.split("/").at(-1));
    const expires = Math.floor(Date.now() / 1000) - 10;
    const { sign } = await import("../../server/services/signed-links");
    const secret = (await server.db.selectFrom("settings").select("value").where("key", "=", "app_secret").executeTakeFirstOrThrow()).value;
    const signature = sign(secret, `${id}|late@example.com|${expires}`);
    const res = await inject({ method: "GET", url: `${url.pathname}?expires=${expires}&signature=${signature}` });
    expect(res.headers.location).toBe("/verify-email?status=expired");
  });

  it("resend sends a new link and answers 'check mailbox'", async () => {
    const res = await server.register({ email: "again@example.com" });
    expect(res.statusCode).toBe(201);
    const login = await inject({ method: "POST", url: "/api/v1/user/login", payload: { email: "again@example.com", password: "secret123" } });
    const before = server.mails.filter((m) => m.to === "again@example.com").length;
    const resend = await inject({ method: "GET", url: "/api/v1/user/email/resend", headers: bearer(login.json().api_token) });
    expect(resend.json()).toEqual({ msg: "check mailbox" });
    expect(server.mails.filter((m) => m.to === "again@example.com").length).toBe(before + 1);
  });

  it("resend is refused once the email is verified", async () => {
    const { token } = await server.signUp();
    const resend = await inject({ method: "GET", url: "/api/v1/user/email/resend", headers: bearer(token) });
    expect(resend.statusCode).toBe(409);
    expect(resend.json().code).toBe("already_verified");
  });
});

describe("the signed-in user's settings", () => {
  it("saves the language, the name and the render notifications", async () => {
    const { token } = await server.signUp();
    const de = await inject({ method: "POST", url: "/api/v1/user/locale/de", headers: bearer(token) });
    expect(de.json().locale).toBe("de");
    expect((await inject({ method: "POST", url: "/api/v1/user/locale/xx", headers: bearer(token) })).statusCode).toBe(400);

    const renamed = await inject({ method: "PUT", url: "/api/v1/user/rename", headers: bearer(token), payload: { first_name: "Bia", last_name: "Souza" } });
    expect(renamed.json()).toMatchObject({ first_name: "Bia", last_name: "Souza", name: "Bia Souza" });

    const off = await inject({ method: "POST", url: "/api/v1/user/settings/notifications/render/0", headers: bearer(token) });
    expect(off.json().render_notifications).toBe(0);
    expect((await inject({ method: "POST", url: "/api/v1/user/settings/notifications/render/2", headers: bearer(token) })).statusCode).toBe(400);

    const profile = await inject({ method: "POST", url: "/api/v1/user", headers: bearer(token), payload: { render_notifications: true } });
    expect(profile.json().render_notifications).toBe(1);
  });

  it("answers the plan's limits and what is left", async () => {
    const { token } = await server.signUp();
    const limits = await inject({ method: "GET", url: "/api/v1/user/limits", headers: bearer(token) });
    expect(limits.json()).toMatchObject({ plan: { id: "free" }, video_tier: 0, storage_gb: 5 });
    const quotas = await inject({ method: "GET", url: "/api/v1/user/quotas", headers: bearer(token) });
    expect(quotas.json()).toEqual({ uploadMaxSizeBytes: 1024 ** 3, uploadMaxLengthMinutes: 10, processingMinutes: 30, storageBytes: 5 * 1024 ** 3 });
  });
});

describe("the new-AI-version link", () => {
  it("carries a short-lived, single-use code instead of the api token", async () => {
    const { token } = await server.signUp();
    const issued = await inject({ method: "POST", url: "/api/v1/user/handoff", headers: bearer(token) });
    const { code, expires_at } = issued.json();
    expect(code).not.toBe(token);
    expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(2 * 60_000);
    const stored = await server.db.selectFrom("handoff_codes").select("code_hash").execute();
    expect(stored.some((r) => r.code_hash === code)).toBe(false);

    const first = await inject({ method: "POST", url: "/api/v1/handoff/exchange", payload: { code } });
    expect(first.statusCode).toBe(200);
    expect(first.json().api_token).not.toBe(token);
    const second = await inject({ method: "POST", url: "/api/v1/handoff/exchange", payload: { code } });
    expect(second.statusCode).toBe(422);
    expect(second.json().code).toBe("code_invalid");
  });
});

describe("the API itself", () => {
  it("serves plans per SPEC §3 with Free for new accounts", async () => {
    const year = (await inject({ method: "GET", url: "/api/v1/payment/plans?interval=year" })).json();
    const month = (await inject({ method: "GET", url: "/api/v1/payment/plans?interval=month" })).json();
    const names = [...year, ...month].map((p: { nickname: string }) => p.nickname.split(" - ")[0]);
    for (const name of ["Free", "Basic", "Starter", "Standard", "Professional"]) expect(names).toContain(name);
    // The Brazil Professional variant ships unoffered: kept for users on it, listed only when an operator offers it.
    expect(names).not.toContain("Professional BR");
    const br = await server.db.selectFrom("plans").select(["id", "active"]).where("id", "like", "professional_br_%").execute();
    expect(br).toEqual(expect.arrayContaining([{ id: "professional_br_month", active: 0 }, { id: "professional_br_year", active: 0 }]));
    const free = (await inject({ method: "GET", url: "/api/v1/payment/freeplan" })).json();
    expect(free).toMatchObject({ id: "free", amount: 0 });
    const ltd = await server.db.selectFrom("plans").select("id").where("id", "like", "ltd_tier%").execute();
    expect(ltd.map((p) => p.id).sort()).toEqual(["ltd_tier1", "ltd_tier2", "ltd_tier3"]);
  });

  it("publishes OpenAPI at /api/docs", async () => {
    const doc = (await inject({ method: "GET", url: "/api/docs/json" })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/register", "/user/login", "/user/quotas"]));
  });

  it("sends security headers", async () => {
    const res = await inject({ method: "GET", url: "/api/v1/config" });
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("answers an unknown API path with the JSON error body", async () => {
    const res = await inject({ method: "GET", url: "/api/v1/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "not_found" });
  });
});
