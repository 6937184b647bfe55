/**
 * Issue 16, the support-chat and referral hashes (SPEC §3 User, §7): tawk.to's secure mode is
 * HMAC-SHA256 of the visitor's e-mail keyed with the property's API key (hex); the referral hash is
 * HMAC-SHA256 of the user's id keyed with IMPACT_SECRET. Both are absent (404) when not configured.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, startTestServer, type TestServer } from "./helpers";

const TAWKTO_SECRET = "tawk-property-api-key-0123456789abcdef";
const IMPACT_SECRET = "impact-secret-fedcba9876543210";

let configured: TestServer;
let plain: TestServer;

const get = async (on: TestServer, token: string, url: string) => {
  const res = await on.app.inject({ method: "GET", url: `/api/v1${url}`, headers: bearer(token) });
  return { status: res.statusCode, body: res.json(), text: res.body };
};

beforeAll(async () => {
  configured = await startTestServer({ TAWKTO_SECRET, IMPACT_SECRET }, { startRunner: false });
  plain = await startTestServer({}, { startRunner: false });
}, 60_000);
afterAll(async () => {
  await configured?.close();
  await plain?.close();
});

describe("support-chat and referral hashes", () => {
  it("answers HMAC-SHA256 of the user's e-mail (tawk.to) and of the user's id (referral), keyed with the operator's secrets", async () => {
    const { token, email } = await configured.signUp();
    const me = (await get(configured, token, "/user")).body;
    const tawk = await get(configured, token, "/user/tawkto/hash");
    expect(tawk.status).toBe(200);
    expect(tawk.body).toEqual({ hash: createHmac("sha256", TAWKTO_SECRET).update(email).digest("hex") });
    const impact = await get(configured, token, "/user/impact/hash");
    expect(impact.status).toBe(200);
    expect(impact.body).toEqual({ hash: createHmac("sha256", IMPACT_SECRET).update(String(me.id)).digest("hex") });
    // Never the secret itself.
    expect(tawk.text + impact.text).not.toContain(TAWKTO_SECRET);
    expect(tawk.text + impact.text).not.toContain(IMPACT_SECRET);
  });

  it("gives each user their own hash", async () => {
    const a = await configured.signUp();
    const b = await configured.signUp();
    const ha = (await get(configured, a.token, "/user/tawkto/hash")).body.hash;
    const hb = (await get(configured, b.token, "/user/tawkto/hash")).body.hash;
    expect(ha).not.toBe(hb);
    expect(hb).toBe(createHmac("sha256", TAWKTO_SECRET).update(b.email).digest("hex"));
  });

  it("is absent (404) when the operator set no secret", async () => {
    const { token } = await plain.signUp();
    for (const url of ["/user/tawkto/hash", "/user/impact/hash"]) {
      const res = await get(plain, token, url);
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
  });

  it("refuses anonymous calls", async () => {
    for (const url of ["/user/tawkto/hash", "/user/impact/hash"]) {
      const res = await configured.app.inject({ method: "GET", url: `/api/v1${url}` });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
