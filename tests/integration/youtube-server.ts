import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Google that speaks the same protocols as the real thing, for tests: OAuth 2
 * (authorization code with PKCE S256, refresh_token grant, expiring access tokens, RFC 7009 revoke),
 * channels.list mine=true, and the YouTube Data API v3 resumable upload (session address in Location,
 * `Content-Range` chunks of 256 KiB multiples, 308 with `Range`, `bytes *\/SIZE` status queries).
 * It can be told to cut a connection mid-upload, to expire access tokens early, and to refuse an upload
 * with YouTube's quotaExceeded error JSON.
 */

export interface UploadedVideo {
  id: string;
  bytes: Buffer;
  snippet: { title: string; description: string };
  status: { privacyStatus: string };
}

interface Session {
  total: number;
  parts: Buffer[];
  received: number;
  metadata: { snippet: { title: string; description: string }; status: { privacyStatus: string } };
  videoId?: string;
}

const CHUNK_MULTIPLE = 256 * 1024;

const apiError = (code: number, reason: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message, errors: [{ message, domain: reason === "quotaExceeded" ? "youtube.quota" : "global", reason }], ...extra },
});

export interface FakeYoutubeOptions {
  clientId?: string;
  clientSecret?: string;
  channel?: string;
  /** Lifetime of access tokens in seconds (Google: 3599). */
  accessTokenSeconds?: number;
}

export async function startFakeYoutube(options: FakeYoutubeOptions = {}, port = 0) {
  const clientId = options.clientId ?? "cutroom-test.apps.googleusercontent.com";
  const clientSecret = options.clientSecret ?? "test-client-secret";
  const channel = options.channel ?? "Rui's channel";
  const pending = new Map<string, { redirectUri: string; state: string; challenge: string; scope: string }>();
  const codes = new Map<string, { redirectUri: string; challenge: string; used: boolean }>();
  const refreshTokens = new Map<string, { revoked: boolean }>();
  const accessTokens = new Map<string, { refresh: string; expiresAt: number; revoked: boolean }>();
  const sessions = new Map<string, Session>();
  const videos = new Map<string, UploadedVideo>();
  const log = {
    grants: [] as string[],
    revoked: [] as string[],
    statusQueries: 0,
    chunks: [] as { start: number; end: number; total: number }[],
    cuts: 0,
    unauthorized: 0,
  };
  let cutAfter: number | null = null;
  let failNextUpload: string | null = null;
  let chunkDelayMs = 0;
  let base = "";

  const issueAccess = (refresh: string) => {
    const token = `ya29.${randomBytes(24).toString("base64url")}`;
    accessTokens.set(token, { refresh, expiresAt: Date.now() + (options.accessTokenSeconds ?? 3599) * 1000, revoked: false });
    return token;
  };

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers });
    res.end(JSON.stringify(body));
  };

  /** Valid bearer access token, or a 401 in Google's error format. */
  const authorized = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const entry = token ? accessTokens.get(token) : undefined;
    if (entry && !entry.revoked && entry.expiresAt > Date.now() && !refreshTokens.get(entry.refresh)?.revoked) return true;
    log.unauthorized += 1;
    json(res, 401, apiError(401, "authError", "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.", { status: "UNAUTHENTICATED" }));
    return false;
  };

  const readBody = (req: http.IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const parts: Buffer[] = [];
      req.on("data", (c: Buffer) => parts.push(c));
      req.on("end", () => resolve(Buffer.concat(parts)));
      req.on("error", reject);
    });

  const sessionState = (res: http.ServerResponse, session: Session) => {
    if (session.videoId) return json(res, 200, videoResource(videos.get(session.videoId)!));
    res.writeHead(308, session.received > 0 ? { range: `bytes=0-${session.received - 1}` } : {});
    res.end();
  };

  const videoResource = (video: UploadedVideo) => ({ kind: "youtube#video", id: video.id, snippet: video.snippet, status: { ...video.status, uploadStatus: "uploaded" } });

  const finishIfWhole = (session: Session) => {
    if (session.received !== session.total || session.videoId) return;
    const id = randomBytes(8).toString("base64url").slice(0, 11);
    videos.set(id, { id, bytes: Buffer.concat(session.parts), snippet: session.metadata.snippet, status: session.metadata.status });
    session.videoId = id;
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", base);

    if (req.method === "GET" && url.pathname === "/o/oauth2/v2/auth") {
      const q = url.searchParams;
      const problem =
        q.get("client_id") !== clientId ? "invalid_client"
        : q.get("response_type") !== "code" ? "unsupported_response_type"
        : q.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(q.get("code_challenge") ?? "") ? "invalid_request (PKCE S256 required)"
        : !q.get("redirect_uri") || !q.get("state") ? "invalid_request"
        : !(q.get("scope") ?? "").split(" ").includes("https://www.googleapis.com/auth/youtube.upload") ? "invalid_scope"
        : null;
      if (problem) {
        res.writeHead(400, { "content-type": "text/html" });
        return res.end(`<h1>Error 400: ${problem}</h1>`);
      }
      const id = randomBytes(12).toString("base64url");
      pending.set(id, { redirectUri: q.get("redirect_uri")!, state: q.get("state")!, challenge: q.get("code_challenge")!, scope: q.get("scope")! });
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(
        `<!doctype html><html lang="en"><head><title>Sign in - Google Accounts</title></head><body><main>` +
          `<h1>Cutroom wants to access your Google Account</h1><p>${channel}</p><p>Manage your YouTube videos</p>` +
          `<a href="/o/oauth2/v2/decide?request=${id}&decision=allow">Allow</a> <a href="/o/oauth2/v2/decide?request=${id}&decision=deny">Cancel</a>` +
          `</main></body></html>`,
      );
    }

    if (req.method === "GET" && url.pathname === "/o/oauth2/v2/decide") {
      const request = pending.get(url.searchParams.get("request") ?? "");
      if (!request) return json(res, 400, { error: "invalid_request" });
      pending.delete(url.searchParams.get("request")!);
      const back = new URL(request.redirectUri);
      back.searchParams.set("state", request.state);
      if (url.searchParams.get("decision") === "allow") {
        const code = `4/${randomBytes(24).toString("base64url")}`;
        codes.set(code, { redirectUri: request.redirectUri, challenge: request.challenge, used: false });
        back.searchParams.set("code", code);
        back.searchParams.set("scope", request.scope);
      } else {
        back.searchParams.set("error", "access_denied");
      }
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }

    if (req.method === "POST" && url.pathname === "/token") {
      const form = new URLSearchParams((await readBody(req)).toString("utf8"));
      if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret) return json(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
      const grant = form.get("grant_type");
      if (grant === "authorization_code") {
        const code = codes.get(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!code || code.used || code.redirectUri !== form.get("redirect_uri") || code.challenge !== challenge) {
          if (code) code.used = true;
          return json(res, 400, { error: "invalid_grant", error_description: "Bad Request" });
        }
        code.used = true;
        const refresh = `1//${randomBytes(32).toString("base64url")}`;
        refreshTokens.set(refresh, { revoked: false });
        log.grants.push("authorization_code");
        return json(res, 200, { access_token: issueAccess(refresh), expires_in: options.accessTokenSeconds ?? 3599, refresh_token: refresh, scope: "https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly", token_type: "Bearer" });
      }
      if (grant === "refresh_token") {
        const refresh = form.get("refresh_token") ?? "";
        if (refreshTokens.get(refresh)?.revoked !== false) return json(res, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
        log.grants.push("refresh_token");
        return json(res, 200, { access_token: issueAccess(refresh), expires_in: options.accessTokenSeconds ?? 3599, scope: "https://www.googleapis.com/auth/youtube.upload", token_type: "Bearer" });
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }

    if (req.method === "POST" && url.pathname === "/revoke") {
      const token = new URLSearchParams((await readBody(req)).toString("utf8")).get("token") ?? "";
      const refresh = refreshTokens.get(token);
      const access = accessTokens.get(token);
      if (!refresh && !access) return json(res, 400, { error: "invalid_token", error_description: "Token expired or revoked" });
      if (refresh) refresh.revoked = true;
      if (access) access.revoked = true;
      log.revoked.push(refresh ? "refresh_token" : "access_token");
      return json(res, 200, {});
    }

    if (req.method === "GET" && url.pathname === "/youtube/v3/channels") {
      if (!authorized(req, res)) return;
      return json(res, 200, { kind: "youtube#channelListResponse", items: [{ kind: "youtube#channel", id: "UCfake", snippet: { title: channel } }] });
    }

    if (url.pathname === "/upload/youtube/v3/videos" && req.method === "POST") {
      if (url.searchParams.get("uploadType") !== "resumable") return json(res, 400, apiError(400, "invalidParameter", "uploadType must be resumable here"));
      if (!authorized(req, res)) return;
      const metadata = JSON.parse((await readBody(req)).toString("utf8") || "{}") as Session["metadata"];
      if (failNextUpload) {
        const reason = failNextUpload;
        failNextUpload = null;
        return json(res, 403, apiError(403, reason, 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.'));
      }
      const total = Number(req.headers["x-upload-content-length"]);
      if (!metadata.snippet?.title || !metadata.status?.privacyStatus || !(total > 0)) return json(res, 400, apiError(400, "invalidMetadata", "The request metadata is invalid."));
      const id = randomBytes(16).toString("base64url");
      sessions.set(id, { total, parts: [], received: 0, metadata });
      res.writeHead(200, { location: `${base}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&upload_id=${id}`, "content-length": "0" });
      return res.end();
    }

    if (url.pathname === "/upload/youtube/v3/videos" && req.method === "PUT") {
      const id = url.searchParams.get("upload_id") ?? "";
      const session = sessions.get(id);
      if (!session) return json(res, 404, apiError(404, "notFound", "No such upload session"));
      if (req.headers.authorization && !authorized(req, res)) return;
      const range = req.headers["content-range"] ?? "";
      if (/^bytes \*\/\d+$/.test(range)) {
        log.statusQueries += 1;
        await readBody(req);
        return sessionState(res, session);
      }
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
      if (!m || Number(m[3]) !== session.total) return json(res, 400, apiError(400, "badContent", "Bad Content-Range"));
      const start = Number(m[1]);
      const end = Number(m[2]);
      if (start > session.received) return json(res, 400, apiError(400, "badContent", "Chunk starts past the bytes received"));
      if (end + 1 < session.total && (end - start + 1) % CHUNK_MULTIPLE !== 0) return json(res, 400, apiError(400, "badContent", "Chunks must be multiples of 256 KiB"));
      log.chunks.push({ start, end, total: session.total });
      if (chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
      // Bytes before `received` were already stored: they are skipped, the rest appended as they arrive.
      let position = start;
      let seenThisRequest = 0;
      const cut = cutAfter;
      await new Promise<void>((resolve) => {
        req.on("data", (chunk: Buffer) => {
          const fresh = chunk.subarray(Math.max(0, session.received - position));
          position += chunk.length;
          let keep = fresh;
          if (cut !== null && seenThisRequest + chunk.length >= cut) keep = fresh.subarray(0, Math.max(0, cut - seenThisRequest));
          seenThisRequest += chunk.length;
          if (keep.length) {
            session.parts.push(Buffer.from(keep));
            session.received += keep.length;
          }
          if (cut !== null && seenThisRequest >= cut) {
            cutAfter = null;
            log.cuts += 1;
            req.socket.destroy();
            resolve();
          }
        });
        req.on("end", () => resolve());
        req.on("close", () => resolve());
      });
      if (req.socket.destroyed) return;
      finishIfWhole(session);
      return sessionState(res, session);
    }

    json(res, 404, apiError(404, "notFound", "Not found"));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) json(res, 500, apiError(500, "backendError", String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    clientId,
    clientSecret,
    videos,
    log,
    /** The server settings that point Cutroom at this stand-in. */
    env: (): Record<string, string> => ({
      YOUTUBE_CLIENT_ID: clientId,
      YOUTUBE_CLIENT_SECRET: clientSecret,
      YOUTUBE_AUTH_URL: `${base}/o/oauth2/v2/auth`,
      YOUTUBE_TOKEN_URL: `${base}/token`,
      YOUTUBE_REVOKE_URL: `${base}/revoke`,
      YOUTUBE_API_BASE: base,
      YOUTUBE_CHUNK_BYTES: String(CHUNK_MULTIPLE),
    }),
    /** The next upload request's connection is cut after this many bytes of its body (what arrived is kept). */
    cutNextUploadAfter(bytes: number) {
      cutAfter = bytes;
    },
    /** Every access token issued so far stops working now (as if it had expired); refresh tokens still work. */
    expireAccessTokens() {
      for (const entry of accessTokens.values()) entry.expiresAt = 0;
    },
    /** The next upload session is refused with this reason (YouTube: quotaExceeded, uploadLimitExceeded). */
    failNextUpload(reason = "quotaExceeded") {
      failNextUpload = reason;
    },
    /** Each upload request waits this long before its bytes are read (a slow uplink). */
    slowUploads(ms: number) {
      chunkDelayMs = ms;
    },
    /** Whether a refresh token is still good (not revoked). */
    refreshTokenValid: (token: string) => refreshTokens.get(token)?.revoked === false,
    liveRefreshTokens: () => [...refreshTokens.entries()].filter(([, v]) => !v.revoked).map(([k]) => k),
    /** Every token and code handed out so far (for scans that look for them where they must not be). */
    issued: () => ({ refreshTokens: [...refreshTokens.keys()], accessTokens: [...accessTokens.keys()], codes: [...codes.keys()] }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeYoutube = Awaited<ReturnType<typeof startFakeYoutube>>;
