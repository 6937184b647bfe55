/**
 * The real adapter: Google's OAuth 2 (authorization code with PKCE, refresh, revoke) and the YouTube Data
 * API v3 resumable upload protocol, over plain fetch. Tests point the endpoints at a local server that
 * speaks the same protocol (tests/integration/youtube-server.ts).
 */

export interface GoogleEndpoints {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiBase: string;
}

export interface GoogleTokens {
  access_token: string;
  /** Only on the first exchange (access_type=offline, prompt=consent); a refresh keeps the old one. */
  refresh_token?: string;
  expires_in: number;
}

export interface VideoMetadata {
  title: string;
  description: string;
  privacy: "public" | "private" | "unlisted";
}

/** Where a resumable upload stands: finished with the video's id, or how many bytes YouTube holds. */
export type UploadState = { done: true; videoId: string } | { done: false; received: number };

/** A refusal from Google, with what its error JSON said (OAuth `error`, or the API's first `errors[].reason`). */
export class GoogleError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string | null,
    message: string,
  ) {
    super(message);
    this.name = "GoogleError";
  }
  /** The day's allowance is spent (403 quotaExceeded, dailyLimitExceeded, uploadLimitExceeded): only tomorrow helps. */
  get isQuota() {
    return !!this.reason && /^(quotaExceeded|dailyLimitExceeded|uploadLimitExceeded)$/.test(this.reason);
  }
  /** Too many requests for now (403 rateLimitExceeded, userRateLimitExceeded, or 429): worth trying again soon. */
  get isRateLimit() {
    return this.status === 429 || (!!this.reason && /rateLimitExceeded$/.test(this.reason));
  }
  /** The refresh token is no good any more (revoked by the user at Google, or expired). */
  get isInvalidGrant() {
    return this.reason === "invalid_grant";
  }
}

/** Upload and read-only channel access: the least a video export needs. */
export const YOUTUBE_SCOPES = ["https://www.googleapis.com/auth/youtube.upload", "https://www.googleapis.com/auth/youtube.readonly"];
const REQUEST_TIMEOUT_MS = 30_000;
/** A chunk may take a while on a slow uplink; the job's signal still stops it at once. */
const CHUNK_TIMEOUT_MS = 10 * 60_000;

const timeout = (ms: number, signal?: AbortSignal) => (signal ? AbortSignal.any([signal, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms));

async function googleError(response: Response): Promise<GoogleError> {
  const text = await response.text().catch(() => "");
  let reason: string | null = null;
  let message = `Google answered ${response.status}`;
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: string };
    if (typeof body.error === "string") {
      reason = body.error;
      message = body.error_description ?? body.error;
    } else if (body.error && typeof body.error === "object") {
      const error = body.error as { message?: string; status?: string; errors?: { reason?: string }[] };
      reason = error.errors?.[0]?.reason ?? error.status ?? null;
      message = error.message ?? message;
    }
  } catch {
    // not JSON: keep the status
  }
  return new GoogleError(response.status, reason, message);
}

/** 308 Resume Incomplete: `Range: bytes=0-N` says YouTube holds N + 1 bytes; no Range header means none. */
function receivedFrom(response: Response): number {
  const range = response.headers.get("range");
  const match = range && /bytes=0-(\d+)/.exec(range);
  return match ? Number(match[1]) + 1 : 0;
}

export function googleClient(endpoints: GoogleEndpoints, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  async function tokenRequest(form: Record<string, string>): Promise<GoogleTokens> {
    const response = await fetchImpl(endpoints.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ client_id: endpoints.clientId, client_secret: endpoints.clientSecret, ...form }),
      signal: timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) throw await googleError(response);
    const body = (await response.json()) as Partial<GoogleTokens>;
    if (typeof body.access_token !== "string") throw new GoogleError(502, null, "token answer without an access token");
    return { access_token: body.access_token, refresh_token: body.refresh_token, expires_in: Number(body.expires_in ?? 3600) };
  }

  function uploadResult(body: unknown): UploadState {
    const id = (body as { id?: unknown } | null)?.id;
    if (typeof id !== "string" || !id) throw new GoogleError(502, null, "upload finished without a video id");
    return { done: true, videoId: id };
  }

  /** A PUT to the session: 200/201 = finished, 308 = more to send, 404/410 = the session is gone. */
  async function sessionPut(session: string, accessToken: string, contentRange: string, body: Uint8Array | undefined, signal?: AbortSignal): Promise<UploadState> {
    const response = await fetchImpl(session, {
      method: "PUT",
      headers: { authorization: `Bearer ${accessToken}`, "content-range": contentRange, ...(body ? { "content-type": "video/mp4" } : { "content-length": "0" }) },
      body: (body ?? null) as BodyInit | null,
      redirect: "manual",
      signal: timeout(body ? CHUNK_TIMEOUT_MS : REQUEST_TIMEOUT_MS, signal),
    });
    if (response.status === 308) {
      await response.body?.cancel();
      return { done: false, received: receivedFrom(response) };
    }
    if (response.status === 200 || response.status === 201) return uploadResult(await response.json());
    throw await googleError(response);
  }

  return {
    /** Google's consent page: offline access (a refresh token), consent asked again so one always comes back. */
    authorizationUrl({ redirectUri, state, challenge }: { redirectUri: string; state: string; challenge: string }): string {
      const url = new URL(endpoints.authUrl);
      url.search = new URLSearchParams({
        client_id: endpoints.clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: YOUTUBE_SCOPES.join(" "),
        access_type: "offline",
        prompt: "consent",
        include_granted_scopes: "true",
        state,
        code_challenge: challenge,
        code_challenge_method: "S256",
      }).toString();
      return url.toString();
    },

    exchangeCode: ({ code, verifier, redirectUri }: { code: string; verifier: string; redirectUri: string }) =>
      tokenRequest({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: redirectUri }),

    refresh: (refreshToken: string) => tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken }),

    /** RFC 7009 revocation; the token goes in the body, never in a URL. */
    async revoke(token: string): Promise<void> {
      const response = await fetchImpl(endpoints.revokeUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }),
        signal: timeout(REQUEST_TIMEOUT_MS),
      });
      // 400 invalid_token: already revoked or expired at Google, which is what we wanted.
      if (!response.ok && response.status !== 400) throw await googleError(response);
      await response.body?.cancel();
    },

    /** The channel uploads go to (channels.list mine=true); null for an account without a channel. */
    async channelTitle(accessToken: string): Promise<string | null> {
      const url = `${endpoints.apiBase}/youtube/v3/channels?part=snippet&mine=true`;
      const response = await fetchImpl(url, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" }, signal: timeout(REQUEST_TIMEOUT_MS) });
      if (!response.ok) throw await googleError(response);
      const body = (await response.json()) as { items?: { snippet?: { title?: string } }[] };
      return body.items?.[0]?.snippet?.title ?? null;
    },

    /** Starts a resumable upload (videos.insert, uploadType=resumable): answers the session address. */
    async startUpload(accessToken: string, video: VideoMetadata, size: number, signal?: AbortSignal): Promise<string> {
      const url = `${endpoints.apiBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`;
      const response = await fetchImpl(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${accessToken}`,
          "content-type": "application/json; charset=UTF-8",
          "x-upload-content-length": String(size),
          "x-upload-content-type": "video/mp4",
        },
        body: JSON.stringify({
          snippet: { title: video.title, description: video.description },
          status: { privacyStatus: video.privacy, selfDeclaredMadeForKids: false },
        }),
        signal: timeout(REQUEST_TIMEOUT_MS, signal),
      });
      if (!response.ok) throw await googleError(response);
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (!location) throw new GoogleError(502, null, "no upload session address");
      return new URL(location, url).toString();
    },

    /** Asks a session how much it holds (`Content-Range: bytes *\/SIZE`), after an interruption. */
    uploadStatus: (session: string, accessToken: string, size: number, signal?: AbortSignal) => sessionPut(session, accessToken, `bytes */${size}`, undefined, signal),

    /** Sends bytes [start, start + chunk.length) of `size`. */
    putChunk: (session: string, accessToken: string, chunk: Uint8Array, start: number, size: number, signal?: AbortSignal) =>
      sessionPut(session, accessToken, `bytes ${start}-${start + chunk.length - 1}/${size}`, chunk, signal),
  };
}

export type GoogleClient = ReturnType<typeof googleClient>;
