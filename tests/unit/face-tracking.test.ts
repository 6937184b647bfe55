import { describe, expect, it } from "vitest";
import { boxAt, facesOfRange, followFaces, iou, pathExpression, trackFaces, windowAt, type FaceSample, type FaceTrack } from "../../server/domain/faces";
import { followedFraming } from "../../server/jobs/render-edit";
import type { SceneRow } from "../../server/db/scenes";
import { aspectCrop, punchIn, type Rect } from "../../server/domain/framing";
import type { MediaInfo } from "../../server/media/probe";

const det = (x: number, y: number, w = 0.1, h = 0.18, score = 0.9) => ({ x, y, w, h, score });

/** Samples at 2 a second of faces moving by `step(t)`. */
function samples(seconds: number, faces: (t: number) => ReturnType<typeof det>[], fps = 2): FaceSample[] {
  return Array.from({ length: Math.round(seconds * fps) + 1 }, (_, i) => ({ t: i / fps, faces: faces(i / fps) }));
}

function inside(face: { x: number; y: number; w: number; h: number }, window: { x: number; y: number }, size: { w: number; h: number }) {
  return face.x >= window.x - 1e-6 && face.y >= window.y - 1e-6 && face.x + face.w <= window.x + size.w + 1e-6 && face.y + face.h <= window.y + size.h + 1e-6;
}

describe("face tracking", () => {
  it("measures overlap as intersection over union", () => {
    expect(iou({ x: 0, y: 0, w: 1, h: 1 }, { x: 0, y: 0, w: 1, h: 1 })).toBe(1);
    expect(iou({ x: 0, y: 0, w: 0.5, h: 1 }, { x: 0.5, y: 0, w: 0.5, h: 1 })).toBe(0);
    expect(iou({ x: 0, y: 0, w: 0.2, h: 0.2 }, { x: 0.1, y: 0, w: 0.2, h: 0.2 })).toBeCloseTo(1 / 3);
  });

  it("follows two faces moving in opposite directions as two tracks, without swapping them", () => {
    const found = samples(6, (t) => [det(0.1 + 0.04 * t, 0.3), det(0.8 - 0.04 * t, 0.35)]);
    const tracks = trackFaces(found);
    expect(tracks).toHaveLength(2);
    const [a, b] = tracks as [FaceTrack, FaceTrack];
    expect(a.points).toHaveLength(13);
    // Each track keeps its own face: one only moves right, the other only left.
    expect(a.points.every((p, i) => i === 0 || p.x > a.points[i - 1]!.x)).toBe(true);
    expect(b.points.every((p, i) => i === 0 || p.x < b.points[i - 1]!.x)).toBe(true);
  });

  it("follows a small face crossing the frame in 2 s and turning back, at a sample and between two, as one track", () => {
    // 0.7 of the width in 2 s: 0.175 (over two of its widths) between samples.
    const x = (t: number) => (t <= 2 ? 0.1 + 0.35 * t : t <= 3.25 ? 0.8 - 0.35 * (t - 2) : 0.3625 + 0.35 * (t - 3.25));
    const tracks = trackFaces(samples(5, (t) => [det(x(t), 0.3, 0.08, 0.14)]));
    expect(tracks).toHaveLength(1);
    expect(tracks[0]!.points).toHaveLength(11);
  });

  it("bridges a missed detection, ends a track after a long gap and drops one-off false finds", () => {
    const found = samples(10, (t) => {
      if (t === 1.5) return [det(0.9, 0.9, 0.05, 0.05)]; // a false find, once; the real face is missed here
      if (t > 4 && t < 7) return []; // gone for 3 s
      return [det(0.4, 0.3)];
    });
    const tracks = trackFaces(found);
    expect(tracks.map((t) => t.points.length)).toEqual([8, 7]);
    expect(boxAt(tracks[0]!, 1.5)!.x).toBeCloseTo(0.4);
  });

  it("lists a scene's faces biggest and most present first, with the typical box", () => {
    const tracks = trackFaces(samples(10, (t) => [det(0.1, 0.2, 0.08, 0.12), ...(t >= 5 ? [det(0.6, 0.2, 0.2, 0.3)] : [])]));
    const early = facesOfRange(tracks, 2, 0, 4);
    expect(early).toHaveLength(1);
    const late = facesOfRange(tracks, 2, 5, 10);
    expect(late.map((f) => f.box.w)).toEqual([0.2, 0.08]);
    expect(late[0]!.presence).toBeCloseTo(1, 1);
  });
});

describe("following faces with the crop window", () => {
  const size = { w: 0.3164, h: 1 }; // 9:16 out of 16:9
  const whole = { x: 0, y: 0, w: 1, h: 1 };

  it("keeps still while the speaker only sways, with every sample's face inside", () => {
    const tracks = trackFaces(samples(20, (t) => [det(0.45 + 0.01 * Math.sin(t * 3), 0.3)]));
    const path = followFaces({ size, within: whole, tracks, boxes: [], from: 0, to: 20, sampleFps: 2 })!;
    const xs = new Set(path.map((k) => k.x));
    expect(xs.size).toBe(1);
    for (let t = 0; t <= 20; t += 0.1) expect(inside(boxAt(tracks[0]!, t)!, windowAt(path, t), size)).toBe(true);
  });

  it("follows a face walking across the frame: never cuts it, moves in whole strides (no twitch) and only one way", () => {
    const tracks = trackFaces(samples(10, (t) => [det(0.05 + 0.08 * t, 0.3)]));
    const path = followFaces({ size, within: whole, tracks, boxes: [], from: 0, to: 10, sampleFps: 2 })!;
    let previous = windowAt(path, 0).x;
    let moveStart = previous;
    const strides: number[] = [];
    for (let t = 0; t <= 10.0001; t += 1 / 30) {
      const at = windowAt(path, t);
      expect(inside(boxAt(tracks[0]!, t)!, at, size)).toBe(true);
      expect(at.x).toBeGreaterThanOrEqual(previous - 1e-9);
      if (at.x === previous && previous !== moveStart) {
        strides.push(previous - moveStart);
        moveStart = previous;
      }
      if (at.x === previous) moveStart = at.x;
      previous = at.x;
    }
    expect(windowAt(path, 10).x).toBeGreaterThan(0.5);
    expect(strides.length).toBeGreaterThan(0);
    expect(Math.min(...strides)).toBeGreaterThanOrEqual(0.02);
  });

  it("keeps two faces together when they fit, else the first", () => {
    const two = trackFaces(samples(4, () => [det(0.3, 0.3), det(0.45, 0.3)]));
    const together = followFaces({ size, within: whole, tracks: two, boxes: [], from: 0, to: 4, sampleFps: 2 })!;
    expect(inside(boxAt(two[0]!, 1)!, windowAt(together, 1), size) && inside(boxAt(two[1]!, 1)!, windowAt(together, 1), size)).toBe(true);
    const apart = trackFaces(samples(4, () => [det(0.05, 0.3), det(0.85, 0.3)]));
    const first = followFaces({ size, within: whole, tracks: apart, boxes: [], from: 0, to: 4, sampleFps: 2 })!;
    expect(inside(boxAt(apart[0]!, 1)!, windowAt(first, 1), size)).toBe(true);
  });

  /** A face whose centre follows `keys` (t, x) in straight legs, turning wherever the keys say (between samples too). */
  const legs = (keys: [number, number][], w = 0.12, h = 0.21) => (t: number): Rect => {
    const i = Math.max(0, keys.findIndex(([until]) => until >= t) - 1);
    const [t0, x0] = keys[i]!;
    const [t1, x1] = keys[Math.min(i + 1, keys.length - 1)]!;
    const x = t1 > t0 ? x0 + (x1 - x0) * Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : x0;
    return { x: x - w / 2, y: 0.3 + 0.02 * Math.sin(t), w, h };
  };
  /** Samples of a face at 2 a second over [0, seconds) (the detector's frames n / 2), with a little seeded noise. */
  const sampled = (face: (t: number) => Rect, seconds: number): FaceSample[] =>
    Array.from({ length: seconds * 2 }, (_, i) => {
      const box = face(i / 2);
      return { t: i / 2, faces: [det(box.x + 0.002 * Math.sin(i * 7.3), box.y + 0.002 * Math.cos(i * 5.1), box.w, box.h)] };
    });
  /** Frames (30 a second) with the face inside, and the window's moves (runs one way) with their lengths. */
  function judge(path: ReturnType<typeof followFaces>, face: (t: number) => Rect, window: { w: number; h: number }, seconds: number) {
    let inside = 0;
    const moves: number[] = [];
    let run = 0;
    let direction = 0;
    let previous = windowAt(path!, 0);
    for (let f = 0; f < seconds * 30; f++) {
      const at = windowAt(path!, f / 30);
      const box = face(f / 30);
      if (box.x >= at.x - 1e-6 && box.y >= at.y - 1e-6 && box.x + box.w <= at.x + window.w + 1e-6 && box.y + box.h <= at.y + window.h + 1e-6) inside++;
      const dx = at.x - previous.x;
      const dy = at.y - previous.y;
      const step = Math.abs(dx) >= Math.abs(dy) ? dx : dy;
      const now = Math.abs(step) < 1e-9 ? 0 : Math.sign(step);
      if (now !== direction && direction !== 0) {
        moves.push(run);
        run = 0;
      }
      direction = now;
      run += Math.hypot(dx, dy);
      previous = at;
    }
    if (direction !== 0) moves.push(run);
    return { inside: inside / (seconds * 30), moves };
  }
  const windows = {
    "9:16": aspectCrop(16 / 9, 9 / 16, { x: 0.5, y: 0.5 }),
    "1:1": aspectCrop(16 / 9, 1, { x: 0.5, y: 0.5 }),
    "16:9 punch-in": punchIn(whole, { x: 0.5, y: 0.5 }),
  };

  for (const [name, window] of Object.entries(windows)) {
    it(`keeps a face zigzagging across the frame in 2 s inside a ${name} window on every frame, turns between samples and the last half second included`, () => {
      // Corners off the sample times (the chord between two samples cuts them), legs of 0.6 of the width in about 2 s.
      const face = legs([[0, 0.15], [2.2, 0.8], [4.3, 0.17], [6.1, 0.75], [8.35, 0.15], [10, 0.6]]);
      const tracks = trackFaces(sampled(face, 10));
      expect(tracks).toHaveLength(1);
      const path = followFaces({ size: window, within: whole, tracks, boxes: [], from: 0, to: 10, sampleFps: 2 })!;
      const { inside, moves } = judge(path, face, window, 10);
      expect(inside).toBe(1);
      // A narrow window has to follow (the punch-in's 0.8 of the width holds the whole zigzag), in whole strides.
      if (window.w < 0.6) expect(moves.length).toBeGreaterThan(0);
      expect(moves.every((m) => m >= 0.02)).toBe(true);
    });
  }

  it("stands still while the speaker stops between two fast walks, and follows each walk", () => {
    const face = legs([[0, 0.15], [2, 0.75], [6, 0.75], [8, 0.15], [10, 0.15]]);
    const tracks = trackFaces(sampled(face, 10));
    const path = followFaces({ size: windows["9:16"], within: whole, tracks, boxes: [], from: 0, to: 10, sampleFps: 2 })!;
    const { inside } = judge(path, face, windows["9:16"], 10);
    expect(inside).toBe(1);
    // From half a second after the stop to half a second before the next walk, not a pixel of movement.
    const still = new Set(Array.from({ length: 31 }, (_, i) => windowAt(path, 2.5 + i / 10).x));
    expect(still.size).toBe(1);
    expect(windowAt(path, 4).x).toBeGreaterThan(0.45);
    expect(windowAt(path, 9.5).x).toBeLessThan(0.2);
  });

  it("writes the path as a flat ffmpeg expression of t", () => {
    const expression = pathExpression([{ t: 0, x: 0.1, y: 0 }, { t: 2, x: 0.1, y: 0 }, { t: 2.5, x: 0.4, y: 0 }], "x", "iw");
    expect(expression).toBe("iw*(0.1+0.6*clip(t-2\\,0\\,0.5))");
  });
});

describe("a scene's framing with detected faces", () => {
  const info = { kind: "video", width: 1280, height: 720, durationSeconds: 10, hasAudio: true } as MediaInfo;
  const tracks = trackFaces(samples(10, (t) => [det(0.05 + 0.08 * t, 0.3, 0.1, 0.18), det(0.7, 0.3, 0.05, 0.09)]));
  const source = { file: "/x.mp4", kind: "video" as const, info, faces: { fps: 2, tracks } };
  const scene = (selected: unknown[] = []) => ({ trim_start: 0, trim_end: 10, selected_faces: JSON.stringify(selected) }) as SceneRow;

  it("follows the largest face when none is chosen", () => {
    const framing = followedFraming(scene(), source, 9 / 16, true, false);
    expect(framing.path!.length).toBeGreaterThan(2);
    expect(framing.crop!.w).toBeCloseTo(0.3164, 3);
    expect(inside(boxAt(tracks[0]!, 9)!, windowAt(framing.path!, 9), framing.crop!)).toBe(true);
  });

  it("follows the chosen face, and a punch-in zooms towards it rather than the centre", () => {
    const chosen = [{ BoundingBox: { Left: 0.7, Top: 0.3, Width: 0.05, Height: 0.09 }, visibility: 1, track: tracks[1]!.id }];
    const cropped = followedFraming(scene(chosen), source, 9 / 16, true, false);
    expect(cropped.path).toBeUndefined(); // the small face does not move
    expect(inside({ x: 0.7, y: 0.3, w: 0.05, h: 0.09 }, cropped.crop!, cropped.crop!)).toBe(true);
    const zoomed = followedFraming(scene(chosen), source, null, false, true);
    expect(zoomed.crop!.x).toBeGreaterThan(0.1); // the centre's would be 0.065
    expect(inside({ x: 0.7, y: 0.3, w: 0.05, h: 0.09 }, zoomed.crop!, zoomed.crop!)).toBe(true);
  });

  it("keeps a hand-drawn box still", () => {
    const drawn = [{ BoundingBox: { Left: 0.1, Top: 0.1, Width: 0.1, Height: 0.1 }, visibility: 1 }];
    const framing = followedFraming(scene(drawn), source, 9 / 16, true, false);
    expect(framing.path).toBeUndefined();
    expect(framing.crop!.x).toBe(0);
  });
});
