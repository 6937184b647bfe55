import fs from "node:fs/promises";
import type { ErrorCode } from "../../api/errors";
import type { Db } from "../db";
import { findProjectById, updateProject } from "../db/projects";
import type { FileStore } from "../storage/local";
import type { Sealer } from "../services/youtube/cipher";
import { GoogleError, type UploadState } from "../services/youtube/google";
import { NotConnectedError, type StoredUpload, type Youtube } from "../services/youtube";
import type { JobContext, JobPayloads } from "./types";
import { musicAttribution, withAttribution } from "../music/attribution";

/** Interruptions in a row (no byte gained) one attempt rides out before the queue retries it later. */
const MAX_RESUMES = 5;

export interface VideoSiteExportDeps {
  db: Db;
  store: Pick<FileStore, "fetch" | "jobScope">;
  youtube: Youtube;
  sealer: Sealer;
  /** Bytes per PUT: a multiple of 256 KiB (YOUTUBE_CHUNK_BYTES). */
  chunkBytes: number;
  /** Waits between resumes (tests shorten it). */
  resumeDelayMs?: (failures: number) => number;
}

/**
 * The "export-video-site" job: uploads a project's final render to the user's channel with YouTube's
 * resumable protocol. The session address is kept (sealed) on the project, so an interrupted upload —
 * a cut connection, a killed server — asks the session how much it holds (308 + Range) and goes on from
 * there. Refusals the user can act on (quota, lost access) end the export with that reason on the project.
 */
export function createVideoSiteExport(deps: VideoSiteExportDeps) {
  const { db, sealer, youtube } = deps;
  const delay = deps.resumeDelayMs ?? ((failures: number) => Math.min(30_000, 1000 * 2 ** (failures - 1)));

  /** The export ends with a reason; a video published before stays exported (its link is still good). */
  async function end(projectId: number, error: ErrorCode) {
    const earlier = (await findProjectById(db, projectId))?.youtube_video_id;
    await updateProject(db, projectId, { youtube_export: earlier ? "done" : null, youtube_error: error, youtube_upload: null });
  }

  async function handler({ projectId }: JobPayloads["export-video-site"], ctx: JobContext): Promise<void> {
    const project = await findProjectById(db, projectId);
    // Deleted, or already finished by an earlier run: nothing to do.
    if (!project || project.deleted_at || project.youtube_export !== "exporting" || !project.youtube_upload) return;
    if (!project.export_key) return end(projectId, "render_not_ready");
    const file = await deps.store.fetch(project.export_key);
    const size = (await fs.stat(file)).size;
    let upload = JSON.parse(sealer.open(project.youtube_upload)) as StoredUpload;
    if (upload.session && (upload.key !== project.export_key || upload.size !== size)) upload = { title: upload.title, description: upload.description, privacy: upload.privacy };
    const save = (next: StoredUpload) => updateProject(db, projectId, { youtube_upload: sealer.seal(JSON.stringify(next)) });

    const google = youtube.google();
    let token = await youtube.accessToken(project.user_id).catch((error) => error as Error);
    if (token instanceof NotConnectedError) return end(projectId, "youtube_not_connected");
    if (token instanceof Error) throw token;
    /** Runs a call with the access token; on 401 (expired or revoked early) refreshes it once and tries again. */
    const authorized = async <T>(call: (accessToken: string) => Promise<T>): Promise<T> => {
      try {
        return await call(token as string);
      } catch (error) {
        if (!(error instanceof GoogleError && error.status === 401)) throw error;
        token = await youtube.accessToken(project.user_id, { force: true });
        return call(token);
      }
    };

    const fh = await fs.open(file, "r");
    try {
      let state: UploadState;
      if (upload.session) {
        state = await authorized((t) => google.uploadStatus(upload.session!, t, size, ctx.signal));
        ctx.log?.("YouTube upload resumed", { projectId, received: state.done ? size : state.received, size });
      } else {
        // Issue 15: a CC-BY song the render played is credited in the video's description.
        const credit = await musicAttribution(db, project);
        const video = { title: upload.title, description: withAttribution(upload.description, credit), privacy: upload.privacy };
        const session = await authorized((t) => google.startUpload(t, video, size, ctx.signal));
        upload = { ...upload, session, key: project.export_key, size };
        await save(upload);
        state = { done: false, received: 0 };
      }
      let failures = 0;
      while (!state.done) {
        const start = state.received;
        try {
          const length = Math.min(deps.chunkBytes, size - start);
          const chunk = Buffer.alloc(length);
          await fh.read(chunk, 0, length, start);
          state = await authorized((t) => google.putChunk(upload.session!, t, chunk, start, size, ctx.signal));
          await ctx.heartbeat();
        } catch (error) {
          // A cut connection or a server error of YouTube's: ask the session where it stands and go on from there.
          if (ctx.signal.aborted || error instanceof NotConnectedError || (error instanceof GoogleError && error.status < 500)) throw error;
          if (++failures > MAX_RESUMES) throw error;
          ctx.log?.("YouTube upload interrupted; resuming", { projectId, sent: start, size, failures });
          await new Promise((resolve) => setTimeout(resolve, delay(failures)));
          state = await authorized((t) => google.uploadStatus(upload.session!, t, size, ctx.signal)).catch(() => ({ done: false as const, received: start }));
        }
        if (!state.done && state.received > start) failures = 0;
      }
      await updateProject(db, projectId, { youtube_export: "done", youtube_video_id: state.videoId, youtube_error: null, youtube_upload: null });
      ctx.log?.("exported to YouTube", { projectId, size });
    } catch (error) {
      if (error instanceof NotConnectedError) return end(projectId, "youtube_not_connected");
      if (error instanceof GoogleError) {
        if (error.isQuota) return end(projectId, "youtube_quota");
        // The session expired (YouTube keeps one about a week) or was lost: the next attempt starts a new one.
        if (error.status === 404 || error.status === 410) {
          await save({ title: upload.title, description: upload.description, privacy: upload.privacy });
          throw error;
        }
        if (error.isRateLimit || error.status >= 500) throw error;
        ctx.log?.("YouTube refused the upload", { projectId, status: error.status, reason: error.reason });
        return end(projectId, "youtube_upload_failed");
      }
      throw error;
    } finally {
      await fh.close();
    }
  }

  /** Every attempt failed (YouTube unreachable for long): the export ends, the user can try again. */
  async function onFailed(job: { payload: unknown }) {
    const projectId = (job.payload as { projectId?: number }).projectId;
    if (projectId) await end(projectId, "youtube_upload_failed");
  }

  // In the store's job scope (issue 19): the export's S3 cache copy goes when the job ends.
  return { handler: (payload: JobPayloads["export-video-site"], ctx: JobContext) => deps.store.jobScope(() => handler(payload, ctx)), onFailed };
}
