import { describe, expect, it } from "vitest";
import type { PlannedSegment, RenderPlan } from "../../server/media/render-plan";
import { frameBlocks, packetTiming, planSmartRender, slotFrames, sourceProblem, type SourceVideo } from "../../server/media/smart-render";

const FPS = 30;

/** A 1080p H.264 upload at 30 fps, `seconds` long, with a clean keyframe every `gop` frames. */
function source(seconds: number, gop: number, overrides: Partial<SourceVideo> = {}): SourceVideo {
  const frames = seconds * FPS;
  return {
    codec: "h264",
    profile: "High",
    level: 40,
    pixFmt: "yuv420p",
    width: 1920,
    height: 1080,
    sar: "1:1",
    rotation: 0,
    fieldOrder: "progressive",
    colour: {},
    times: Array.from({ length: frames }, (_, k) => k / FPS),
    keyframes: Array.from({ length: Math.ceil(frames / gop) }, (_, i) => i * gop),
    delay: 2,
    ...overrides,
  };
}

function segment(start: number, frames: number, extra: Partial<PlannedSegment> = {}): PlannedSegment {
  return { file: "talk.mp4", kind: "video", hasAudio: true, start, frames, samples: frames * 1600, leadSamples: 0, tailSamples: 0, volume: 1, fill: false, ...extra };
}

function plan(segments: PlannedSegment[], extra: Partial<RenderPlan> = {}): RenderPlan {
  return { segments, fades: segments.slice(1).map(() => 0), overlays: [], fps: FPS, sampleRate: 48_000, width: 1920, height: 1080, ...extra };
}

describe("which uploads can be copied", () => {
  it("takes H.264 4:2:0 at the output's size, square pixels, unrotated, progressive", () => {
    const out = { width: 1920, height: 1080, fps: FPS };
    expect(sourceProblem(source(10, 30), out)).toBeNull();
    expect(sourceProblem(source(10, 30, { codec: "hevc" }), out)).toMatch(/H\.264/);
    expect(sourceProblem(source(10, 30, { width: 3840, height: 2160 }), out)).toMatch(/size/);
    expect(sourceProblem(source(10, 30, { pixFmt: "yuvj420p" }), out)).toMatch(/pixel format/);
    expect(sourceProblem(source(10, 30, { rotation: -90 }), out)).toMatch(/rotated/);
    expect(sourceProblem(source(10, 30, { sar: "4:3" }), out)).toMatch(/square/);
    expect(sourceProblem(source(10, 30, { fieldOrder: "tt" }), out)).toMatch(/interlaced/);
    expect(sourceProblem(source(10, 30, { profile: "High 10" }), out)).toMatch(/profile/);
  });

  it("starts copies only at keyframes that begin a closed GOP", () => {
    // Decode order: I P B B | I (open: two Bs after it are shown before it) B B P | I (open) B P
    const timing = packetTiming(
      [
        { pts: 0, key: true }, { pts: 3, key: false }, { pts: 1, key: false }, { pts: 2, key: false },
        { pts: 6, key: true }, { pts: 4, key: false }, { pts: 5, key: false }, { pts: 7, key: false },
        { pts: 9, key: true }, { pts: 8, key: false }, { pts: 10, key: false },
      ],
      (pts) => pts / FPS,
    );
    expect(timing.times).toEqual(Array.from({ length: 11 }, (_, k) => k / FPS));
    expect(timing.keyframes).toEqual([0]);
    expect(timing.delay).toBe(1);
  });
});

describe("the frames the full render shows", () => {
  it("rounds each source frame to its output slot from the run's seek, holding the first frame before it", () => {
    const times = source(4, 30).times;
    // Seek at 1.01 s: frame 31 (1.033 s) lands in slot 1, so slot 0 shows it too.
    expect(slotFrames(segment(1.01, 4), 1.01, times, FPS)).toEqual([31, 31, 32, 33]);
    expect(slotFrames(segment(1.02, 3), 1.02, times, FPS)).toEqual([31, 32, 33]);
    // A segment later in its run: slots count from the run's seek.
    expect(slotFrames(segment(2.0, 3), 1.01, times, FPS)).toEqual([60, 61, 62]);
    // Past the end of the file the last frame is held.
    expect(slotFrames(segment(3.9, 5), 3.9, times, FPS).slice(-2)).toEqual([119, 119]);
    expect(frameBlocks([31, 31, 32, 33], times, FPS)).toEqual([
      { at: 0, frame: 31, frames: 1 },
      { at: 1, frame: 31, frames: 3 },
    ]);
  });
});

describe("smart render planning", () => {
  it("copies whole GOPs inside each stretch and encodes from each cut to the next keyframe and back", () => {
    const sources = new Map([["talk.mp4", source(60, 30)]]);
    const result = planSmartRender(plan([segment(2.5, 300), segment(20.5, 150)]), sources, { chunked: false });
    if ("reason" in result) throw new Error(result.reason);
    expect(result.pieces.map((p) => (p.kind === "copy" ? ["copy", p.from, p.to] : ["encode", p.outputFrom, p.frames]))).toEqual([
      ["encode", 0, 15], // 2.5 s (frame 75) → keyframe 90
      ["copy", 90, 360], // whole GOPs up to the last keyframe before 12.5 s (frame 375)
      ["encode", 285, 15 + 15], // 360 → 375, then the next stretch's 615 → 630
      ["copy", 630, 750],
      ["encode", 435, 15], // 750 → 765
    ]);
    expect(result.copiedFrames + result.encodedFrames).toBe(450);
    const tailAndHead = result.pieces[2];
    expect(tailAndHead?.kind === "encode" && tailAndHead.segments.map((s) => [Math.round(s.start * FPS), s.frames])).toEqual([
      [360, 15],
      [615, 15],
    ]);
  });

  it("encodes a stretch with no whole GOP, a cropped one and one under an overlay, and copies the rest", () => {
    const sources = new Map([["talk.mp4", source(60, 30)]]);
    const segments = [segment(1, 20), segment(5, 120, { crop: { x: 0, y: 0, w: 0.5, h: 0.5 } }), segment(10, 120), segment(20, 120)];
    const overlays = [{ file: "logo.png", kind: "image" as const, start: 0, fromFrame: 260, frames: 30, totalFrames: 30, skipFrames: 0, placement: "pip_tr" as const, fade: false, hideMain: false }];
    const result = planSmartRender(plan(segments, { overlays }), sources, { chunked: false });
    if ("reason" in result) throw new Error(result.reason);
    const copies = result.pieces.filter((p) => p.kind === "copy");
    expect(copies).toEqual([{ kind: "copy", file: "talk.mp4", from: 300, to: 420, frames: 120 }]);
    expect(result.encodedFrames).toBe(20 + 120 + 120);
    expect(result.pieces.map((p) => p.kind)).toEqual(["encode", "copy", "encode"]);
  });

  it("says why when nothing can be copied", () => {
    const planned = planSmartRender(plan([segment(1, 60)]), new Map([["talk.mp4", "codec hevc is not H.264"]]), { chunked: false });
    expect(planned).toEqual({ reason: "codec hevc is not H.264" });
    const short = planSmartRender(plan([segment(1, 20)]), new Map([["talk.mp4", source(10, 30)]]), { chunked: false });
    expect(short).toEqual({ reason: "no whole GOP inside a segment" });
  });
});
