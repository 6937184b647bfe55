import fs from "node:fs/promises";
import path from "node:path";
import type { TextLine } from "../../../api/storyboard";
import { findProjectById, projectMedia, updateProject, type ProjectRow } from "../../db/projects";
import { audioEnhancement, type AudioSettings } from "../../domain/audio";
import { TIER_SIZES } from "../../domain/export-tiers";
import { highlightsOf } from "../../domain/storyboard";
import { renderPreview as renderEdit, type RenderResult } from "../../media/render";
import { verifyOutput } from "../../media/verify";
import { WATERMARK_LOGO } from "../../media/watermark";
import type { BurnedSubtitles } from "../../media/burned-subtitles";
import { DEFAULT_SETTINGS } from "../../domain/project-settings";
import type { ProjectSettings } from "../../../api/projects";
import { projectFolder, type AppliedFeatures } from "../../services/projects";
import { projectSubtitleLines, trackKeyOf } from "../../services/subtitles";
import { clipLines } from "../../speech/lines";
import { attemptDir } from "../leftovers";
import { PermanentJobError } from "../queue";
import type { JobContext } from "../types";
import { loadRenderEdit } from "../render-edit";
import { atomically, writeTrack } from "./atomic";
import { ONCE_STARTED, type FinalOptions, type ProjectState } from "./project";
import type { Step, StepDeps } from "./step";
import { transcribed } from "./transcribe";

/**
 * Renders the visible scenes to the project's preview (720p) and marks it Preview Ready, or, final, to its
 * export at the tier asked for (never above the source), watermarked for free plans, and marks it Render
 * Ready. Done once the project has left the status its request set (a finished render is never redone).
 */
export const renderStep: Step<ProjectState> = {
  name: "render",
  reads: ["scenes"],
  writes: ["preview-*.mp4", "preview-*.vtt", "project.export_key", "project.status"],
  weight: 75,
  done: ({ project, render }) => !ONCE_STARTED[render ? "render" : "create"].includes(project.status),
  async run(state, progress) {
    const final = state.render?.final ?? false;
    // A new project's first preview: words still to recognise are recognised after Preview Ready (the subtitle steps),
    // marked in the same write that says Preview Ready, so a crash between the two never loses them.
    const also = state.render ? {} : { subtitles_pending: transcribed(state.files, state.project.locale) ? 0 : 1 };
    state.project = await renderProject(state.deps, state.project, state.ctx, final, state.render?.options ?? {}, progress, also);
  },
};

/** How many of a scene's text lines (JSON) play inside its trim. */
function linesWithin(text: string, trimStart: number, trimEnd: number): number {
  try {
    return clipLines(JSON.parse(text) as TextLine[], { start: trimStart, end: trimEnd }).length;
  } catch {
    return 0;
  }
}

export async function renderProject(deps: StepDeps, project: ProjectRow, ctx: JobContext, final: boolean, finalOptions: FinalOptions, progress: (fraction: number) => Promise<void>, also: { subtitles_pending?: number } = {}): Promise<ProjectRow> {
  const { db, store } = deps;
  // Scenes in render order with their levels, framing and overlays (render-edit.ts).
  const { edit, probes } = await loadRenderEdit(db, store, project, { signal: ctx.signal, ...(final && finalOptions.aspect !== undefined ? { aspect: finalOptions.aspect } : {}), ...(final && finalOptions.crop !== undefined ? { crop: finalOptions.crop } : {}) });
  const size = TIER_SIZES[final ? (finalOptions.tier ?? 1) : 1];
  const settings = JSON.parse(project.settings) as { smoothcuts?: number } & Partial<AudioSettings>;
  const enhancement = audioEnhancement({ audio_preprocessor: settings.audio_preprocessor ?? 0, voice_booster: settings.voice_booster ?? 0, mute_videos: settings.mute_videos ?? 0 });
  // Highlights report only this: music and ducking arrive with their own features.
  const applied: AppliedFeatures = { music: false, autoduck: false, audioEnhancer: enhancement.voiceBooster, noiseCancelling: enhancement.noiseCancelling, autoPunchIn: edit.autoPunchIn };
  // A render killed between its rename and its row update left a finished file nothing links to.
  await removeUnlinkedRenders(deps, project);
  // Issue 14: the edit's subtitles as this render plays them, written beside it (the players' track).
  const subtitleLines = await projectSubtitleLines(db, project.id);
  // Issue 14: render_subtitle burns the lines into the final render (burned-subtitles.ts says why not a preview).
  const burn = final ? await burnedSubtitles(deps, project, subtitleLines) : undefined;
  const key = `projects/${project.user_id}/${project.id}/${final ? "export" : "preview"}-${Date.now()}.mp4`;
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
      ...(burn ? { subtitles: burn } : {}),
      probes,
      signal: ctx.signal,
      onProgress: (f: number) => void progress(f),
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
    ...also,
    applied_features: JSON.stringify(applied),
    ...(await renderedHighlights(deps, project.id)),
    duration_out_seconds: edit.outputSeconds,
    export_width: rendered?.width ?? null,
    export_height: rendered?.height ?? null,
    // SPEC §4 Needs-render: a shown scene without a thumbnail still needs a render (an edit made meanwhile keeps its flag).
    ...((await shownSceneWithoutThumbnail(deps, project.id)) ? { needs_render: 1 } : {}),
  });
  if (previous && previous !== key) {
    await store.remove(previous);
    await store.remove(trackKeyOf(previous));
  }
  await deps.onRenderDone?.(done, true);
  return done;
}

/** The lines to burn in, in the embedded language (the original when that set has none) and the Options' style. */
async function burnedSubtitles({ db }: StepDeps, project: ProjectRow, original: TextLine[]): Promise<BurnedSubtitles | undefined> {
  const settings = JSON.parse(project.settings) as Partial<ProjectSettings>;
  if (!settings.render_subtitle) return undefined;
  const font = { ...DEFAULT_SETTINGS.font, ...settings.font };
  const translated = font.locale ? await projectSubtitleLines(db, project.id, font.locale) : [];
  const lines = translated.length > 0 ? translated : original;
  return lines.length > 0 ? { lines, style: font } : undefined;
}

async function shownSceneWithoutThumbnail({ db }: StepDeps, projectId: number): Promise<boolean> {
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
export async function renderedHighlights({ db }: Pick<StepDeps, "db">, projectId: number) {
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
export async function removeUnlinkedRenders({ store }: Pick<StepDeps, "store">, project: ProjectRow) {
  const folder = store.pathOf(projectFolder(project.user_id, project.id));
  const linked = project.export_key ? path.basename(project.export_key, ".mp4") : undefined;
  for (const name of await fs.readdir(folder).catch(() => [] as string[])) {
    // A render and its subtitle track (issue 14) go together.
    const render = /^((?:preview|export)-\d+)\.(?:mp4|vtt)$/.exec(name);
    if (render && render[1] !== linked) await fs.rm(path.join(folder, name), { force: true });
  }
}
