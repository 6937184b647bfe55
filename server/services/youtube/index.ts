import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { Project } from "../../../api/projects";
import type { VideoSiteExportBody, YoutubeConnection } from "../../../api/youtube";
import { API_BASE } from "../../../api/route";
import type { Config } from "../../config";
import type { Db } from "../../db";
import { findProject, updateProject, type ProjectRow } from "../../db/projects";
import { deleteYoutubeConnection, findYoutubeConnection, insertYoutubeAuthRequest, saveYoutubeConnection, takeYoutubeAuthRequest } from "../../db/youtube";
import { DomainError, notFound } from "../errors";
import { PAID_PRIORITY, FREE_PRIORITY, projectGroup, type ProjectQueue } from "../projects";
import { hashState, pkcePair, type Sealer } from "./cipher";
import { GoogleError, googleClient, type GoogleClient, type VideoMetadata } from "./google";

/** How long the consent page may stay open before its answer is refused. */
const AUTH_REQUEST_MS = 15 * 60_000;
/** An access token this close to its expiry is refreshed before use. */
const EXPIRY_MARGIN_MS = 60_000;

interface StoredTokens {
  access_token: string;
  refresh_token: string;
  /** Epoch milliseconds. */
  expires_at: number;
}

/** The upload in progress, sealed on the project: what to publish, and the resumable session once started. */
export interface StoredUpload extends VideoMetadata {
  session?: string;
  /** The render and its size the session was opened for; another render needs a new session. */
  key?: string;
  size?: number;
}

/** The user's connection is gone or no longer works (revoked at Google): they must connect again. */
export class NotConnectedError extends Error {
  override name = "NotConnectedError";
}

/** What the callback page tells the person in the consent window. */
export type CallbackOutcome = { connected: true; locale: string } | { connected: false; reason: "denied" | "expired" | "failed"; locale: string };

export interface YoutubeDeps {
  db: Db;
  /** Null: no client credentials, so the feature says it is unavailable. */
  config: Config["youtube"];
  publicUrl: string;
  sealer: Sealer;
  queue: Pick<ProjectQueue, "enqueue">;
  isPaid: (userId: number) => Promise<boolean>;
  mustBeVerified: (userId: number) => Promise<void>;
  toProject: (row: ProjectRow) => Project;
  log: { warn: (fields: object, message: string) => void };
  google?: GoogleClient;
}

/** Video-site export (SPEC §7 youtube connect/disconnect, share/youtube): the OAuth link and export requests. */
export function createYoutube(deps: YoutubeDeps) {
  const { db, sealer } = deps;
  const config = deps.config;
  const google = config ? (deps.google ?? googleClient(config)) : null;
  const redirectUri = `${deps.publicUrl}${API_BASE}/user/youtube/callback`;

  const mustBeAvailable = () => {
    if (!config || !google) throw new DomainError("youtube_unavailable", "Video-site export is not set up on this server");
    return google;
  };

  const readTokens = (sealed: string) => JSON.parse(sealer.open(sealed)) as StoredTokens;
  /** The stored tokens, or none when they cannot be opened (YOUTUBE_TOKEN_KEY changed): that connection is dropped. */
  async function tokensOf(userId: number, sealed: string): Promise<StoredTokens | null> {
    try {
      return readTokens(sealed);
    } catch {
      await deleteYoutubeConnection(db, userId);
      return null;
    }
  }
  const sealTokens = (tokens: StoredTokens) => sealer.seal(JSON.stringify(tokens));

  async function status(userId: number): Promise<YoutubeConnection> {
    if (!config) return { available: false, connected: false, channel: null };
    const row = await findYoutubeConnection(db, userId);
    return { available: true, connected: !!row, channel: row?.channel ?? null };
  }

  async function localeOf(userId: number) {
    return (await db.selectFrom("users").select("locale").where("id", "=", userId).executeTakeFirst())?.locale ?? "en";
  }

  /** A valid access token for the user, refreshed when expired (or when `force`: Google refused the one we had). */
  async function accessToken(userId: number, options: { force?: boolean } = {}): Promise<string> {
    const client = mustBeAvailable();
    const row = await findYoutubeConnection(db, userId);
    const tokens = row && (await tokensOf(userId, row.tokens));
    if (!tokens) throw new NotConnectedError("not connected");
    if (!options.force && tokens.expires_at - EXPIRY_MARGIN_MS > Date.now()) return tokens.access_token;
    try {
      const fresh = await client.refresh(tokens.refresh_token);
      const next = { access_token: fresh.access_token, refresh_token: fresh.refresh_token ?? tokens.refresh_token, expires_at: Date.now() + fresh.expires_in * 1000 };
      await saveYoutubeConnection(db, userId, sealTokens(next));
      return next.access_token;
    } catch (error) {
      if (error instanceof GoogleError && (error.isInvalidGrant || error.status === 401)) {
        // Revoked at Google or expired: the stored tokens are worthless; the user connects again.
        await deleteYoutubeConnection(db, userId);
        throw new NotConnectedError("access revoked");
      }
      throw error;
    }
  }

  return {
    redirectUri,
    status,
    accessToken,
    google: () => mustBeAvailable(),

    /** A consent link bound to this user: state (stored hashed) and a PKCE verifier (stored sealed), single use. */
    async connectLink(userId: number): Promise<{ url: string }> {
      const client = mustBeAvailable();
      const state = randomBytes(32).toString("base64url");
      const { verifier, challenge } = pkcePair();
      await insertYoutubeAuthRequest(db, { state_hash: hashState(state), user_id: userId, verifier: sealer.seal(verifier), expires_at: new Date(Date.now() + AUTH_REQUEST_MS).toISOString() });
      return { url: client.authorizationUrl({ redirectUri, state, challenge }) };
    },

    /** Google sends the browser back here with `code` and `state` (or `error`): exchange, check the channel, store. */
    async callback(query: { code?: string; state?: string; error?: string }): Promise<CallbackOutcome> {
      if (!config || !google || !query.state) return { connected: false, reason: "failed", locale: "en" };
      const request = await takeYoutubeAuthRequest(db, hashState(query.state));
      if (!request) return { connected: false, reason: "expired", locale: "en" };
      const locale = await localeOf(request.user_id);
      if (Date.parse(request.expires_at) < Date.now()) return { connected: false, reason: "expired", locale };
      if (query.error || !query.code) return { connected: false, reason: query.error === "access_denied" ? "denied" : "failed", locale };
      try {
        const tokens = await google.exchangeCode({ code: query.code, verifier: sealer.open(request.verifier), redirectUri });
        const previous = await findYoutubeConnection(db, request.user_id);
        const refresh = tokens.refresh_token ?? (previous ? (await tokensOf(request.user_id, previous.tokens))?.refresh_token : undefined);
        if (!refresh) return { connected: false, reason: "failed", locale };
        const channel = await google.channelTitle(tokens.access_token).catch(() => null);
        await saveYoutubeConnection(db, request.user_id, sealTokens({ access_token: tokens.access_token, refresh_token: refresh, expires_at: Date.now() + tokens.expires_in * 1000 }), channel);
        return { connected: true, locale };
      } catch (error) {
        deps.log.warn({ status: error instanceof GoogleError ? error.status : undefined, reason: error instanceof GoogleError ? error.reason : String(error) }, "YouTube connection failed");
        return { connected: false, reason: "failed", locale };
      }
    },

    /** Revokes Cutroom's access at Google, then forgets the tokens (even when Google cannot be reached). */
    async disconnect(userId: number): Promise<YoutubeConnection> {
      const client = mustBeAvailable();
      const row = await findYoutubeConnection(db, userId);
      const tokens = row && (await tokensOf(userId, row.tokens));
      if (tokens) {
        try {
          await client.revoke(tokens.refresh_token);
        } catch (error) {
          deps.log.warn({ status: error instanceof GoogleError ? error.status : undefined }, "YouTube revoke failed; the tokens are deleted anyway");
        }
        await deleteYoutubeConnection(db, userId);
      }
      return status(userId);
    },

    /** SPEC §5: a finished (Render Ready) project with its final render, a connected account, title, description and privacy. */
    async requestExport(userId: number, projectId: number, body: z.output<typeof VideoSiteExportBody>): Promise<Project> {
      // Another user's project is not found whatever the set-up (issue 12 authorisation matrix).
      const row = await findProject(db, userId, projectId);
      if (!row || row.deleted_at || row.type === "library") throw notFound("No such project");
      mustBeAvailable();
      if (row.status !== "Render Ready" || !row.final_render || !row.export_key) throw new DomainError("render_not_ready", "Export the video first, then publish it");
      if (row.youtube_export === "exporting") throw new DomainError("project_busy", "This video is being exported to YouTube");
      await deps.mustBeVerified(userId);
      if (!(await findYoutubeConnection(db, userId))) throw new DomainError("youtube_not_connected", "Connect your YouTube account first");
      const upload: StoredUpload = { title: body.title, description: body.description, privacy: body.privacy };
      const updated = await updateProject(db, projectId, { youtube_export: "exporting", youtube_error: null, youtube_upload: sealer.seal(JSON.stringify(upload)), needs_render: 0 });
      const priority = (await deps.isPaid(userId)) ? PAID_PRIORITY : FREE_PRIORITY;
      await deps.queue.enqueue("export-video-site", { projectId }, { priority, group: projectGroup(projectId), owner: String(userId) });
      return deps.toProject(updated);
    },
  };
}

export type Youtube = ReturnType<typeof createYoutube>;
