import { z } from "zod";
import { FaceBox, OverlayType } from "../../api/scenes";
import type { ProjectSettings } from "../../api/projects";
import type { Db } from "../db";
import type { MediaRow } from "../db/media";
import type { ProjectRow } from "../db/projects";
import { overlaysOf, visibleScenes, type SceneRow } from "../db/scenes";
import { footageVolume } from "../domain/audio";
import { aspectRatio, punchIns, sceneFraming, type Rect } from "../domain/framing";
import { expand, facesOfRange, followFaces, type CropKey, type FaceTrack } from "../domain/faces";
import { renderOrder } from "../domain/sequence";
import { probe, type MediaInfo, type MediaKind } from "../media/probe";
import type { EditSegment, OverlayClip } from "../media/render";
import type { FileStore } from "../storage/local";

/** What a render needs from the storyboard: the edit list, the overlays over it and the output's aspect. */
export interface RenderEdit {
  segments: EditSegment[];
  overlays: OverlayClip[];
  aspect: number | null;
  /** Some scene zoomed in by automatic punch-in (for the Highlights). */
  autoPunchIn: boolean;
  outputSeconds: number;
  /** Issue 15: each segment's scene (type and music level), for the music bed; issue 17: whether it zoomed in. */
  scenes: { id: number; type: string; musicType: string; zoomed: boolean }[];
}

/** A scene's source file, as the render reads it. */
export interface SourceFile {
  file: string;
  kind: MediaKind;
  info: MediaInfo;
  /** Issue 17: the faces found in the file (media_faces), which the framing follows. */
  faces?: { fps: number; tracks: FaceTrack[] };
}

export type RenderSettings = Pick<ProjectSettings, "mute_videos" | "autopunchin" | "autocrop" | "aspect">;

const Faces = z.array(FaceBox);
const DEFAULT_OVERLAY_TYPE: OverlayType = "fullscrn";

function facesOf(row: SceneRow) {
  try {
    const parsed = Faces.safeParse(JSON.parse(row.selected_faces));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/**
 * The storyboard as a render (SPEC §3 Scene): shown main scenes with intro first and outro last,
 * each with its footage level, punch-in and crop to the project's aspect, and each overlay over
 * its scene (or, with overflow, over the following ones until the clip ends). Pure.
 */
export function buildRenderEdit(
  mainScenes: readonly SceneRow[],
  overlayRows: ReadonlyMap<number, SceneRow>,
  files: ReadonlyMap<number, SourceFile>,
  settings: Partial<RenderSettings>,
): RenderEdit {
  const aspect = aspectRatio(settings.aspect);
  const shown = renderOrder(mainScenes.filter((s) => s.parent_scene_id === null && s.visibility === 1)).flatMap((scene) => {
    const source = scene.media_file_id === null ? undefined : files.get(scene.media_file_id);
    return source ? [{ scene, source }] : [];
  });
  // A jump cut is two pieces of one video in a row; a still or a sound makes none.
  const zoomed = punchIns(
    shown.map(({ scene, source }) => ({ source: source.info.kind === "video" ? scene.media_file_id : null, punchIn: scene.punch_in })),
    !!settings.autopunchin,
  );
  const segments = shown.map(({ scene, source }, i): EditSegment => {
    const framing = source.info.width && source.info.height && source.kind !== "audio" ? followedFraming(scene, source, aspect, !!settings.autocrop || !!scene.crop, !!zoomed[i]) : undefined;
    return {
      file: source.file,
      kind: source.kind,
      start: scene.trim_start,
      end: scene.trim_end,
      volume: footageVolume(scene.media_audio, settings.mute_videos),
      ...(framing?.crop ? { crop: framing.crop } : {}),
      ...(framing?.path ? { cropPath: framing.path } : {}),
    };
  });
  const overlays = shown.flatMap(({ scene }, i): OverlayClip[] => {
    const row = overlayRows.get(scene.id);
    const source = row?.media_file_id == null ? undefined : files.get(row.media_file_id);
    if (!row || !source || source.info.kind === "audio") return [];
    const overflow = scene.overscene_overflow === 1;
    const clipSeconds = Math.max(0, row.trim_end - row.trim_start);
    const sceneSeconds = Math.max(0, scene.trim_end - scene.trim_start);
    // A still has no length of its own: it covers its scene, and with overflow at least its own length.
    const seconds = source.info.kind === "image" ? (overflow ? Math.max(clipSeconds, sceneSeconds) : Number.POSITIVE_INFINITY) : clipSeconds;
    const placement = OverlayType.safeParse(scene.overscene_type);
    return [
      {
        file: source.file,
        start: row.trim_start,
        seconds,
        fromSegment: i,
        untilSegment: overflow ? shown.length : i + 1,
        placement: placement.success ? placement.data : DEFAULT_OVERLAY_TYPE,
        fade: scene.overscene_fade === 1,
        hideMain: scene.overscene_bg === 1,
      },
    ];
  });
  return {
    segments,
    overlays,
    aspect,
    autoPunchIn: shown.some(({ scene }, i) => zoomed[i] && scene.punch_in === 1),
    outputSeconds: segments.reduce((sum, s) => sum + Math.max(0, s.end - s.start), 0),
    scenes: shown.map(({ scene }, i) => ({ id: scene.id, type: scene.type, musicType: scene.music_type, zoomed: !!zoomed[i] })),
  };
}

/**
 * Issue 17: a scene's window (aspect crop and punch-in) and, for a video whose faces were found, its path over the
 * scene: it follows the chosen faces (a picked face follows its track; a box drawn by hand stays put), or the
 * largest face found when none is chosen, and keeps still while they stay inside it (domain/faces.ts followFaces).
 */
export function followedFraming(scene: SceneRow, source: SourceFile, aspect: number | null, crop: boolean, zoom: boolean): { crop?: Rect; path?: CropKey[] } {
  const selected = facesOf(scene);
  const shown = selected.filter((f) => f.visibility === 1);
  const tracks = source.faces?.tracks ?? [];
  const byId = new Map(tracks.map((t) => [t.id, t]));
  let chosenTracks = shown.flatMap((f) => (f.track !== undefined && byId.has(f.track) ? [byId.get(f.track)!] : []));
  const drawn = shown.filter((f) => f.track === undefined || !byId.has(f.track));
  // No face chosen (none shown at all): the largest face seen during the scene.
  if (shown.length === 0 && source.faces) {
    const largest = facesOfRange(tracks, source.faces.fps, scene.trim_start, scene.trim_end)[0];
    if (largest) chosenTracks = [byId.get(largest.track)!];
  }
  const { width, height } = source.info;
  const still = sceneFraming({ width: width!, height: height!, faces: drawn.length || !chosenTracks.length ? drawn : [], aspect, crop, zoom });
  if (!still || chosenTracks.length === 0 || source.info.kind !== "video" || !source.faces) return { crop: still };
  const path = followFaces({
    size: { w: still.w, h: still.h },
    within: { x: 0, y: 0, w: 1, h: 1 },
    tracks: chosenTracks,
    boxes: drawn.map((f) => ({ x: f.BoundingBox.Left, y: f.BoundingBox.Top, w: f.BoundingBox.Width, h: f.BoundingBox.Height })),
    from: scene.trim_start,
    to: scene.trim_end,
    sampleFps: source.faces.fps,
  });
  if (!path || path.length === 0) return { crop: still };
  const first = path[0]!;
  const rect = { x: first.x, y: first.y, w: still.w, h: still.h };
  return path.length > 1 ? { crop: rect, path } : { crop: rect };
}

/**
 * A stored file's probe: read with the demuxer its upload's probe found (never detected again), and
 * with the length measured from its packets then, which every ffmpeg run on it is capped by.
 */
export async function storedMediaInfo(file: string, row: Pick<MediaRow, "container" | "duration_seconds">, options: { signal?: AbortSignal } = {}): Promise<MediaInfo> {
  const measuredSeconds = row.duration_seconds > 0 ? row.duration_seconds : undefined;
  const info = await probe(file, { format: row.container ?? undefined, measuredSeconds, signal: options.signal });
  return info.kind === "image" || !(row.duration_seconds > 0) ? info : { ...info, durationSeconds: row.duration_seconds };
}

/** Loads the project's scenes, overlays and their files (the owner's only) and builds its render. */
export async function loadRenderEdit(db: Db, store: FileStore, project: ProjectRow, options: { signal?: AbortSignal; aspect?: ProjectSettings["aspect"]; crop?: boolean } = {}) {
  // A final render's request may name an aspect of its own (SPEC §7 render), and crop or pad to it; else the project's.
  const settings = {
    ...(JSON.parse(project.settings) as Partial<RenderSettings>),
    ...(options.aspect !== undefined ? { aspect: options.aspect } : {}),
    ...(options.crop !== undefined ? { autocrop: options.crop ? (1 as const) : (0 as const) } : {}),
  };
  const [mainScenes, overlayRows] = await Promise.all([visibleScenes(db, project.id), overlaysOf(db, project.id)]);
  const ids = [...new Set([...mainScenes, ...overlayRows.values()].map((s) => s.media_file_id).filter((id): id is number => id !== null))];
  const media = ids.length
    ? await db.selectFrom("media_files").select(["id", "kind", "storage_key", "container", "duration_seconds"]).where("id", "in", ids).where("user_id", "=", project.user_id).execute()
    : [];
  const faceRows = media.length ? await db.selectFrom("media_faces").selectAll().where("media_file_id", "in", media.map((m) => m.id)).execute() : [];
  const facesById = new Map(faceRows.map((f) => [f.media_file_id, { fps: f.sample_fps, tracks: expand(f.tracks) }]));
  const files = new Map<number, SourceFile>();
  await Promise.all(
    media.map(async (m) => {
      const file = await store.fetch(m.storage_key, options.signal);
      const faces = facesById.get(m.id);
      files.set(m.id, { file, kind: m.kind, info: await storedMediaInfo(file, m, options), ...(faces ? { faces } : {}) });
    }),
  );
  const edit = buildRenderEdit(mainScenes, overlayRows, files, settings);
  const probes = new Map([...files.values()].map((f) => [f.file, f.info]));
  return { edit, probes };
}
