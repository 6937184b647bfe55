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
  /**
   * …or when its centre is this close to the track's, or to where the track was heading, in widths of the track's
   * box (a face crossing the frame in 2 s moves two widths between samples, and turns between them).
   */
  maxCentreDistance: 2.5,
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

/** Where a track's centre would be at `t` going on at the speed between its last two points. */
function heading(track: FaceTrack, t: number): Point {
  const last = track.points[track.points.length - 1]!;
  const before = track.points[track.points.length - 2];
  const c = centre(last);
  if (!before || last.t <= before.t) return c;
  const p = centre(before);
  const f = (t - last.t) / (last.t - before.t);
  return { x: c.x + (c.x - p.x) * f, y: c.y + (c.y - p.y) * f };
}

/**
 * Follows faces across samples: each detection goes to the live track it overlaps most (IoU), or whose centre
 * (where it was, or where it was heading at its last speed) is nearest within `maxCentreDistance` box widths; the
 * best pairs are taken first, one detection per track.
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
        const ahead = heading(track, sample.t);
        const b = centre(face);
        const distance = Math.min(Math.hypot(a.x - b.x, a.y - b.y), Math.hypot(ahead.x - b.x, ahead.y - b.y)) / Math.max(last.w, face.w, 1e-6);
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

/** The indices of the two samples around `t` (first.t < t < last.t), by bisection. */
function bracket(points: readonly { t: number }[], t: number): [number, number] {
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  return [lo, hi];
}

/** The track's box at `t`: between two samples linearly, before the first or after the last the nearest one. */
export function boxAt(track: FaceTrack, t: number): Rect | null {
  const points = track.points;
  if (points.length === 0) return null;
  if (t <= points[0]!.t) return points[0]!;
  const last = points[points.length - 1]!;
  if (t >= last.t) return last;
  const [lo, hi] = bracket(points, t);
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
  /** The path is decided this many times per sample interval (between samples the face is interpolated). */
  ticksPerSample: 5,
  /** A move lasts at most this many sample intervals, about half of it before the moment it is needed. */
  rampSamples: 1,
});

export interface FollowInput {
  /** The window's size (fractions of the frame), fixed for the scene: the aspect crop and the punch-in. */
  size: { w: number; h: number };
  /** Where the window may go (the aspect crop when punching in inside it; else the whole frame). */
  within: Rect;
  /** Tracks to keep in the picture (their boxes over time) and still boxes (drawn by hand). */
  tracks: readonly FaceTrack[];
  boxes: readonly Rect[];
  /** The scene's span in the media (s) and the detector's samples a second. */
  from: number;
  to: number;
  sampleFps: number;
}

/** Where something is on one axis: from `lo` to `hi` (fractions of the frame). */
type Span = [lo: number, hi: number];

const slope = (a: TrackPoint, b: TrackPoint, edge: (r: Rect) => number) => (edge(b) - edge(a)) / Math.max(b.t - a.t, 1e-6);

/**
 * Where one edge of a track's box can be at `t`. Between two samples: from the straight line joining them to the
 * corner path their neighbours' speeds draw (a face that turns between two samples overshoots their chord, by at
 * most a quarter of the interval times the change of speed). Before the first and after the last sample: from
 * holding still to going on at the speed it had, for at most `reach` seconds.
 */
function edgeSpan(points: readonly TrackPoint[], t: number, edge: (r: Rect) => number, reach: number): Span {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const outside = (p: TrackPoint, speed: number, dt: number): Span => {
    const moved = edge(p) + speed * Math.min(dt, reach);
    return [Math.min(edge(p), moved), Math.max(edge(p), moved)];
  };
  if (t <= first.t) return outside(first, points.length > 1 ? -slope(first, points[1]!, edge) : 0, first.t - t);
  if (t >= last.t) return outside(last, points.length > 1 ? slope(points[points.length - 2]!, last, edge) : 0, t - last.t);
  const [lo, hi] = bracket(points, t);
  const a = points[lo]!;
  const b = points[hi]!;
  const dt = b.t - a.t;
  const chordSpeed = slope(a, b, edge);
  const before = lo > 0 ? slope(points[lo - 1]!, a, edge) : chordSpeed;
  const after = hi + 1 < points.length ? slope(b, points[hi + 1]!, edge) : chordSpeed;
  const chord = edge(a) + chordSpeed * (t - a.t);
  const goingOn = edge(a) + before * (t - a.t);
  const comingIn = edge(b) - after * (b.t - t);
  const cap = (dt * (Math.abs(before - chordSpeed) + Math.abs(chordSpeed - after))) / 4;
  const corner = clamp(before > after ? Math.min(goingOn, comingIn) : Math.max(goingOn, comingIn), chord - cap, chord + cap);
  return [Math.min(chord, corner), Math.max(chord, corner)];
}

/** The region a track's face can be in at `t` (see edgeSpan), as a box. */
function trackSpan(track: FaceTrack, t: number, reach: number): Rect {
  const [left] = edgeSpan(track.points, t, (r) => r.x, reach);
  const [, right] = edgeSpan(track.points, t, (r) => r.x + r.w, reach);
  const [top] = edgeSpan(track.points, t, (r) => r.y, reach);
  const [, bottom] = edgeSpan(track.points, t, (r) => r.y + r.h, reach);
  return { x: left, y: top, w: right - left, h: bottom - top };
}

/** Where the faces are at `t`: their union, or when it does not fit the window the first (most important) face alone. */
function focusBox(input: FollowInput, t: number, reach: number): Rect | null {
  const boxes = [...input.tracks.filter((tr) => tr.points.length > 0).map((tr) => trackSpan(tr, t, reach)), ...input.boxes];
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

const EPSILON = 1e-9;

/**
 * Positions (one axis) where a window of `size` in [lo, hi] keeps [a, a + len] inside with `margin` on each side
 * (or, when that does not fit, with none). When even the face alone is larger than the window, the positions
 * within `slack` of the one that centres it: the face is cut anyway, and the window does not chase it by less.
 */
function allowed(a: number, len: number, margin: number, size: number, lo: number, hi: number, slack: number): Span {
  for (const room of [margin, 0]) {
    const min = clamp(a + len + room - size, lo, hi - size);
    const max = clamp(a - room, lo, hi - size);
    if (min <= max + EPSILON) return [min, Math.max(min, max)];
  }
  const centred = clamp(a + len / 2 - size / 2, lo, hi - size);
  return [clamp(centred - slack, lo, hi - size), clamp(centred + slack, lo, hi - size)];
}

/**
 * The window's positions on one axis, one per tick, given where it may be at each tick and where it would centre the
 * faces. It starts, and after each move lands, among the positions that stay allowed the longest from there (so it
 * stays still as long as the faces let it), as near centring them as those allow (a punch-in goes towards the faces),
 * and it moves only when it must: in a straight ramp of up to
 * `rampTicks` that begins before the tick that needs it (the whole path is known beforehand) and keeps the faces
 * inside on every tick of the way, never by less than `minMove` when the faces allow a longer one.
 */
function axisPath(ranges: readonly Span[], centred: readonly number[], rampTicks: number, minMove: number): number[] {
  const n = ranges.length;
  /** The positions that stay allowed the longest from tick `from`. */
  const lasting = (from: number): Span => {
    let [lo, hi] = ranges[from]!;
    for (let i = from + 1; i < n; i++) {
      const [a, b] = ranges[i]!;
      if (Math.max(lo, a) > Math.min(hi, b) + EPSILON) break;
      lo = Math.max(lo, a);
      hi = Math.max(lo, Math.min(hi, b));
    }
    return [lo, hi];
  };
  const fits = (i: number, v: number) => v >= ranges[i]![0] - EPSILON && v <= ranges[i]![1] + EPSILON;
  const landing = (i: number) => {
    const [lo, hi] = lasting(i);
    return { lo, hi, at: clamp(centred[i]!, lo, hi) };
  };
  const positions: number[] = [landing(0).at];
  let settled = 0; // the last tick of the last move: a new one starts no earlier
  for (let k = 1; k < n; k++) {
    const here = positions[k - 1]!;
    if (fits(k, here)) {
      positions.push(here);
      continue;
    }
    let done = false;
    for (let ticks = Math.min(rampTicks, k - settled); ticks >= 1 && !done; ticks--) {
      for (let end = Math.min(n - 1, k + (ticks >> 1)); end >= k && !done; end--) {
        const start = end - ticks;
        if (start < settled) continue;
        const from = positions[start]!;
        const { lo, hi, at } = landing(end);
        let target = at;
        // A short move is made longer (as far as the faces allow); the extra 1e-4 survives the keys' rounding.
        if (Math.abs(target - from) < minMove) target = clamp(from + Math.sign(target - from || 1) * (minMove + 1e-4), lo, hi);
        const ramp = Array.from({ length: ticks }, (_, j) => from + ((target - from) * (j + 1)) / ticks);
        if (!ramp.every((v, j) => fits(start + 1 + j, v))) continue;
        positions.length = start + 1;
        positions.push(...ramp);
        settled = end;
        k = end;
        done = true;
      }
    }
  }
  return positions;
}

/**
 * The window's path over a scene. The whole file was analysed, so the path is planned with every sample known: on a
 * grid finer than the samples it keeps the region each face can be in between two samples (a face that turns or
 * runs between them included, see edgeSpan) inside the window with a margin, stays still while that holds, and moves
 * in short straight ramps that start ahead of need (axisPath): it moves only when the speaker does, never by less
 * than `minMove`, and never cuts a face that fits. Null when no face is known over the scene (the caller centres as
 * before).
 */
export function followFaces(input: FollowInput, options: Partial<typeof SMOOTHING> = {}): CropKey[] | null {
  const o = { ...SMOOTHING, ...options };
  const sampleSeconds = 1 / Math.max(0.1, input.sampleFps);
  const count = Math.max(1, Math.ceil(((input.to - input.from) / sampleSeconds) * o.ticksPerSample - EPSILON));
  const times = Array.from({ length: count + 1 }, (_, i) => input.from + ((input.to - input.from) * i) / count);
  const focus = times.map((t) => focusBox(input, t, sampleSeconds));
  if (focus.some((f) => f === null)) return null;
  const boxes = focus as Rect[];
  const { w, h } = input.size;
  const within = input.within;
  const rampTicks = Math.max(1, Math.round(o.rampSamples * o.ticksPerSample));
  const axis = (pick: (r: Rect) => [number, number], size: number, lo: number, hi: number) =>
    axisPath(
      boxes.map((f) => {
        const [a, len] = pick(f);
        return allowed(a, len, len * o.margin, size, lo, hi, o.minMove / 2);
      }),
      boxes.map((f) => {
        const [a, len] = pick(f);
        return a + len / 2 - size / 2;
      }),
      rampTicks,
      o.minMove,
    );
  const xs = w >= within.w - EPSILON ? times.map(() => within.x) : axis((f) => [f.x, f.w], w, within.x, within.x + within.w);
  const ys = h >= within.h - EPSILON ? times.map(() => within.y) : axis((f) => [f.y, f.h], h, within.y, within.y + within.h);
  // Keys only where the window changes course: the start, where its speed changes on either axis, and the end
  // unless it is still there (a path holds its last key).
  const keys: CropKey[] = [];
  const speedChanges = (v: readonly number[], i: number) => Math.abs(v[i + 1]! - 2 * v[i]! + v[i - 1]!) > EPSILON;
  times.forEach((t, i) => {
    if (i === 0 || i === times.length - 1 || speedChanges(xs, i) || speedChanges(ys, i)) keys.push({ t: round3(t - input.from), x: round4(xs[i]!), y: round4(ys[i]!) });
  });
  const [before, last] = keys.slice(-2);
  if (before && last && before.x === last.x && before.y === last.y) keys.pop();
  return keys;
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
