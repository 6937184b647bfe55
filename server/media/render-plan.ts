import { outputSize, sameAspect, type Rect } from "../domain/framing";
import type { CropKey } from "../domain/faces";
import type { MediaInfo, MediaKind } from "./probe";

/** One piece of the edit list: [start, end) of a file, in seconds. For an image, end − start is how long it shows. */
export interface EditSegment {
  file: string;
  kind: MediaKind;
  start: number;
  end: number;
  /** Gain on the segment's sound (SPEC §9 footage levels); 1 when absent. */
  volume?: number;
  /** The part of the picture to show, in fractions of the source frame (punch-in, crop to aspect); whole when absent. */
  crop?: Rect;
  /** Issue 17: where `crop` (its size kept) moves over the segment to follow faces; s from the segment's start. */
  cropPath?: CropKey[];
}

/** SPEC §9 Overlay types. */
export type OverlayPlacement = "fullscrn" | "autozoom" | "pip_tl" | "pip_tr" | "pip_bl" | "pip_br";

/** A picture shown over the edit list: a piece of a video, or a still. Its sound is never mixed in. */
export interface OverlayClip {
  file: string;
  /** Where it starts in its file (s); ignored for a still. */
  start: number;
  /** How long it runs (s); Infinity for "as long as its segments". */
  seconds: number;
  /** It starts with segment `fromSegment` of the edit list and ends before `untilSegment` at the latest. */
  fromSegment: number;
  untilSegment: number;
  placement: OverlayPlacement;
  /** Fades in and out. */
  fade: boolean;
  /** Black behind it instead of the main picture. */
  hideMain: boolean;
}

export type AudioVisual = "color" | "waves";

export const RENDER_DEFAULTS = Object.freeze({
  fps: 30,
  sampleRate: 48_000,
  /** 720p at most: the short side ≤ 720 and the long side ≤ 1280. */
  maxShortSide: 720,
  maxLongSide: 1280,
  /** Canvas when the edit list has no picture at all. */
  audioOnlyWidth: 640,
  audioOnlyHeight: 360,
  /** Long enough to hide the click of a cut, short enough not to smear words. */
  crossfadeSeconds: 0.06,
  crf: 23,
  preset: "veryfast",
  audioBitrate: "128k",
  background: "0x111018",
  waveColour: "0x8a7dff",
  audioVisual: "waves" as AudioVisual,
});

export class EmptyEditListError extends Error {
  constructor() {
    super("The edit list has no segment long enough to render");
    this.name = "EmptyEditListError";
  }
}

export interface PlannedSegment {
  file: string;
  kind: MediaKind;
  hasAudio: boolean;
  start: number;
  frames: number;
  /** Audio samples that belong to this segment's frames. */
  samples: number;
  /** Extra samples taken before / after the segment for the crossfades at its cuts. */
  leadSamples: number;
  tailSamples: number;
  volume: number;
  crop?: Rect;
  cropPath?: CropKey[];
  /** The (cropped) picture already has the canvas's aspect: scale it to the canvas rather than letterbox it. */
  fill: boolean;
  /** The whole picture is already the canvas's size: nothing to scale or pad (issue 13: no filter that does nothing). */
  native?: boolean;
}

export interface PlannedOverlay {
  file: string;
  kind: "video" | "image";
  /** Source second of this pass's first overlay frame. */
  start: number;
  /** Output frame it starts at, and how many frames it shows in this pass. */
  fromFrame: number;
  frames: number;
  /** The whole overlay's length and how much of it earlier passes showed (its fades belong to the whole). */
  totalFrames: number;
  skipFrames: number;
  placement: OverlayPlacement;
  fade: boolean;
  hideMain: boolean;
}

export interface RenderPlan {
  segments: PlannedSegment[];
  /** Crossfade length in samples at each cut (0 = hard cut); `segments.length − 1` entries. */
  fades: number[];
  overlays: PlannedOverlay[];
  fps: number;
  sampleRate: number;
  width: number;
  height: number;
}

export interface PlanSettings {
  fps: number;
  sampleRate: number;
  crossfadeSamples: number;
  maxShortSide: number;
  maxLongSide: number;
  /** The output's aspect (width / height); the first picture's when absent. */
  aspect?: number | null;
}

/**
 * Frame counts from cumulative rounding (no drift over hundreds of cuts), sample counts from the
 * same frame edges (so audio and video totals agree exactly), and crossfade halves at each cut.
 */
export function planRender(
  segments: readonly EditSegment[],
  probes: ReadonlyMap<string, MediaInfo>,
  settings: PlanSettings,
  overlayClips: readonly OverlayClip[] = [],
): RenderPlan {
  const planned: PlannedSegment[] = [];
  const canvasSize = outputSize(canvas(segments, probes, settings), settings.aspect ?? null, settings);
  /** The output frame each edit-list segment starts at (dropped ones included), then the total. */
  const edges: number[] = [];
  let seconds = 0;
  let frameEdge = 0;
  for (const segment of segments) {
    edges.push(frameEdge);
    const info = probes.get(segment.file);
    if (!info) throw new Error(`No probe for ${segment.file}`);
    // A start past the end of the file still yields a (held) frame rather than an empty stream.
    const start = Math.min(Math.max(0, segment.start), lastFrameAt(info, settings.fps));
    seconds += Math.max(0, segment.end - Math.max(0, segment.start));
    const nextEdge = Math.round(seconds * settings.fps);
    const frames = nextEdge - frameEdge;
    if (frames <= 0) continue;
    const samples = samplesAt(nextEdge, settings) - samplesAt(frameEdge, settings);
    frameEdge = nextEdge;
    const kind = effectiveKind(segment, info);
    const crop = kind === "audio" ? undefined : segment.crop;
    planned.push({
      file: segment.file,
      kind,
      hasAudio: info.hasAudio,
      start,
      frames,
      samples,
      leadSamples: 0,
      tailSamples: 0,
      volume: Math.max(0, segment.volume ?? 1),
      crop,
      ...(crop && segment.cropPath && segment.cropPath.length > 1 ? { cropPath: segment.cropPath } : {}),
      fill: fillsCanvas(info, crop, canvasSize),
      native: kind === "video" && !crop && info.width === canvasSize.width && info.height === canvasSize.height,
    });
  }
  edges.push(frameEdge);
  if (planned.length === 0) throw new EmptyEditListError();
  const fades = planned.slice(1).map((next, i) => crossfadeAt(planned[i], next, settings));
  fades.forEach((fade, i) => {
    const before = planned[i];
    const after = planned[i + 1];
    if (before) before.tailSamples = fade / 2;
    if (after) after.leadSamples = fade / 2;
  });
  const overlays = planOverlays(overlayClips, edges, probes, settings.fps);
  return { segments: planned, fades, overlays, fps: settings.fps, sampleRate: settings.sampleRate, ...canvasSize };
}

function lastFrameAt(info: MediaInfo, fps: number): number {
  return info.kind === "image" ? 0 : Math.max(0, info.durationSeconds - 1 / fps);
}

function samplesAt(frameEdge: number, settings: PlanSettings): number {
  return Math.round((frameEdge * settings.sampleRate) / settings.fps);
}

/**
 * Even (two equal halves), never longer than either neighbour (no fade reaches past the next cut),
 * and, between two pieces of one file, never longer than the source gap between them: their audio
 * windows stay disjoint, and a cut with no gap is already seamless.
 */
function crossfadeAt(before: PlannedSegment | undefined, after: PlannedSegment, settings: PlanSettings): number {
  if (!before) return 0;
  let limit = Math.min(settings.crossfadeSamples, before.samples, after.samples);
  const beforeEnd = before.start + before.frames / settings.fps;
  if (before.file === after.file && after.kind !== "image" && after.start >= beforeEnd) {
    limit = Math.min(limit, Math.floor((after.start - beforeEnd) * settings.sampleRate));
  }
  return Math.max(0, limit - (limit % 2));
}

/** The file's content decides; a video may still be used for its sound only when the caller says "audio". */
function effectiveKind(segment: EditSegment, info: MediaInfo): MediaKind {
  return info.kind === "video" && segment.kind === "audio" && info.hasAudio ? "audio" : info.kind;
}

/** A picture cropped to the canvas's aspect is scaled to it exactly (a letterbox would leave a pixel line). */
function fillsCanvas(info: MediaInfo, crop: Rect | undefined, size: { width: number; height: number }): boolean {
  if (!crop || !info.width || !info.height) return false;
  return sameAspect((info.width * crop.w) / (info.height * crop.h), size.width / size.height);
}

/**
 * The first video's aspect (else the first still's), fitted into 720p; a fixed canvas when there is
 * no picture. A still intro does not make a landscape talk portrait.
 */
function canvas(segments: readonly EditSegment[], probes: ReadonlyMap<string, MediaInfo>, settings: PlanSettings): { width: number; height: number } {
  const pictures = segments.map((s) => probes.get(s.file)).filter((info) => info && info.kind !== "audio" && info.width && info.height);
  const first = pictures.find((info) => info?.kind === "video") ?? pictures[0];
  if (!first?.width || !first.height) return { width: RENDER_DEFAULTS.audioOnlyWidth, height: RENDER_DEFAULTS.audioOnlyHeight };
  const short = Math.min(first.width, first.height);
  const long = Math.max(first.width, first.height);
  const scale = Math.min(1, settings.maxShortSide / short, settings.maxLongSide / long);
  return { width: even(first.width * scale), height: even(first.height * scale) };
}

export function even(value: number): number {
  return Math.max(2, 2 * Math.round(value / 2));
}

/**
 * Overlays in output frames: from their first segment's start, for their length, never past their
 * last segment, and one at a time (an overlay ends where the next one begins). Sound-only files
 * have no picture to show and are left out.
 */
function planOverlays(clips: readonly OverlayClip[], edges: readonly number[], probes: ReadonlyMap<string, MediaInfo>, fps: number): PlannedOverlay[] {
  const edgeAt = (index: number) => edges[Math.min(Math.max(0, index), edges.length - 1)] ?? 0;
  const planned = clips
    .flatMap((clip): PlannedOverlay[] => {
      const info = probes.get(clip.file);
      if (!info || info.kind === "audio") return [];
      const fromFrame = edgeAt(clip.fromSegment);
      const frames = Math.min(Math.round(clip.seconds * fps), edgeAt(clip.untilSegment) - fromFrame);
      if (!(frames > 0)) return [];
      const start = Math.min(Math.max(0, clip.start), lastFrameAt(info, fps));
      return [{ file: clip.file, kind: info.kind, start, fromFrame, frames, totalFrames: frames, skipFrames: 0, placement: clip.placement, fade: clip.fade, hideMain: clip.hideMain }];
    })
    .sort((a, b) => a.fromFrame - b.fromFrame);
  planned.forEach((overlay, i) => {
    const next = planned[i + 1];
    if (next) overlay.frames = overlay.totalFrames = Math.min(overlay.frames, next.fromFrame - overlay.fromFrame);
  });
  return planned.filter((overlay) => overlay.frames > 0);
}
