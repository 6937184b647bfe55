import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CutroomDb } from "../../src/db";
import { createAccountActions } from "../../workers/account";
import { createApiClient } from "../../workers/api-client";
import type { User } from "../../api/user";
import { testUser } from "./user-fixture";

/** Issue 16: the worker's account actions mirror what the server says and forget a session that ended. */
const user: User = testUser({ name: "Marta Lopes", first_name: "Marta", last_name: "Lopes" });

let replies: Map<string, { status: number; body: unknown }>;
let db: CutroomDb;
let actions: ReturnType<typeof createAccountActions>;

beforeEach(async () => {
  replies = new Map();
  db = new CutroomDb(`account-${Math.random()}`);
  await db.auth.put({ key: "token", token: "t0k3n" });
  await db.users.put({ ...user, first_name: "Ana", last_name: "Silva", name: "Ana Silva", key: "me" });
  const fetchImpl = vi.fn(async (url: string, init: RequestInit = {}) => {
    const reply = replies.get(`${init.method ?? "GET"} ${url}`);
    if (!reply) throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { "content-type": "application/json" } });
  });
  const call = createApiClient({ getToken: async () => (await db.auth.get("token"))?.token, onSignedOut: () => db.signOutLocally(), fetchImpl: fetchImpl as unknown as typeof fetch });
  actions = createAccountActions(db, call);
});
afterEach(() => db.delete());

describe("account actions", () => {
  it("stores the renamed user the server answers", async () => {
    replies.set("PUT /api/v1/user/rename", { status: 200, body: user });
    expect((await actions.renameUser("Marta", "Lopes")).ok).toBe(true);
    expect((await db.users.get("me"))?.name).toBe("Marta Lopes");
  });

  it("mirrors a pending e-mail change, and its cancellation", async () => {
    replies.set("POST /api/v1/user/email", { status: 200, body: { email: "new@example.com", expires_at: "2026-11-02T10:00:00.000Z" } });
    await actions.requestEmailChange("new@example.com", "secret123");
    expect((await db.meta.get("pendingEmail"))?.value).toEqual({ email: "new@example.com", expires_at: "2026-11-02T10:00:00.000Z" });
    replies.set("DELETE /api/v1/user/email/pending", { status: 200, body: { email: null, expires_at: null } });
    await actions.cancelEmailChange();
    expect((await db.meta.get("pendingEmail"))?.value).toEqual({ email: null, expires_at: null });
  });

  it("keeps everything when the password is wrong, forgets the session once the account is deleted", async () => {
    replies.set("POST /api/v1/user/delete", { status: 422, body: { message: "This is not your current password", code: "validation_failed", fields: { password: "password_wrong" } } });
    const refused = await actions.deleteAccount("nope");
    expect(refused.ok).toBe(false);
    expect(await db.users.get("me")).toBeTruthy();
    replies.set("POST /api/v1/user/delete", { status: 200, body: { msg: "account deleted" } });
    expect((await actions.deleteAccount("secret123")).ok).toBe(true);
    expect(await db.users.get("me")).toBeUndefined();
    expect(await db.auth.get("token")).toBeUndefined();
  });

  it("forgets this device's session after a password reset (the reset revoked it)", async () => {
    replies.set("POST /api/v1/user/password/reset", { status: 200, body: { msg: "password reset" } });
    expect((await actions.resetPassword({ token: "abc", password: "new-pass-1", password_confirmation: "new-pass-1" })).ok).toBe(true);
    expect(await db.auth.get("token")).toBeUndefined();
  });
});
