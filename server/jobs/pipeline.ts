import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db";
import { findMediaById, updateMedia, type MediaRow } from "../db/media";
import { findProjectById, projectMedia, updateProject, type ProjectRow } from "../db/projects";
import { buildStoryboard, type StoredAnalysis } from "../services/storyboard-builder";
import { audioEnhancement, type AudioSettings } from "../domain/audio";
import { highlightsOf } from "../domain/storyboard";
import { projectFolder, type AppliedFeatures } from "../services/projects";
import { analyzeFile, NoAudioStreamError } from "../media/analyze";
import { UnreadableMediaError } from "../media/probe";
import { verifyOutput } from "../media/verify";
import { makeProxy } from "../media/proxy";
import { extractKeyframeThumbnails, extractPoster } from "../media/thumbnails";
import { renderPreview as renderEdit, type RenderResult } from "../media/render";
import { loadRenderEdit, storedMediaInfo } from "./render-edit";
import type { FileStore } from "../storage/local";
import { mediaKey } from "../services/library";
import { completeLibraryProject, failLibraryMedia, reportLibraryProgress } from "../services/library-projects";
import { PermanentJobError } from "./queue";
import { attemptDir } from "./leftovers";
import type { Handlers, JobContext, JobPayloads } from "./types";
import { TIER_SIZES } from "../domain/export-tiers";
import { WATERMARK_LOGO } from "../media/watermark";
import type { SpeechToText } from "../speech";
import { clipLines } from "../speech/lines";
import { writeVtt } from "../speech/subtitle-files";
import { projectSubtitleLines, trackKeyOf } from "../services/subtitles";
import type { TextLine } from "../../api/storyboard";
import { createTranscribeStep } from "./transcribe";

export const FAILED_MESSAGE = "Uploaded file may be corrupted or not be compatible";

export interface PipelineDeps {
  db: Db;
  store: FileStore;
  log: FastifyBaseLogger;
  /** Called when a project's render (a preview or the final one) finished or failed: the push notifier. */
  onRenderDone?: (project: ProjectRow, ok: boolean) => Promise<void>;
  /** DATA_DIR/tmp: each job attempt's scratch folder lives here, where the start-up sweep finds it (leftovers.ts). */
  tmpDir?: string;
  /** Speech recognition for subtitles (issue 14); null or absent: turned off (STT=off), projects say so. */
  speech?: SpeechToText | null;
}


/**
 * Writes to a temporary name of this attempt's own and renames, so a crash never leaves half a file
 * under the real key and two writers (a killed server's orphan and the retry) never share a file.
 * The output is checked before it is moved into place: nothing corrupt is ever marked ready.
 */
async function atomically(target: string, write: (tmp: string) => Promise<void>, verify: (tmp: string) => Promise<void>) {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const tmp = partName(target);
  try {
    await write(tmp);
    await verify(tmp);
    await fs.rename(tmp, target);
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** The same for a folder of outputs (thumbnails): made whole under its own name, then put in the old one's place. */
async function atomicFolder<T>(target: string, write: (tmpDir: string) => Promise<T>): Promise<T> {
  const tmp = partName(target, ".d");
  try {
    await fs.mkdir(tmp, { recursive: true });
    const result = await write(tmp);
    await fs.rm(target, { recursive: true, force: true });
    await fs.rename(tmp, target);
    return result;
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** A render's WebVTT track, written whole under a name of its own and renamed into place. */
async function writeTrack(target: string, lines: readonly TextLine[]) {
  const tmp = partName(target);
  try {
    await fs.writeFile(tmp, writeVtt(lines), "utf8");
    await fs.rename(tmp, target);
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** How many of a scene's text lines (JSON) play inside its trim. */
function linesWithin(text: string, trimStart: number, trimEnd: number): number {
  try {
    return clipLines(JSON.parse(text) as TextLine[], { start: trimStart, end: trimEnd }).length;
  } catch {
    return 0;
  }
}

/** `proxy.mp4` → `proxy.mp4.1a2b3c4d.part.mp4`: this attempt's own name, which the start-up sweep knows (leftovers.ts). */
export function partName(target: string, extension = path.extname(target)): string {
  return `${target}.${randomBytes(4).toString("hex")}.part${extension}`;
}

/** The statuses a project has while its job still has work to do (set by the request that queued it). */
/** What a final render request asked for (JobPayloads.render); a preview has none of it. */
type FinalOptions = Pick<JobPayloads["render"], "tier" | "aspect" | "watermark" | "crop">;

const ONCE_STARTED = { create: ["new", "Working"], render: ["Rendering", "Final Rendering"] };

/** Runs each step once per media file in this process, however many jobs ask for it at once. */
const inFlight = new Map<number, Promise<MediaRow>>();

export function createPipeline(deps: PipelineDeps) {
  const { db, store } = deps;
  const keyOf = (media: MediaRow, file: string) => mediaKey(media.user_id, media.id, file);
  const transcribe = createTranscribeStep({ db, store, speech: deps.speech ?? null, log: deps.log });

  /** Probe → proxy (the raw preview) → thumbnails → speech analysis. Each step skips when done. */
  async function ingest(mediaId: number, ctx: JobContext, onProgress: (fraction: number) => Promise<void> = async () => {}): Promise<MediaRow> {
    let media = await findMediaById(db, mediaId);
    if (!media) throw new PermanentJobError(`media ${mediaId} is gone`);
    if (media.status === "ready" && media.raw_preview_render) return media;
    const source = store.pathOf(media.storage_key);
    try {
      const info = await storedMediaInfo(source, media, { signal: ctx.signal });
      // A file stored before its container was kept gets it now; every later run names it.
      if (!media.container) await updateMedia(db, media.id, { container: info.container });
      const posterOk = (tmp: string) => verifyOutput(tmp, { format: "jpeg_pipe", video: true }, { signal: ctx.signal });
      const analysis: StoredAnalysis = media.analysis ? JSON.parse(media.analysis) : { speech: [], noiseFloorDb: null, thumbnails: [] };

      if (media.kind === "image") {
        const poster = keyOf(media, "thumb.jpg");
        if (!(await store.exists(poster))) await atomically(store.pathOf(poster), (tmp) => extractPoster(source, tmp, { info, signal: ctx.signal }).then(() => undefined), posterOk);
        media = { ...media, thumbnail_key: poster };
      } else {
        const proxy = keyOf(media, "proxy.mp4");
        if (!(await store.exists(proxy))) {
          await atomically(store.pathOf(proxy), (tmp) =>
            makeProxy(source, tmp, { info, signal: ctx.signal, onProgress: (f: number) => void onProgress(f * 0.6).then(() => ctx.heartbeat()) }),
            (tmp) => verifyOutput(tmp, { format: "mov", video: info.kind === "video", audio: info.hasAudio, durationSeconds: info.durationSeconds, decode: true }, { signal: ctx.signal }),
          );
        }
        await updateMedia(db, media.id, { proxy_key: proxy, raw_preview_render: 1, progress: 60 });
        media = { ...media, proxy_key: proxy, raw_preview_render: 1 };

        if (media.kind === "video" && analysis.thumbnails.length === 0) {
          const dir = store.pathOf(keyOf(media, "thumbs"));
          const thumbs = await atomicFolder(dir, (tmp) => extractKeyframeThumbnails(source, tmp, { info, signal: ctx.signal }));
          analysis.thumbnails = thumbs.map((t) => ({ time: t.time, key: keyOf(media!, `thumbs/${path.basename(t.file)}`) }));
          media = { ...media, thumbnail_key: analysis.thumbnails[0]?.key ?? null };
        }
        if (media.kind === "audio" && !media.thumbnail_key) {
          const poster = keyOf(media, "thumb.jpg");
          if (!(await store.exists(poster))) await atomically(store.pathOf(poster), (tmp) => extractPoster(source, tmp, { info, signal: ctx.signal }).then(() => undefined), posterOk);
          media = { ...media, thumbnail_key: poster };
        }
        await onProgress(0.8);
        if (media.has_speech && info.hasAudio && analysis.noiseFloorDb === null) {
          try {
            const result = await analyzeFile(source, { info, signal: ctx.signal });
            analysis.speech = result.speech;
            analysis.noiseFloorDb = result.noiseFloorDb;
          } catch (error) {
            if (!(error instanceof NoAudioStreamError)) throw error;
          }
        }
      }
      await updateMedia(db, media.id, {
        analysis: JSON.stringify(analysis),
        thumbnail_key: media.thumbnail_key,
        status: "ready",
        progress: 100,
        raw_preview_render: media.kind === "image" ? 1 : media.raw_preview_render,
      });
      await onProgress(1);
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

  /**
   * Renders the visible scenes to the project's preview (720p) and marks it Preview Ready, or, final,
   * to its export at the tier asked for (never above the source), watermarked for free plans, and
   * marks it Render Ready.
   */
  async function renderPreview(project: ProjectRow, ctx: JobContext, from: number, final: boolean, finalOptions: FinalOptions = {}) {
    // Scenes in render order with their levels, framing and overlays (render-edit.ts).
    const { edit, probes } = await loadRenderEdit(db, store, project, { signal: ctx.signal, ...(final && finalOptions.aspect !== undefined ? { aspect: finalOptions.aspect } : {}), ...(final && finalOptions.crop !== undefined ? { crop: finalOptions.crop } : {}) });
    const size = TIER_SIZES[final ? (finalOptions.tier ?? 1) : 1];
    const settings = JSON.parse(project.settings) as { smoothcuts?: number } & Partial<AudioSettings>;
    const enhancement = audioEnhancement({ audio_preprocessor: settings.audio_preprocessor ?? 0, voice_booster: settings.voice_booster ?? 0, mute_videos: settings.mute_videos ?? 0 });
    // Highlights report only this: music and ducking arrive with their own features.
    const applied: AppliedFeatures = { music: false, autoduck: false, audioEnhancer: enhancement.voiceBooster, noiseCancelling: enhancement.noiseCancelling, autoPunchIn: edit.autoPunchIn };
    // A render killed between its rename and its row update left a finished file nothing links to.
    await removeUnlinkedRenders(project);
    // Issue 14: the edit's subtitles as this render plays them, written beside it (the players' track).
    const subtitleLines = await projectSubtitleLines(db, project.id);
    const key = `projects/${project.user_id}/${project.id}/${final ? "export" : "preview"}-${Date.now()}.mp4`;
    let last = 0;
    let rendered: RenderResult | undefined;
    const scratchParent = deps.tmpDir ? attemptDir(deps.tmpDir, ctx) : undefined;
    await atomically(store.pathOf(key), (tmp) =>
      renderEdit(edit.segments, tmp, {
        scratchParent,
        // A final export copies the stretches that need no re-encode (smart-render.ts); a preview renders in full.
        smart: final,
        onRenderPath: (choice) => deps.log.info({ projectId: project.id, renderPath: choice.path, reason: choice.reason, ...choice.smart }, "final render path"),
        smoothCuts: !!settings.smoothcuts,
        audioFilters: enhancement.filters,
        overlays: edit.overlays,
        aspect: edit.aspect,
        maxShortSide: size.maxShortSide,
        maxLongSide: size.maxLongSide,
        ...(final && finalOptions.watermark ? { watermark: WATERMARK_LOGO } : {}),
        probes,
        signal: ctx.signal,
        onProgress: (f: number) => {
          const value = Math.round(from + f * (100 - from));
          if (value - last >= 2) {
            last = value;
            void updateProject(db, project.id, { working_progress: value }).then(() => ctx.heartbeat());
          }
        },
      }).then((result) => void (rendered = result)),
      (tmp) => verifyOutput(tmp, { format: "mov", video: true, audio: true, durationSeconds: rendered?.durationSeconds }, { signal: ctx.signal }),
    ).finally(() => scratchParent && fs.rm(scratchParent, { recursive: true, force: true }));
    // Deleted while it rendered (the cancel reaches another process only at its next lease renewal):
    // what it made goes with the project's other files, and no link to it is ever handed out.
    if ((await findProjectById(db, project.id))?.deleted_at) {
      await store.remove(projectFolder(project.user_id, project.id));
      throw new PermanentJobError(`project ${project.id} was deleted while it rendered`);
    }
    if (subtitleLines.length > 0) await writeTrack(store.pathOf(trackKeyOf(key)), subtitleLines);
    const previous = project.export_key;
    const done = await updateProject(db, project.id, {
      export_key: key,
      status: final ? "Render Ready" : "Preview Ready",
      final_render: final ? 1 : 0,
      is_queued: 0,
      is_new: 0,
      working_progress: 100,
      applied_features: JSON.stringify(applied),
      ...(await renderedHighlights(project.id)),
      duration_out_seconds: edit.outputSeconds,
      export_width: rendered?.width ?? null,
      export_height: rendered?.height ?? null,
      // SPEC §4 Needs-render: a shown scene without a thumbnail still needs a render (an edit made meanwhile keeps its flag).
      ...((await shownSceneWithoutThumbnail(project.id)) ? { needs_render: 1 } : {}),
    });
    if (previous && previous !== key) {
      await store.remove(previous);
      await store.remove(trackKeyOf(previous));
    }
    await deps.onRenderDone?.(done, true);
  }

  async function shownSceneWithoutThumbnail(projectId: number): Promise<boolean> {
    const row = await db
      .selectFrom("scenes")
      .select("id")
      .where("project_id", "=", projectId)
      .where("parent_scene_id", "is", null)
      .where("visibility", "=", 1)
      .where("thumbnail_key", "is", null)
      .executeTakeFirst();
    return !!row;
  }

  /**
   * "What Cutroom did" for the storyboard as rendered: the project's footage left out and the jump cuts
   * among its shown scenes. Issue 13: they stayed as the first storyboard had them, whatever the edits.
   */
  async function renderedHighlights(projectId: number) {
    const [files, scenes] = await Promise.all([
      projectMedia(db, projectId),
      db
        .selectFrom("scenes")
        .select(["media_file_id", "order", "trim_start", "trim_end", "text"])
        .where("project_id", "=", projectId)
        .where("parent_scene_id", "is", null)
        .where("visibility", "=", 1)
        .execute(),
    ]);
    const own = new Set(files.map((m) => m.id));
    const shown = scenes
      .filter((s) => s.media_file_id !== null && own.has(s.media_file_id))
      .map((s) => ({ mediaFileId: s.media_file_id!, order: s.order, start: s.trim_start, end: s.trim_end, trimStart: s.trim_start, trimEnd: s.trim_end, trimStartRaw: s.trim_start, trimEndRaw: s.trim_end }));
    const media = files.map((m) => ({ id: m.id, kind: m.kind, durationSeconds: m.duration_seconds, rawOffset: 0 }));
    const { removedLength, jumpCutsCreated } = highlightsOf(media, shown);
    // Issue 14: the subtitle lines of the shown scenes as edited, each clipped to its scene's trim.
    const subtitlesLines = scenes.reduce((sum, s) => sum + linesWithin(s.text, s.trim_start, s.trim_end), 0);
    return { removed_length: removedLength, jump_cuts_created: jumpCutsCreated, subtitles_lines_count: subtitlesLines };
  }

  /** Finished renders in a project's folder that its row does not link to; one job renders a project at a time. */
  async function removeUnlinkedRenders(project: ProjectRow) {
    const folder = store.pathOf(projectFolder(project.user_id, project.id));
    const linked = project.export_key ? path.basename(project.export_key, ".mp4") : undefined;
    for (const name of await fs.readdir(folder).catch(() => [] as string[])) {
      // A render and its subtitle track (issue 14) go together.
      const render = /^((?:preview|export)-\d+)\.(?:mp4|vtt)$/.exec(name);
      if (render && render[1] !== linked) await fs.rm(path.join(folder, name), { force: true });
    }
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
      await completeLibraryProject(db, media);
    },

    "create-project": async ({ projectId }, ctx) => {
      let project = await mustProject(projectId);
      // Run again after it finished (a kill between the project's last write and the job's): its scenes
      // may have been edited since, so nothing is redone; only a render the kill left unlinked goes.
      if (!ONCE_STARTED.create.includes(project.status)) return removeUnlinkedRenders(project);
      project = await updateProject(db, projectId, { status: "Working", is_queued: 0, working_progress: 1 });
      const files = await projectMedia(db, projectId);
      const progress = new Map<number, number>();
      const reportRaw = async () => {
        const mean = [...progress.values()].reduce((a, b) => a + b, 0) / Math.max(1, files.length);
        await updateProject(db, projectId, { working_progress_raw: Math.round(mean * 100) });
      };
      // Speech recognition (issue 14) runs beside the proxy and thumbnails: a core of its own while ffmpeg encodes.
      // Once the files are ready, what is left of the recognition moves the progress from 20 to 24 %.
      let ingested = false;
      let shown = 20;
      const transcribing = transcribe.transcribeProject(files, project.locale, ctx, (fraction) => {
        const value = 20 + Math.min(4, Math.floor(fraction * 5));
        if (!ingested || value <= shown) return;
        shown = value;
        void updateProject(db, projectId, { working_progress: value }).catch(() => {});
      });
      transcribing.catch(() => {}); // awaited below; an ingest failure may come first
      const ready: MediaRow[] = [];
      for (const file of files) {
        ready.push(await ingestOnce(file.id, ctx, async (f) => { progress.set(file.id, f); await reportRaw(); }));
        progress.set(file.id, 1);
      }
      await reportRaw();
      await updateProject(db, projectId, { working_progress: 20, raw_preview_render: 1, working_progress_raw: 100 });
      ingested = true;
      const unavailable = await transcribing;
      await updateProject(db, projectId, { subtitles_unavailable: unavailable ? JSON.stringify(unavailable) : null });
      // Re-read: the words were stored on the files after their rows were loaded.
      for (const [i, m] of ready.entries()) ready[i] = (await findMediaById(db, m.id)) ?? m;

      const settings = JSON.parse(project.settings) as { autocutsilences?: number };
      project = await buildStoryboard(db, project, ready, !!settings.autocutsilences);
      project = await updateProject(db, projectId, { working_progress: 25 });
      await renderPreview(project, ctx, 25, false);
    },

    "render-raw": async ({ projectId }, ctx) => {
      const files = await projectMedia(db, projectId);
      for (const file of files) await ingestOnce(file.id, ctx);
      await updateProject(db, projectId, { raw_preview_render: 1, working_progress_raw: 100 });
    },

    render: async ({ projectId, final, tier, aspect, watermark, crop }, ctx) => {
      const project = await mustProject(projectId);
      // The render request sets these; any other status means this render already finished.
      if (!ONCE_STARTED.render.includes(project.status)) return removeUnlinkedRenders(project);
      // Claimed: out of the queue and rendering. The request set is_queued, and it stayed 1 until the end,
      // so the app said "Waiting in the queue" for the whole render (issue 13).
      await updateProject(db, projectId, { is_queued: 0, working_progress: 1 });
      await renderPreview(project, ctx, 1, final, { tier, aspect, watermark, crop });
    },

    // These arrive with their issues (subtitles, translation, video-site export); until then they fail loudly.
    transcribe: async () => {
      throw new PermanentJobError("transcription is not available on this server yet");
    },
    translate: async () => {
      throw new PermanentJobError("translation is not available on this server yet");
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
    const project = await updateProject(db, projectId, { status: "Failed", failure: FAILED_MESSAGE, is_queued: 0 });
    // Creating a project ends with its first preview render; the other jobs are not renders.
    if (job.type === "render" || job.type === "create-project") await deps.onRenderDone?.(project, false);
  }

  return { handlers, onFailed, ingest: ingestOnce };
}
