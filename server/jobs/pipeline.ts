import { findMediaById, updateMedia, type MediaRow } from "../db/media";
import { findProjectById, projectMedia, updateProject, type ProjectRow } from "../db/projects";
import type { StoredAnalysis } from "../services/storyboard-builder";
import { UnreadableMediaError } from "../media/probe";
import { completeLibraryProject, failLibraryMedia, reportLibraryProgress } from "../services/library-projects";
import { PermanentJobError } from "./queue";
import type { Handlers, JobContext } from "./types";
import type { FileStore } from "../storage/local";
import { checkSteps, runSteps, type Step, type StepDeps } from "./steps/step";
import type { MediaState } from "./steps/media";
import { ONCE_STARTED, type ProjectState } from "./steps/project";
import { probeStep } from "./steps/probe";
import { proxyStep } from "./steps/proxy";
import { thumbnailsStep } from "./steps/thumbnails";
import { speechAnalysisStep } from "./steps/speech-analysis";
import { waveformStep } from "./steps/waveform";
import { facesStep } from "./steps/faces";
import { mediaFilesStep } from "./steps/media-files";
import { transcribeStep, createTranscribeStep } from "./steps/transcribe";
import { storyboardStep } from "./steps/storyboard";
import { removeUnlinkedRenders, renderStep } from "./steps/render";
import { linesStep } from "./steps/lines";

export { partName } from "./steps/atomic";

export const FAILED_MESSAGE = "Uploaded file may be corrupted or not be compatible";

export type PipelineDeps = StepDeps;

/**
 * The pipeline as named steps (issue 14), one file each under steps/; each skips when its outputs exist, so a
 * job resumed after a crash goes on at the first step not done, and progress is shared out by their weights.
 */

/**
 * A media file: probe → proxy (the raw preview) → thumbnails → speech analysis → waveform (trim and split dialogs)
 * → faces (issue 17: what the framing follows, so the first preview render already does).
 */
export const MEDIA_STEPS: readonly Step<MediaState>[] = checkSteps([probeStep, proxyStep, thumbnailsStep, speechAnalysisStep, waveformStep, facesStep], ["media.storage_key"]);

/**
 * A new project, up to Preview Ready: its files, the first storyboard (with the lines of words a file already
 * has), the preview render. Speech recognition does not hold the preview back: it comes after (SUBTITLE_STEPS).
 */
export const PROJECT_STEPS: readonly Step<ProjectState>[] = checkSteps([mediaFilesStep, storyboardStep, renderStep], ["project_media", "media_files.storage_key", "media_files.transcript"]);

/**
 * After Preview Ready (a `transcribe` job, or a library upload's): the spoken words recognised, then filled as
 * lines into the scenes that have none. Runs while the project's `subtitles_pending` says so.
 */
export const SUBTITLE_STEPS: readonly Step<ProjectState>[] = checkSteps([transcribeStep, linesStep], ["project_media", "media_files.storage_key", "scenes"]);

/** A render request: the render alone. */
export const RENDER_STEPS: readonly Step<ProjectState>[] = checkSteps([renderStep], ["scenes"]);

/** Runs the media steps once per media file in this process, however many jobs ask for it at once. */
const inFlight = new Map<number, Promise<MediaRow>>();

/**
 * Writes a project's working progress (`from`..100 over the steps' weights) every 2 points, renewing the job's
 * lease as it goes; the render step's own last write says 100.
 */
function progressWriter(deps: StepDeps, projectId: number, ctx: JobContext, from: number) {
  let last = from;
  return async (fraction: number) => {
    const value = Math.round(from + fraction * (100 - from));
    if (value - last < 2 || value >= 100) return;
    last = value;
    await updateProject(deps.db, projectId, { working_progress: value });
    await ctx.heartbeat();
  };
}

export function createPipeline(deps: PipelineDeps) {
  const { db, store } = deps;
  const transcriber = createTranscribeStep({ db, store, speech: deps.speech ?? null, log: deps.log });

  async function ingest(mediaId: number, ctx: JobContext, onProgress: (fraction: number) => Promise<void> = async () => {}): Promise<MediaRow> {
    const media = await findMediaById(db, mediaId);
    if (!media) throw new PermanentJobError(`media ${mediaId} is gone`);
    if (media.status === "ready" && media.raw_preview_render) return media;
    const analysis: StoredAnalysis = media.analysis ? JSON.parse(media.analysis) : { speech: [], noiseFloorDb: null, thumbnails: [] };
    const state: MediaState = { deps, ctx, media, source: await store.fetch(media.storage_key, ctx.signal), analysis };
    try {
      await runSteps(MEDIA_STEPS, state, onProgress, ctx.signal);
      await updateMedia(db, media.id, {
        analysis: JSON.stringify(state.analysis),
        thumbnail_key: state.media.thumbnail_key,
        status: "ready",
        progress: 100,
        raw_preview_render: state.media.kind === "image" ? 1 : state.media.raw_preview_render,
      });
      return (await findMediaById(db, mediaId))!;
    } catch (error) {
      if (error instanceof UnreadableMediaError) {
        await updateMedia(db, mediaId, { status: "failed" });
        throw new PermanentJobError(FAILED_MESSAGE);
      }
      throw error;
    }
  }

  function ingestOnce(mediaId: number, ctx: JobContext, onProgress?: (fraction: number) => Promise<void>) {
    const running = inFlight.get(mediaId);
    if (running) return running;
    const work = ingest(mediaId, ctx, onProgress).finally(() => inFlight.delete(mediaId));
    inFlight.set(mediaId, work);
    return work;
  }

  async function projectState(project: ProjectRow, ctx: JobContext): Promise<ProjectState> {
    return { deps, ctx, project, files: await projectMedia(db, project.id), ingest: ingestOnce, transcriber };
  }

  /** Queues the subtitle steps (a `transcribe` job below the owner's priority), or runs them here without a queue to ask. */
  async function subtitlesAfterPreview(project: ProjectRow, ctx: JobContext) {
    if (deps.enqueueSubtitles) return deps.enqueueSubtitles(project);
    await runSteps(SUBTITLE_STEPS, await projectState(project, ctx), undefined, ctx.signal);
  }

  async function mustProject(projectId: number): Promise<ProjectRow> {
    const project = await findProjectById(db, projectId);
    if (!project || project.deleted_at) throw new PermanentJobError(`project ${projectId} is gone`);
    return project;
  }

  const handlers: Handlers = {
    // An upload of the library: the file, then its library project (scenes, Preview Ready). Both resume.
    "ingest-media": async ({ mediaFileId }, ctx) => {
      const found = await findMediaById(db, mediaFileId);
      if (!found || found.deleted_at) return; // removed from the library meanwhile: nothing left to do
      const media = await ingestOnce(mediaFileId, ctx, async (f) => {
        await updateMedia(db, mediaFileId, { progress: Math.round(f * 100) });
        await reportLibraryProgress(db, mediaFileId, Math.round(f * 100));
      });
      const project = await completeLibraryProject(db, media, { subtitles: true });
      // Its words, recognised after the item is ready to use (only then: the file's own steps never wait for them).
      if (project.subtitles_pending && !project.deleted_at) await subtitlesAfterPreview(project, ctx);
    },

    "create-project": async ({ projectId }, ctx) => {
      let project = await mustProject(projectId);
      // Run again after it finished (a kill between the project's last write and the job's): its scenes
      // may have been edited since, so nothing is redone; only a render the kill left unlinked goes.
      if (!ONCE_STARTED.create.includes(project.status)) {
        await removeUnlinkedRenders(deps, project);
      } else {
        project = await updateProject(db, projectId, { status: "Working", is_queued: 0, working_progress: 1 });
        const state = await projectState(project, ctx);
        await runSteps(PROJECT_STEPS, state, progressWriter(deps, projectId, ctx, 1), ctx.signal);
        project = state.project;
      }
      // Preview Ready: the subtitles follow (a kill before they were queued queues them on the run after it).
      if (project.subtitles_pending) await subtitlesAfterPreview(project, ctx);
    },

    "render-raw": async ({ projectId }, ctx) => {
      const files = await projectMedia(db, projectId);
      for (const file of files) await ingestOnce(file.id, ctx);
      await updateProject(db, projectId, { raw_preview_render: 1, working_progress_raw: 100 });
    },

    render: async ({ projectId, final, tier, aspect, watermark, crop }, ctx) => {
      const project = await mustProject(projectId);
      // The render request sets these; any other status means this render already finished.
      if (!ONCE_STARTED.render.includes(project.status)) return removeUnlinkedRenders(deps, project);
      // Claimed: out of the queue and rendering. The request set is_queued, and it stayed 1 until the end,
      // so the app said "Waiting in the queue" for the whole render (issue 13).
      await updateProject(db, projectId, { is_queued: 0, working_progress: 1 });
      const state = await projectState(project, ctx);
      state.render = { final, options: { tier, aspect, watermark, crop } };
      await runSteps(RENDER_STEPS, state, progressWriter(deps, projectId, ctx, 1), ctx.signal);
    },

    // The subtitle steps of a project past Preview Ready; nothing once its lines are filled.
    transcribe: async ({ projectId }, ctx) => {
      const project = await findProjectById(db, projectId);
      if (!project || project.deleted_at || !project.subtitles_pending) return;
      await runSteps(SUBTITLE_STEPS, await projectState(project, ctx), undefined, ctx.signal);
    },
    // Runs in jobs/translate.ts, which main.ts puts in this one's place (it needs the translation engines).
    translate: async () => {
      throw new PermanentJobError("translation is handled by jobs/translate.ts");
    },
    // Runs in jobs/video-site-export.ts, which main.ts puts in this one's place (it needs the YouTube service).
    "export-video-site": async () => {
      throw new PermanentJobError("video-site export is handled by jobs/video-site-export.ts");
    },
  };

  /** A job that gave up: the project shows Failed with SPEC §8's message. */
  async function onFailed(job: { type: string; payload: unknown }) {
    if (job.type === "ingest-media") return failLibraryMedia(db, (job.payload as { mediaFileId: number }).mediaFileId);
    const projectId = (job.payload as { projectId?: number }).projectId;
    if (!projectId) return;
    // Subtitles that could not be made never fail a project that is Preview Ready: it says why it has none.
    const current = await findProjectById(db, projectId);
    if (job.type === "transcribe" || (job.type === "create-project" && current && !ONCE_STARTED.create.includes(current.status) && current.status !== "Failed")) {
      if (current?.subtitles_pending) {
        await updateProject(db, projectId, { subtitles_pending: 0, subtitles_unavailable: JSON.stringify({ reason: "speech_failed", language: current.locale ?? "" }) });
      }
      return;
    }
    const project = await updateProject(db, projectId, { status: "Failed", failure: FAILED_MESSAGE, is_queued: 0 });
    // Creating a project ends with its first preview render; the other jobs are not renders.
    if (job.type === "render" || job.type === "create-project") await deps.onRenderDone?.(project, false);
  }

  return { handlers: scopedHandlers(store, handlers), onFailed, ingest: ingestOnce };
}

/** Each job in its own store scope (issue 19): the S3 cache's copies a job fetched or wrote go when it ends. */
export function scopedHandlers<H extends Partial<Handlers>>(store: Pick<FileStore, "jobScope">, handlers: H): H {
  const scoped: Record<string, unknown> = {};
  for (const [type, handler] of Object.entries(handlers) as [string, (payload: unknown, ctx: JobContext) => Promise<void>][]) {
    scoped[type] = (payload: unknown, ctx: JobContext) => store.jobScope(() => handler(payload, ctx));
  }
  return scoped as H;
}
