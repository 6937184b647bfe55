import fs from "node:fs/promises";
import path from "node:path";
import type { TextLine } from "../../../api/storyboard";
import { findProjectById, projectMedia, updateProject, type ProjectRow } from "../../db/projects";
import { soundOptions, type AudioSettings } from "../../domain/audio";
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
import { loadRenderEdit, type RenderEdit } from "../render-edit";
import { findSong, listAvailableSongs, songFilePath, type SongRow } from "../../db/songs";
import { pickSong } from "../../domain/music";
import { musicBed, type BedOutcome } from "../../media/music-bed";
import type { MusicBedFactory } from "../../media/render";
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

/** punch_in_status of the rendered scenes: 1 where the render zoomed in, 0 where it did not (no updated_at: not an edit). */
async function recordPunchIns(deps: StepDeps, projectId: number, scenes: readonly { id: number; zoomed: boolean }[]) {
  for (const status of [0, 1] as const) {
    const ids = scenes.filter((s) => s.zoomed === (status === 1)).map((s) => s.id);
    for (let i = 0; i < ids.length; i += 500) {
      await deps.db.updateTable("scenes").set({ punch_in_status: status }).where("project_id", "=", projectId).where("id", "in", ids.slice(i, i + 500)).where("punch_in_status", "!=", status).execute();
    }
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

export async function renderProject(deps: StepDeps, project: ProjectRow, ctx: JobContext, final: boolean, finalOptions: FinalOptions, progress: (fraction: number) => Promise<void>, also: { subtitles_pending?: number } = {}): Promise<ProjectRow> {
  const { db, store } = deps;
  // Scenes in render order with their levels, framing and overlays (render-edit.ts).
  const { edit, probes } = await loadRenderEdit(db, store, project, { signal: ctx.signal, ...(final && finalOptions.aspect !== undefined ? { aspect: finalOptions.aspect } : {}), ...(final && finalOptions.crop !== undefined ? { crop: finalOptions.crop } : {}) });
  const size = TIER_SIZES[final ? (finalOptions.tier ?? 1) : 1];
  const settings = JSON.parse(project.settings) as { smoothcuts?: number } & Partial<AudioSettings>;
  // Issue 15: every render's sound is finished (sound.ts): the denoiser and booster the settings ask for, −14 LUFS.
  const sound = soundOptions({ audio_preprocessor: settings.audio_preprocessor ?? 0, voice_booster: settings.voice_booster ?? 0, mute_videos: settings.mute_videos ?? 0 });
  // Highlights report only this: music and ducking arrive with their own features.
  const applied: AppliedFeatures = { music: false, autoduck: false, audioEnhancer: false, noiseCancelling: false, autoPunchIn: edit.autoPunchIn };
  // A render killed between its rename and its row update left a finished file nothing links to.
  await removeUnlinkedRenders(deps, project);
  // Issue 14: the edit's subtitles as this render plays them, written beside it (the players' track).
  const subtitleLines = await projectSubtitleLines(db, project.id);
  // Issue 14: render_subtitle burns the lines into the final render (burned-subtitles.ts says why not a preview).
  const burn = final ? await burnedSubtitles(deps, project, subtitleLines) : undefined;
  const key = `projects/${project.user_id}/${project.id}/${final ? "export" : "preview"}-${Date.now()}.mp4`;
  let rendered: RenderResult | undefined;
  // Issue 15: the music bed, when automatic music is on and a song is set or can be chosen.
  const music = await projectMusic(deps, project, edit, ctx);
  const scratchParent = deps.tmpDir ? attemptDir(deps.tmpDir, ctx) : undefined;
  await atomically(store.pathOf(key), (tmp) =>
    renderEdit(edit.segments, tmp, {
      scratchParent,
      // A final export copies the stretches that need no re-encode (smart-render.ts); a preview renders in full.
      smart: final,
      onRenderPath: (choice) => deps.log.info({ projectId: project.id, renderPath: choice.path, reason: choice.reason, ...choice.smart }, "final render path"),
      smoothCuts: !!settings.smoothcuts,
      sound,
      overlays: edit.overlays,
      aspect: edit.aspect,
      maxShortSide: size.maxShortSide,
      maxLongSide: size.maxLongSide,
      ...(final && finalOptions.watermark ? { watermark: WATERMARK_LOGO } : {}),
      ...(burn ? { subtitles: burn } : {}),
      ...(music ? { music: music.factory } : {}),
      probes,
      signal: ctx.signal,
      onProgress: (f: number) => void progress(f),
    }).then((result) => {
      rendered = result;
      // What ran, not what was asked: SPEC §1's "audio enhancer (noise cancelling)" is the enhancer
      // (the denoiser, with the voice booster when on), "noise cancelling" the denoiser itself.
      applied.noiseCancelling = !!result.sound?.denoise;
      applied.audioEnhancer = !!result.sound?.denoise || !!result.sound?.booster;
    }),
    (tmp) => verifyOutput(tmp, { format: "mov", video: true, audio: true, durationSeconds: rendered?.durationSeconds }, { signal: ctx.signal }),
  ).finally(() => scratchParent && fs.rm(scratchParent, { recursive: true, force: true }));
  await store.commit(key);
  // Deleted while it rendered (the cancel reaches another process only at its next lease renewal):
  // what it made goes with the project's other files, and no link to it is ever handed out.
  if ((await findProjectById(db, project.id))?.deleted_at) {
    await store.remove(projectFolder(project.user_id, project.id));
    throw new PermanentJobError(`project ${project.id} was deleted while it rendered`);
  }
  if (subtitleLines.length > 0) {
    await writeTrack(store.pathOf(trackKeyOf(key)), subtitleLines);
    await store.commit(trackKeyOf(key));
  }
  // Issue 17 (SPEC §3 punch_in_status): which scenes this render zoomed in on.
  await recordPunchIns(deps, project.id, edit.scenes);
  const previous = project.export_key;
  const done = await updateProject(db, project.id, {
    export_key: key,
    status: final ? "Render Ready" : "Preview Ready",
    final_render: final ? 1 : 0,
    is_queued: 0,
    is_new: 0,
    working_progress: 100,
    ...also,
    // Music and auto-duck count only when a bed was mixed in and ducked under speech.
    applied_features: JSON.stringify({ ...applied, music: !!music?.outcome.mixed, autoduck: !!music?.outcome.ducked, ...(music?.outcome.mixed ? { music_song_id: music.songId } : {}) }),
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
  const folder = projectFolder(project.user_id, project.id);
  const linked = project.export_key ? path.basename(project.export_key, ".mp4") : undefined;
  for (const name of await store.list(folder)) {
    // A render and its subtitle track (issue 14) go together.
    const render = /^((?:preview|export)-\d+)\.(?:mp4|vtt)$/.exec(name);
    if (render && render[1] !== linked) await store.remove(`${folder}/${name}`);
  }
}

/** How many of the user's latest other projects' songs an automatic choice avoids. */
const RECENT_PROJECTS = 5;

/**
 * Issue 15: the song and the bed of a render. Automatic music on: the project's bgm_id when it is
 * available, else one chosen for the style and length (recorded as its bgm_id, so the Music tab
 * shows it and later renders keep it). A bed that cannot be made leaves the render without music.
 */
async function projectMusic(deps: StepDeps, project: ProjectRow, edit: RenderEdit, ctx: JobContext): Promise<{ factory: MusicBedFactory; outcome: BedOutcome; songId: number } | null> {
  const { db } = deps;
  const settings = { ...DEFAULT_SETTINGS, ...(JSON.parse(project.settings) as Partial<ProjectSettings>) };
  if (!settings.autobgm || edit.scenes.length === 0) return null;
  const dirs = deps.music ?? { catalogueDir: path.resolve("music"), musicDir: null };
  const playable = async (song: SongRow | undefined) => {
    if (!song) return undefined;
    try {
      const file = songFilePath(song, dirs);
      await fs.access(file);
      return { song, file };
    } catch {
      return undefined;
    }
  };
  let chosen = settings.bgm_id !== null ? await playable(await findSong(db, settings.bgm_id)) : undefined;
  if (!chosen) {
    const recentRows = await db.selectFrom("projects").select("settings").where("user_id", "=", project.user_id).where("id", "!=", project.id).orderBy("id", "desc").limit(RECENT_PROJECTS).execute();
    const recent = recentRows.flatMap((r) => {
      const id = (JSON.parse(r.settings) as Partial<ProjectSettings>).bgm_id;
      return typeof id === "number" ? [id] : [];
    });
    const songs = (await listAvailableSongs(db)).filter((s) => s.id !== settings.bgm_id);
    const candidates = songs.map((s) => ({ id: s.id, durationMs: s.duration_ms, energy: s.energy, tempo: s.tempo }));
    const pick = pickSong(candidates, { style: settings.style, audioType: settings.audio_type, editSeconds: edit.outputSeconds, recent, projectId: project.id });
    chosen = await playable(songs.find((s) => s.id === pick?.id));
    if (!chosen) return null;
    // The choice is the project's song from now on (read again: a settings edit may have landed meanwhile).
    const fresh = await findProjectById(db, project.id);
    if (fresh) await updateProject(db, project.id, { settings: JSON.stringify({ ...(JSON.parse(fresh.settings) as object), bgm_id: chosen.song.id }) });
  }
  const outcome: BedOutcome = { mixed: false, ducked: false };
  const bed = musicBed({
    song: { file: chosen.file, durationMs: chosen.song.duration_ms, loopStartMs: chosen.song.loop_start_ms, loopEndMs: chosen.song.loop_end_ms },
    scenes: edit.scenes.map((scene, i) => ({ type: scene.type, musicType: scene.musicType, seconds: Math.max(0, (edit.segments[i]?.end ?? 0) - (edit.segments[i]?.start ?? 0)) })),
    settings: { musicType: settings.musicType, style: settings.style, autoduck: !!settings.autoduck, intro_mode: settings.intro_mode, outro_mode: settings.outro_mode },
    outcome,
  });
  const songId = chosen.song.id;
  const factory: MusicBedFactory = async (bedCtx) => {
    try {
      return await bed(bedCtx);
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      // A song that will not decode must not cost the user their render: it is made without music.
      deps.log.warn({ projectId: project.id, songId, err: error }, "music bed failed; rendering without music");
      return null;
    }
  };
  return { factory, outcome, songId };
}
