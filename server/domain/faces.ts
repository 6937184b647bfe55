/**
 * Issue 17: faces found on sparse samples of a video, followed from sample to sample (tracks), and the crop
 * window that keeps the chosen ones in the picture over a scene without jitter. Pure; fractions (0…1) of the
 * frame throughout, times in seconds of the media file.
 */
import type { Point, Rect } from "./framing";

/** One face found on one sample. */
export interface Detection extends Rect {
  score: number;
}

export interface FaceSample {
  t: number;
  faces: readonly Detection[];
}

/** A face followed across samples: its box at each sample it was seen on (time order). */
export interface FaceTrack {
  id: number;
  points: TrackPoint[];
}

export interface TrackPoint extends Rect {
  t: number;
}

export const TRACKING = Object.freeze({
  /** A face unseen for longer than this (s) ends its track; a later one starts a new track. */
  maxGapSeconds: 2,
  /** A detection continues a track when their boxes overlap this much (intersection over union)… */
  minIou: 0.2,
  /** …or when its centre is this close to the track's, in widths of the track's box (a face walking fast moves a width between samples). */
  maxCentreDistance: 1.5,
  /** Tracks seen on fewer samples are dropped as false finds, unless the media had fewer samples than this. */
  minPoints: 2,
});

export function iou(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.w * a.h + b.w * b.h - inter);
}

const centre = (r: Rect): Point => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });

/**
 * Follows faces across samples: each detection goes to the live track it overlaps most (IoU), or whose centre
 * is nearest within `maxCentreDistance` box widths; the best pairs are taken first, one detection per track.
 */
export function trackFaces(samples: readonly FaceSample[], options: Partial<typeof TRACKING> = {}): FaceTrack[] {
  const o = { ...TRACKING, ...options };
  const tracks: FaceTrack[] = [];
  for (const sample of [...samples].sort((a, b) => a.t - b.t)) {
    const live = tracks.filter((tr) => sample.t - tr.points[tr.points.length - 1]!.t <= o.maxGapSeconds);
    const pairs: { track: FaceTrack; index: number; score: number }[] = [];
    sample.faces.forEach((face, index) => {
      for (const track of live) {
        const last = track.points[track.points.length - 1]!;
        const overlap = iou(last, face);
        const a = centre(last);
        const b = centre(face);
        const distance = Math.hypot(a.x - b.x, a.y - b.y) / Math.max(last.w, face.w, 1e-6);
        // Overlap ranks first; a centre match ranks below any overlap, nearer first.
        if (overlap >= o.minIou) pairs.push({ track, index, score: 1 + overlap });
        else if (distance <= o.maxCentreDistance) pairs.push({ track, index, score: 1 - distance / (o.maxCentreDistance + 1) });
      }
    });
    pairs.sort((p, q) => q.score - p.score);
    const usedTracks = new Set<FaceTrack>();
    const usedFaces = new Set<number>();
    for (const pair of pairs) {
      if (usedTracks.has(pair.track) || usedFaces.has(pair.index)) continue;
      usedTracks.add(pair.track);
      usedFaces.add(pair.index);
      pair.track.points.push(pointOf(sample.t, sample.faces[pair.index]!));
    }
    sample.faces.forEach((face, index) => {
      if (!usedFaces.has(index)) tracks.push({ id: 0, points: [pointOf(sample.t, face)] });
    });
  }
  const kept = samples.length < o.minPoints * 2 ? tracks : tracks.filter((tr) => tr.points.length >= o.minPoints);
  return kept.map((tr, i) => ({ id: i + 1, points: tr.points }));
}

/** Tracks as stored: each point [t, x, y, w, h]. */
export type StoredTracks = { id: number; points: [number, number, number, number, number][] }[];

export function compact(tracks: readonly FaceTrack[]): StoredTracks {
  return tracks.map((tr) => ({ id: tr.id, points: tr.points.map((p) => [p.t, p.x, p.y, p.w, p.h] as [number, number, number, number, number]) }));
}

export function expand(stored: string): FaceTrack[] {
  try {
    const parsed = JSON.parse(stored) as StoredTracks;
    return parsed.map((tr) => ({ id: tr.id, points: tr.points.map(([t, x, y, w, h]) => ({ t, x, y, w, h })) }));
  } catch {
    return [];
  }
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
function pointOf(t: number, r: Rect): TrackPoint {
  const x = clamp01(r.x);
  const y = clamp01(r.y);
  return { t: Math.round(t * 1000) / 1000, x: round4(x), y: round4(y), w: round4(Math.min(r.w, 1 - x)), h: round4(Math.min(r.h, 1 - y)) };
}

const clamp01 = (v: number) => Math.min(Math.max(v, 0), 1);
const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), Math.max(min, max));

/** The track's box at `t`: between two samples linearly, before the first or after the last the nearest one. */
export function boxAt(track: FaceTrack, t: number): Rect | null {
  const points = track.points;
  if (points.length === 0) return null;
  if (t <= points[0]!.t) return points[0]!;
  const last = points[points.length - 1]!;
  if (t >= last.t) return last;
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  const a = points[lo]!;
  const b = points[hi]!;
  const f = b.t > a.t ? (t - a.t) / (b.t - a.t) : 0;
  return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, w: a.w + (b.w - a.w) * f, h: a.h + (b.h - a.h) * f };
}

/** The points of a track inside [from, to] (with the samples just outside when none falls inside). */
export function pointsWithin(track: FaceTrack, from: number, to: number): TrackPoint[] {
  return track.points.filter((p) => p.t >= from && p.t <= to);
}

/** A face of a scene: a track seen during it, its typical box there (median) and how much of the scene it is in. */
export interface SceneFace {
  track: number;
  box: Rect;
  /** Share of the scene's samples the face was seen on. */
  presence: number;
  /** The sample whose box is nearest the typical one: where a thumbnail is cut from. */
  at: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** The faces seen in [from, to] of the media, biggest and most present first. */
export function facesOfRange(tracks: readonly FaceTrack[], sampleFps: number, from: number, to: number): SceneFace[] {
  const expected = Math.max(1, Math.round((to - from) * sampleFps));
  return tracks
    .flatMap((track): SceneFace[] => {
      const points = pointsWithin(track, from, to);
      if (points.length === 0) return [];
      const box = { x: median(points.map((p) => p.x)), y: median(points.map((p) => p.y)), w: median(points.map((p) => p.w)), h: median(points.map((p) => p.h)) };
      const nearest = points.reduce((best, p) => (Math.abs(p.x - box.x) + Math.abs(p.y - box.y) < Math.abs(best.x - box.x) + Math.abs(best.y - box.y) ? p : best));
      return [{ track: track.id, box, presence: Math.min(1, points.length / expected), at: nearest.t }];
    })
    .sort((a, b) => b.box.w * b.box.h * b.presence - a.box.w * a.box.h * a.presence);
}

/** A key of the crop window's path: its top-left corner at `t` (s from the segment's start); linear in between. */
export interface CropKey {
  t: number;
  x: number;
  y: number;
}

export const SMOOTHING = Object.freeze({
  /** Room kept around the faces inside the window, in face widths (heights for y). */
  margin: 0.15,
  /** A move shorter than this share of the frame is not made (no twitch), unless a face would be cut. */
  minMove: 0.02,
});

export interface FollowInput {
  /** The window's size (fractions of the frame), fixed for the scene: the aspect crop and the punch-in. */
  size: { w: number; h: number };
  /** Where the window may go (the aspect crop when punching in inside it; else the whole frame). */
  within: Rect;
  /** Tracks to keep in the picture (their boxes over time) and still boxes (drawn by hand). */
  tracks: readonly FaceTrack[];
  boxes: readonly Rect[];
  /** The scene's span in the media (s) and the sample times to decide at. */
  from: number;
  to: number;
  sampleFps: number;
}

/** The faces' union at `t`, or when it does not fit the window the first (most important) face alone. */
function focusBox(input: FollowInput, t: number): Rect | null {
  const boxes = [...input.tracks.map((tr) => boxAt(tr, t)).filter((b): b is Rect => b !== null), ...input.boxes];
  if (boxes.length === 0) return null;
  const union = unionOf(boxes);
  if (union.w <= input.size.w && union.h <= input.size.h) return union;
  return boxes[0]!;
}

function unionOf(boxes: readonly Rect[]): Rect {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return { x, y, w: Math.max(...boxes.map((b) => b.x + b.w)) - x, h: Math.max(...boxes.map((b) => b.y + b.h)) - y };
}

/**
 * Positions (one axis) where a window of `size` in [lo, hi] keeps [a, a + len] inside with `margin` on each side;
 * when the face (with its margin) is larger than the window, the one position that centres it.
 */
function allowed(a: number, len: number, margin: number, size: number, lo: number, hi: number): [number, number] {
  const min = clamp(a + len + margin - size, lo, hi - size);
  const max = clamp(a - margin, lo, hi - size);
  if (min <= max) return [min, max];
  const centred = clamp(a + len / 2 - size / 2, lo, hi - size);
  return [centred, centred];
}

/**
 * The window's path over a scene: it stays still while the faces stay inside it (with a margin), and when they
 * would leave it moves in one straight stretch between two samples to centre them again, so it moves only when
 * the speaker does, never by less than `minMove`, and never cuts a face that fits. Every sample's faces are
 * known beforehand (the whole file was analysed), so a move starts early enough to be done by the sample that
 * needs it. Null when no face is known over the scene (the caller centres as before).
 */
export function followFaces(input: FollowInput, options: Partial<typeof SMOOTHING> = {}): CropKey[] | null {
  const o = { ...SMOOTHING, ...options };
  const step = 1 / Math.max(0.1, input.sampleFps);
  const times: number[] = [];
  for (let t = input.from; t < input.to; t += step) times.push(t);
  times.push(input.to);
  const focus = times.map((t) => focusBox(input, t));
  if (focus.every((f) => f === null)) return null;
  // Samples without a face hold the nearest one's focus.
  const filled = focus.map((f, i) => f ?? nearest(focus, i)!);
  const { w, h } = input.size;
  const within = input.within;
  const axis = (pick: (r: Rect) => [number, number], size: number, lo: number, hi: number) => {
    const ranges = filled.map((f) => {
      const [a, len] = pick(f);
      return allowed(a, len, len * o.margin, size, lo, hi);
    });
    const positions: number[] = [];
    ranges.forEach(([min, max], i) => {
      const before = positions[i - 1];
      // The window centred on the faces, as far as they and the frame allow: a punch-in goes towards them.
      const [a, len] = pick(filled[i]!);
      const centred = clamp(a + len / 2 - size / 2, min, max);
      if (before === undefined) return positions.push(centred);
      if (before >= min - 1e-9 && before <= max + 1e-9) return positions.push(before);
      // Out of the allowed range: centre the faces again (a move of at least minMove where the range allows).
      let next = centred;
      if (Math.abs(next - before) < o.minMove) next = clamp(before + Math.sign(next - before) * o.minMove, min, max);
      return positions.push(next);
    });
    return positions;
  };
  const xs = w >= within.w - 1e-9 ? times.map(() => within.x) : axis((f) => [f.x, f.w], w, within.x, within.x + within.w);
  const ys = h >= within.h - 1e-9 ? times.map(() => within.y) : axis((f) => [f.y, f.h], h, within.y, within.y + within.h);
  // Keys only where the window changes course: the start, then both ends of every move.
  const keys: CropKey[] = [];
  times.forEach((t, i) => {
    const key = { t: round3(t - input.from), x: round4(xs[i]!), y: round4(ys[i]!) };
    const prev = keys[keys.length - 1];
    const next = i + 1 < times.length ? { x: round4(xs[i + 1]!), y: round4(ys[i + 1]!) } : null;
    const still = prev && prev.x === key.x && prev.y === key.y;
    const willMove = next && (next.x !== key.x || next.y !== key.y);
    if (!prev || !still || willMove) keys.push(key);
  });
  return keys;
}

function nearest<T>(values: readonly (T | null)[], index: number): T | null {
  for (let d = 1; d < values.length; d++) {
    const before = values[index - d];
    if (before) return before;
    const after = values[index + d];
    if (after) return after;
  }
  return null;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** The window's corner at `t` (s from the segment's start) on a path. */
export function windowAt(keys: readonly CropKey[], t: number): Point {
  if (keys.length === 0) return { x: 0, y: 0 };
  if (t <= keys[0]!.t) return keys[0]!;
  for (let i = 1; i < keys.length; i++) {
    const a = keys[i - 1]!;
    const b = keys[i]!;
    if (t <= b.t) {
      const f = b.t > a.t ? (t - a.t) / (b.t - a.t) : 1;
      return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
    }
  }
  return keys[keys.length - 1]!;
}

/**
 * The path as an ffmpeg expression of `t` for one axis, scaled by `scale` (`iw` or `ih`): the first position
 * plus one clipped ramp per move, a flat sum (no nesting however many moves). Commas are escaped for a
 * filtergraph.
 */
export function pathExpression(keys: readonly CropKey[], axis: "x" | "y", scale: string): string {
  const first = keys[0]?.[axis] ?? 0;
  const terms = [fixed(first)];
  for (let i = 1; i < keys.length; i++) {
    const a = keys[i - 1]!;
    const b = keys[i]!;
    const delta = b[axis] - a[axis];
    const span = b.t - a.t;
    if (delta === 0) continue;
    if (span <= 0) terms.push(`${fixed(delta)}*gte(t\\,${fixed(a.t)})`);
    else terms.push(`${fixed(delta / span)}*clip(t-${fixed(a.t)}\\,0\\,${fixed(span)})`);
  }
  return `${scale}*(${terms.join("+").replace(/\+-/g, "-")})`;
}

const fixed = (v: number) => String(Math.round(v * 1e6) / 1e6);
