import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashState, pkcePair, youtubeSealer } from "../../server/services/youtube/cipher";
import { GoogleError, googleClient } from "../../server/services/youtube/google";

const endpoints = {
  clientId: "client.apps.googleusercontent.com",
  clientSecret: "client-secret-value",
  authUrl: "https://accounts.example/o/oauth2/v2/auth",
  tokenUrl: "https://oauth.example/token",
  revokeUrl: "https://oauth.example/revoke",
  apiBase: "https://api.example",
};

/** A fetch that answers one canned response and keeps what it was asked. */
function cannedFetch(status: number, body: unknown, headers: Record<string, string> = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body), { status, headers });
  }) as unknown as typeof fetch;
  return { fetchImpl, calls };
}

describe("sealing YouTube tokens at rest (AES-256-GCM)", () => {
  it("opens what it sealed, never the same text twice, and refuses an altered value or another key", () => {
    const sealer = youtubeSealer("a-secret-of-at-least-thirty-two-characters");
    const a = sealer.seal("refresh-token-1");
    expect(a).not.toContain("refresh-token-1");
    expect(sealer.seal("refresh-token-1")).not.toBe(a);
    expect(sealer.open(a)).toBe("refresh-token-1");
    const [v, iv, tag, body] = a.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0]! ^= 1;
    expect(() => sealer.open([v, iv, tag, flipped.toString("base64url")].join("."))).toThrow();
    expect(() => youtubeSealer("another-secret-of-at-least-thirty-two-chars").open(a)).toThrow();
  });

  it("makes RFC 7636 S256 pairs and keeps states only as hashes", () => {
    const { verifier, challenge } = pkcePair();
    expect(verifier).toMatch(/^[\w-]{43}$/);
    expect(challenge).toBe(createHash("sha256").update(verifier).digest("base64url"));
    expect(hashState("state")).not.toContain("state");
  });
});

describe("the Google adapter", () => {
  it("asks for offline access with PKCE S256 and the upload scope; the client secret stays out of the URL", () => {
    const url = new URL(googleClient(endpoints).authorizationUrl({ redirectUri: "https://cutroom.example/api/v1/user/youtube/callback", state: "st", challenge: "ch" }));
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: endpoints.clientId,
      response_type: "code",
      access_type: "offline",
      code_challenge: "ch",
      code_challenge_method: "S256",
      state: "st",
    });
    expect(url.searchParams.get("scope")).toContain("https://www.googleapis.com/auth/youtube.upload");
    expect(url.toString()).not.toContain(endpoints.clientSecret);
  });

  it("reads YouTube's quota refusal and OAuth's invalid_grant from their error JSON", async () => {
    const quota = cannedFetch(403, { error: { code: 403, message: "quota", errors: [{ reason: "quotaExceeded", domain: "youtube.quota" }] } });
    const error = await googleClient(endpoints, quota.fetchImpl).startUpload("at", { title: "t", description: "d", privacy: "private" }, 10).catch((e) => e);
    expect(error).toBeInstanceOf(GoogleError);
    expect(error.isQuota).toBe(true);
    expect(error.isRateLimit).toBe(false);
    const busy = cannedFetch(403, { error: { code: 403, message: "slow down", errors: [{ reason: "rateLimitExceeded" }] } });
    const later = await googleClient(endpoints, busy.fetchImpl).startUpload("at", { title: "t", description: "d", privacy: "private" }, 10).catch((e) => e);
    expect([later.isQuota, later.isRateLimit]).toEqual([false, true]);
    const grant = cannedFetch(400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
    const refused = await googleClient(endpoints, grant.fetchImpl).refresh("rt").catch((e) => e);
    expect(refused.isInvalidGrant).toBe(true);
    // The refresh token travels in the form body, with the client's credentials, never in the URL.
    expect(grant.calls[0]!.url).toBe(endpoints.tokenUrl);
    expect(String(grant.calls[0]!.init.body)).toContain("grant_type=refresh_token");
  });

  it("reads 308 Resume Incomplete's Range as the bytes YouTube holds, and a finished upload's video id", async () => {
    const partial = cannedFetch(308, undefined, { range: "bytes=0-262143" });
    expect(await googleClient(endpoints, partial.fetchImpl).uploadStatus("https://api.example/s", "at", 600_000)).toEqual({ done: false, received: 262_144 });
    expect(new Headers(partial.calls[0]!.init.headers).get("content-range")).toBe("bytes */600000");
    const none = cannedFetch(308, undefined);
    expect(await googleClient(endpoints, none.fetchImpl).uploadStatus("https://api.example/s", "at", 600_000)).toEqual({ done: false, received: 0 });
    const done = cannedFetch(201, { kind: "youtube#video", id: "dQw4w9WgXcQ" });
    const chunk = new Uint8Array(10);
    expect(await googleClient(endpoints, done.fetchImpl).putChunk("https://api.example/s", "at", chunk, 599_990, 600_000)).toEqual({ done: true, videoId: "dQw4w9WgXcQ" });
    expect(new Headers(done.calls[0]!.init.headers).get("content-range")).toBe("bytes 599990-599999/600000");
  });
});
