import { describe, expect, it } from "vitest";
import type { MediaInfo } from "../../server/media/probe";
import { planRender, type EditSegment } from "../../server/media/render-plan";
import { frameRate, rationalTime, renderSourceFrames, timecode, timelineOf, toEdl, toFcpxml, toOtio, type SourceInfo } from "../../server/media/timelines";
import { framesOfRational, parseEdl, parseFcpxml, parseOtio } from "../timeline-files";

const info = (kind: MediaInfo["kind"], durationSeconds: number, hasAudio: boolean): MediaInfo => ({
  kind,
  durationSeconds,
  hasAudio,
  ...(kind === "audio" ? {} : { width: 1920, height: 1080 }),
  formatName: "x",
  container: "mov",
  sizeBytes: 1,
});

const probes = new Map<string, MediaInfo>([
  ["/data/u/1/a.mp4", info("video", 10, true)],
  ["/data/u/1/b.png", info("image", 0, false)],
  ["/data/u/1/c.m4a", info("audio", 4, true)],
  ["/data/u/1/d.mp4", info("video", 7200, false)],
]);
const names = new Map<string, SourceInfo>([
  ["/data/u/1/a.mp4", { name: "talk one.mp4", durationSeconds: 10 }],
  ["/data/u/1/b.png", { name: "logo.png", durationSeconds: 0 }],
  ["/data/u/1/c.m4a", { name: "voice & music.m4a", durationSeconds: 4 }],
  ["/data/u/1/d.mp4", { name: "long.mp4", durationSeconds: 7200 }],
]);

/** A hand-made edit with cuts off the frame grid, a still, a sound and a piece too short for a frame. */
const segments: EditSegment[] = [
  { file: "/data/u/1/a.mp4", kind: "video", start: 1.01, end: 2.52 },
  { file: "/data/u/1/a.mp4", kind: "video", start: 3.0, end: 3.333 },
  { file: "/data/u/1/b.png", kind: "image", start: 0, end: 2 },
  { file: "/data/u/1/c.m4a", kind: "audio", start: 0.5, end: 1.2 },
  { file: "/data/u/1/a.mp4", kind: "video", start: 5, end: 5.005 },
  { file: "/data/u/1/d.mp4", kind: "video", start: 3700.2, end: 3701.2 },
];

const plan = (fps: number) => planRender(segments, probes, { fps, sampleRate: 48_000, crossfadeSamples: 0, maxShortSide: 720, maxLongSide: 1280 });

describe("frame maths", () => {
  it("keeps frame rates as ratios, 29.97 as 30000/1001", () => {
    expect(frameRate(30)).toEqual({ num: 30, den: 1 });
    expect(frameRate(25)).toEqual({ num: 25, den: 1 });
    expect(frameRate(30000 / 1001)).toEqual({ num: 30000, den: 1001 });
    expect(frameRate(29.97)).toEqual({ num: 30000, den: 1001 });
    expect(frameRate(24000 / 1001)).toEqual({ num: 24000, den: 1001 });
  });

  it("writes FCPXML times as reduced fractions of a second", () => {
    expect(rationalTime(0, frameRate(30))).toBe("0s");
    expect(rationalTime(60, frameRate(30))).toBe("2s");
    expect(rationalTime(45, frameRate(30))).toBe("3/2s");
    expect(rationalTime(1, frameRate(25))).toBe("1/25s");
    expect(rationalTime(1, frameRate(29.97))).toBe("1001/30000s");
    expect(rationalTime(30, frameRate(29.97))).toBe("1001/1000s");
    expect(rationalTime(107_892, frameRate(29.97))).toBe("8999991/2500s");
  });

  it("writes non-drop-frame timecode, past an hour too", () => {
    expect(timecode(0, frameRate(30))).toBe("00:00:00:00");
    expect(timecode(3600 * 30 + 61 * 30 + 5, frameRate(30))).toBe("01:01:01:05");
    expect(timecode(2 * 3600 * 25 + 24, frameRate(25))).toBe("02:00:00:24");
    // 29.97 NDF counts 30 frames per timecode second: 107 892 frames (one hour of real time) read 00:59:56:12.
    expect(timecode(30, frameRate(29.97))).toBe("00:00:01:00");
    expect(timecode(107_892, frameRate(29.97))).toBe("00:59:56:12");
    expect(timecode(30 * 3600 * 27, frameRate(30))).toBe("27:00:00:00");
  });
});

describe("timeline of a render plan", () => {
  it("cuts at the render's frame edges (cumulative rounding) and the source frames the render reads", () => {
    const timeline = timelineOf(plan(30), names, "Talk");
    // seconds so far: 1.51, 1.843, 3.843, 4.543, 4.548 (dropped: no frame), 5.548 → edges 45, 55, 115, 136, 136, 166
    expect(timeline.clips.map((c) => [c.name, c.recordIn, c.sourceIn, c.frames, c.hasVideo, c.hasAudio])).toEqual([
      ["talk one.mp4", 0, 30, 45, true, true],
      ["talk one.mp4", 45, 90, 10, true, true],
      ["logo.png", 55, 0, 60, true, false],
      ["voice & music.m4a", 115, 15, 21, false, true],
      ["long.mp4", 136, 111_006, 30, true, false],
    ]);
    expect(timeline.frames).toBe(166);
    expect(timeline.frames).toBe(plan(30).segments.reduce((sum, s) => sum + s.frames, 0));
    expect(timeline.sources.map((s) => s.name)).toEqual(["talk one.mp4", "logo.png", "voice & music.m4a", "long.mp4"]);
  });

  it("starts a clip in the middle of an input at the frame that input's seek reaches, not round(start × fps)", () => {
    const run: EditSegment[] = [
      { file: "/data/u/1/a.mp4", kind: "video", start: 0.11, end: 0.62 },
      { file: "/data/u/1/a.mp4", kind: "video", start: 1.517, end: 2.05 },
      { file: "/data/u/1/a.mp4", kind: "video", start: 0.4, end: 0.9 },
    ];
    const p = planRender(run, probes, { fps: 30, sampleRate: 48_000, crossfadeSamples: 0, maxShortSide: 720, maxLongSide: 1280 });
    // Seeked to 0.11 s (frame 3.3): 1.517 s is round(42.21) = 42 frames on, frame round(45.3) = 45, where round(1.517 × 30) = 46.
    // Going backwards opens a new input seeked to 0.4 s exactly: frame 12.
    expect(renderSourceFrames(p)).toEqual([3, 45, 12]);
    expect(timelineOf(p, names, "t").clips.map((c) => c.sourceIn)).toEqual([3, 45, 12]);
  });

  for (const fps of [25, 30000 / 1001, 30]) {
    it(`writes the same cuts to FCPXML, OTIO and EDL at ${fps.toFixed(3)} fps`, () => {
      const p = plan(fps);
      const timeline = timelineOf(p, names, "Talk <1> & \"2\"");
      const expected = timeline.clips.map((c) => ({ name: c.name, recordIn: c.recordIn, sourceIn: c.sourceIn, frames: c.frames }));
      // The plan's own frames, one by one.
      expect(timeline.clips.map((c) => c.frames)).toEqual(p.segments.map((s) => s.frames));

      const fcp = parseFcpxml(toFcpxml(timeline));
      expect(fcp.version).toBe("1.9");
      expect(fcp.fps).toEqual(frameRate(fps));
      expect(fcp.clipTags.every((t) => t === "asset-clip")).toBe(true);
      expect(fcp.cuts).toEqual(expected);
      expect(fcp.duration).toBe(timeline.frames);
      expect(fcp.refs.map((a) => a?.getAttribute("name"))).toEqual(expected.map((c) => c.name));
      expect(fcp.refs[0]?.getElementsByTagName("media-rep")[0]?.getAttribute("src")).toBe("file:./talk%20one.mp4");

      const otio = parseOtio(toOtio(timeline));
      expect([otio.schema, otio.stackSchema]).toEqual(["Timeline.1", "Stack.1"]);
      const [video, audio] = otio.tracks;
      expect(video?.kind).toBe("Video");
      expect(audio?.kind).toBe("Audio");
      expect(video?.cuts.map(({ name, recordIn, sourceIn, frames }) => ({ name, recordIn, sourceIn, frames }))).toEqual(expected.filter((c) => c.name !== "voice & music.m4a"));
      expect(audio?.cuts.map(({ name, recordIn, sourceIn, frames }) => ({ name, recordIn, sourceIn, frames }))).toEqual(expected.filter((c) => c.name === "talk one.mp4" || c.name === "voice & music.m4a"));
      expect(video?.cuts.every((c) => c.schema === "ExternalReference.1" && c.url === c.name)).toBe(true);
      expect(video?.frames).toBe(timeline.frames);
      expect(new Set(video?.rates)).toEqual(new Set([fps]));

      const edl = parseEdl(toEdl(timeline), Math.round(fps));
      expect(edl.title).toBe("Talk <1> & \"2\"");
      expect(edl.fcm).toBe("NON-DROP FRAME");
      expect(edl.events.map(({ name, recordIn, sourceIn, frames }) => ({ name, recordIn, sourceIn, frames }))).toEqual(expected);
      expect(edl.events.map((e) => [e.event, e.reel, e.track])).toEqual([
        [1, "AX", "AA/V"],
        [2, "AX", "AA/V"],
        [3, "AX", "V"],
        [4, "AX", "AA"],
        [5, "AX", "V"],
      ]);
    });
  }

  it("puts a source past an hour at its timecode, and the FCPXML start on its frame", () => {
    const timeline = timelineOf(plan(30), names, "Talk");
    const edl = toEdl(timeline);
    // 3700.2 s × 30 = 111 006 frames = 01:01:40:06
    expect(edl).toContain("005  AX       V     C        01:01:40:06 01:01:41:06 00:00:04:16 00:00:05:16");
    expect(framesOfRational("18501/5s", frameRate(30))).toBe(111_006);
    expect(toFcpxml(timeline)).toContain('start="18501/5s"');
  });
});
