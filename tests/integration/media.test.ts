import { copyFile, mkdtemp, open, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_ANALYSIS_SETTINGS,
  FfmpegError,
  MediaAbortedError,
  NoAudioStreamError,
  ProgressParser,
  UnreadableMediaError,
  analyzeFile,
  extractKeyframeThumbnails,
  extractPoster,
  locateBinary,
  makeProxy,
  measureLevels,
  nearestThumbnail,
  probe,
  renderPreview,
  runFfmpeg,
  runFfprobe,
  type EditSegment,
  type TimeRange,
} from "../../server/media";
import { frameNumbers, makeNumberedClip, NUMBERS } from "./numbered-clip";

const FIXTURES = path.resolve(__dirname, "../fixtures");
const fixture = (name: string) => path.join(FIXTURES, name);
const FPS = 30;
const ONE_FRAME = 1 / FPS;
/** Level differences are compared above this, so room tone and AAC noise do not decide the match. */
const ENVELOPE_FLOOR_DB = -55;

interface Truth {
  duration: number;
  gaps: number[];
  speech: TimeRange[];
}

let work: string;
let truth: Truth;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "cutroom-media-"));
  truth = JSON.parse(await readFile(fixture("talk.truth.json"), "utf8")) as Truth;
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function streams(file: string) {
  const json = JSON.parse(await runFfprobe(["-print_format", "json", "-show_streams", "-show_format", file])) as {
    streams: { codec_type: string; codec_name: string; duration: string; width?: number; height?: number; sample_rate?: string; avg_frame_rate?: string; profile?: string }[];
  };
  const video = json.streams.find((s) => s.codec_type === "video");
  const audio = json.streams.find((s) => s.codec_type === "audio");
  return { video, audio, videoSeconds: Number(video?.duration), audioSeconds: Number(audio?.duration) };
}

function progressRecorder() {
  const seen: number[] = [];
  return {
    seen,
    onProgress: (fraction: number) => seen.push(fraction),
    expectComplete() {
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.at(-1)).toBe(1);
      expect(seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= (seen[i - 1] ?? 0)))).toBe(true);
    },
  };
}

describe("ffmpeg wrapper", () => {
  it("finds the binaries through FFMPEG_PATH / FFPROBE_PATH, else on the PATH", () => {
    expect(locateBinary("ffmpeg", { FFMPEG_PATH: "/opt/custom/ffmpeg" })).toBe("/opt/custom/ffmpeg");
    expect(locateBinary("ffprobe", { PATH: "/usr/bin" })).toBe("/usr/bin/ffprobe");
  });

  it("reads -progress output as a fraction of a known duration", () => {
    const recorder = progressRecorder();
    const parser = new ProgressParser(10, recorder.onProgress);
    parser.push("frame=1\nout_time_us=2500000\nprogress=continue\nout_time_us=50");
    parser.push("00000\nout_time=00:00:07.500000\nprogress=end\n");
    expect(recorder.seen).toEqual([0.25, 0.5, 0.75, 1]);
  });

  it("fails with ffmpeg's own last words", async () => {
    const failure = await runFfmpeg({ inputs: [{ file: fixture("corrupt.mp4") }], outputOptions: [], output: null }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FfmpegError);
    expect((failure as FfmpegError).stderrTail.join("\n")).toMatch(/Invalid data/);
  });

  it("stops on an AbortSignal and on its timeout", async () => {
    const endless = { inputs: [{ file: "testsrc2=size=640x360:rate=30", lavfi: true }], outputOptions: ["-c:v", "libx264"], output: null };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(runFfmpeg(endless, { signal: controller.signal })).rejects.toBeInstanceOf(MediaAbortedError);
    const timedOut = await runFfmpeg(endless, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(FfmpegError);
    expect((timedOut as FfmpegError).timedOut).toBe(true);
  });
});

describe("probe (by content, never by name)", () => {
  it("describes a video with sound", async () => {
    const info = await probe(fixture("talk.mp4"));
    expect(info).toMatchObject({ kind: "video", width: 320, height: 240, fps: 15, hasAudio: true, videoCodec: "h264", audioCodec: "aac" });
    expect(Math.abs(info.durationSeconds - truth.duration)).toBeLessThan(0.1);
    expect(info.sizeBytes).toBe((await stat(fixture("talk.mp4"))).size);
  });

  it("describes audio only, a still image and a video without sound", async () => {
    const voice = await probe(fixture("voice.m4a"));
    expect(voice).toMatchObject({ kind: "audio", hasAudio: true, audioCodec: "aac" });
    expect(voice.width).toBeUndefined();
    expect(voice.durationSeconds).toBeGreaterThan(3);
    expect(await probe(fixture("still.png"))).toMatchObject({ kind: "image", width: 240, height: 320, durationSeconds: 0, hasAudio: false, videoCodec: "png" });
    const silent = await probe(fixture("silent.mp4"));
    expect(silent).toMatchObject({ kind: "video", hasAudio: false, width: 320, height: 240 });
    expect(Math.abs(silent.durationSeconds - 3)).toBeLessThan(0.1);
  });

  it("refuses random bytes and a text file named .mp4 with UnreadableMediaError", async () => {
    await expect(probe(fixture("corrupt.mp4"))).rejects.toBeInstanceOf(UnreadableMediaError);
    await expect(probe(fixture("fake.mp4"))).rejects.toBeInstanceOf(UnreadableMediaError);
  });

  it("ignores misleading names", async () => {
    const renamed = async (from: string, to: string) => {
      const target = path.join(work, to);
      await copyFile(fixture(from), target);
      return target;
    };
    expect((await probe(await renamed("still.png", "holiday.mp4"))).kind).toBe("image");
    expect((await probe(await renamed("talk.mp4", "cover.png"))).kind).toBe("video");
    expect((await probe(await renamed("voice.m4a", "clip.mov"))).kind).toBe("audio");
    // Named .txt or .bin, ffprobe reads text and noise as "ANSI art" video: still not media.
    await expect(probe(await renamed("fake.mp4", "notes.txt"))).rejects.toBeInstanceOf(UnreadableMediaError);
    await expect(probe(await renamed("corrupt.mp4", "data.bin"))).rejects.toBeInstanceOf(UnreadableMediaError);
  });
});

describe("analyzeFile (speech and silences)", () => {
  const { paddingBeforeSeconds, maxPaddingAfterSeconds, smoothingSeconds, frameSeconds } = DEFAULT_ANALYSIS_SETTINGS;
  /** Smoothing may move an edge by half its window, and edges fall on frames. */
  const edgeSlack = smoothingSeconds / 2 + frameSeconds + 0.001;

  it("keeps every known utterance, within the padding, and cuts every gap of 0.5 s or more", async () => {
    const recorder = progressRecorder();
    const result = await analyzeFile(fixture("talk.mp4"), { onProgress: recorder.onProgress });
    expect(result.noiseFloorDb).toBeLessThan(-55);
    expect(Math.abs(result.duration - truth.duration)).toBeLessThan(0.05);
    for (const utterance of truth.speech) {
      const keeper = result.speech.find((r) => r.start <= utterance.start && r.end >= utterance.end);
      expect(keeper, `utterance ${utterance.start}–${utterance.end} kept whole`).toBeDefined();
    }
    for (const range of result.speech) {
      const firstWord = truth.speech.find((u) => u.start >= range.start);
      const lastWord = truth.speech.filter((u) => u.end <= range.end).at(-1);
      expect((firstWord?.start ?? 0) - range.start).toBeLessThanOrEqual(paddingBeforeSeconds + edgeSlack);
      expect(range.end - (lastWord?.end ?? 0)).toBeLessThanOrEqual(maxPaddingAfterSeconds + edgeSlack);
    }
    const gaps = truth.speech.slice(1).map((u, i) => ({ start: truth.speech[i]?.end ?? 0, end: u.start }));
    for (const gap of gaps.filter((g) => g.end - g.start >= 0.5)) {
      const cut = result.silences.some((s) => Math.min(s.end, gap.end) - Math.max(s.start, gap.start) > 0.1);
      expect(cut, `gap ${gap.start}–${gap.end} cut`).toBe(true);
    }
    recorder.expectComplete();
  });

  it("says plainly when there is no sound, and refuses what it cannot read", async () => {
    await expect(analyzeFile(fixture("silent.mp4"))).rejects.toBeInstanceOf(NoAudioStreamError);
    await expect(analyzeFile(fixture("corrupt.mp4"))).rejects.toBeInstanceOf(UnreadableMediaError);
  });
});

describe("proxy", () => {
  it("plays in a browser: H.264 + AAC in MP4, at most 360 px tall, index first", async () => {
    const source = path.join(work, "wide.mp4");
    await runFfmpeg({
      inputs: [
        { file: "testsrc2=size=854x480:rate=25", lavfi: true, options: ["-t", "2"] },
        { file: "sine=frequency=440:sample_rate=44100", lavfi: true, options: ["-t", "2"] },
      ],
      outputOptions: ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest"],
      output: source,
    });
    const output = path.join(work, "proxy.mp4");
    const recorder = progressRecorder();
    await makeProxy(source, output, { onProgress: recorder.onProgress });
    const { video, audio, videoSeconds } = await streams(output);
    expect(video).toMatchObject({ codec_name: "h264", width: 640, height: 360 });
    expect(video?.profile).toMatch(/Main|Baseline/);
    expect(audio?.codec_name).toBe("aac");
    expect(Math.abs(videoSeconds - 2)).toBeLessThan(0.1);
    const head = Buffer.alloc(64 * 1024);
    const handle = await open(output, "r");
    await handle.read(head, 0, head.length, 0);
    await handle.close();
    expect(head.indexOf("moov")).toBeGreaterThan(0);
    expect(head.indexOf("moov")).toBeLessThan(head.indexOf("mdat") < 0 ? Number.MAX_SAFE_INTEGER : head.indexOf("mdat"));
    recorder.expectComplete();
  });

  it("never upscales a small video", async () => {
    const output = path.join(work, "small-proxy.mp4");
    await makeProxy(fixture("talk.mp4"), output);
    expect((await streams(output)).video).toMatchObject({ width: 320, height: 240 });
  });
});

describe("thumbnails", () => {
  it("takes one JPEG per keyframe in one pass, with ascending times", async () => {
    const thumbnails = await extractKeyframeThumbnails(fixture("talk.mp4"), path.join(work, "thumbs"));
    // The fixture has a keyframe every 2 s.
    expect(thumbnails.length).toBeGreaterThanOrEqual(Math.floor(truth.duration / 2));
    expect(thumbnails[0]?.time).toBe(0);
    for (let i = 1; i < thumbnails.length; i++) expect(thumbnails[i]?.time).toBeGreaterThan(thumbnails[i - 1]?.time ?? 0);
    const first = await probe(thumbnails[0]?.file ?? "");
    expect(first).toMatchObject({ kind: "image", videoCodec: "mjpeg", width: 320 });
    expect(nearestThumbnail(thumbnails, 4.9)?.time).toBe(4);
    expect(nearestThumbnail(thumbnails, 5.1)?.time).toBe(6);
    expect(nearestThumbnail(thumbnails, 999)?.time).toBe(thumbnails.at(-1)?.time);
    expect(nearestThumbnail([], 1)).toBeUndefined();
  });

  it("makes a poster for a video, an image and a sound", async () => {
    for (const name of ["talk.mp4", "still.png", "voice.m4a"]) {
      const poster = await extractPoster(fixture(name), path.join(work, `${name}.jpg`));
      expect(await probe(poster)).toMatchObject({ kind: "image", videoCodec: "mjpeg" });
    }
  });
});

describe("renderPreview", () => {
  const talk = fixture("talk.mp4");
  // The first two pieces of talk.mp4 are read through one input (cut in parts); the last through another.
  const segments: EditSegment[] = [
    { file: talk, kind: "video", start: 0.5, end: 4.7 },
    { file: talk, kind: "video", start: 7.8, end: 9.7 },
    { file: fixture("still.png"), kind: "image", start: 0, end: 1.5 },
    { file: fixture("voice.m4a"), kind: "audio", start: 0.2, end: 2.9 },
    { file: fixture("silent.mp4"), kind: "video", start: 0.3, end: 1.7 },
    { file: talk, kind: "video", start: 13.8, end: 16.3 },
  ];
  const expectedSeconds = segments.reduce((sum, s) => sum + s.end - s.start, 0);

  /** How far (s) the rendered sound of a segment sits from where its source sound should be. */
  async function soundOffsets(rendered: string): Promise<number[]> {
    const [source, output] = await Promise.all([measureLevels(talk), measureLevels(rendered)]);
    const frame = DEFAULT_ANALYSIS_SETTINGS.frameSeconds;
    const offsets: number[] = [];
    let outputAt = 0;
    for (const segment of segments) {
      const length = segment.end - segment.start;
      if (segment.file === talk) {
        const margin = 0.1;
        const from = Math.round((segment.start + margin) / frame);
        const to = Math.round((outputAt + margin) / frame);
        offsets.push(bestLag(source.levels, from, output.levels, to, Math.round((length - 2 * margin) / frame)) * frame);
      }
      outputAt += length;
    }
    return offsets;
  }

  for (const smoothCuts of [false, true]) {
    it(`renders video, a still, audio over waves and a silent clip in sync, smooth cuts ${smoothCuts ? "on" : "off"}`, async () => {
      const output = path.join(work, `preview-${smoothCuts}.mp4`);
      const recorder = progressRecorder();
      const result = await renderPreview(segments, output, { smoothCuts, onProgress: recorder.onProgress });
      const { video, audio, videoSeconds, audioSeconds } = await streams(output);
      expect(video).toMatchObject({ codec_name: "h264", width: 320, height: 240, avg_frame_rate: "30/1" });
      expect(audio).toMatchObject({ codec_name: "aac", sample_rate: "48000" });
      expect(Math.abs(videoSeconds - expectedSeconds)).toBeLessThanOrEqual(ONE_FRAME);
      expect(Math.abs(audioSeconds - expectedSeconds)).toBeLessThanOrEqual(ONE_FRAME);
      expect(Math.abs(audioSeconds - videoSeconds)).toBeLessThanOrEqual(ONE_FRAME);
      expect(Math.abs(result.durationSeconds - expectedSeconds)).toBeLessThanOrEqual(ONE_FRAME);
      for (const offset of await soundOffsets(output)) expect(Math.abs(offset)).toBeLessThanOrEqual(ONE_FRAME);
      recorder.expectComplete();
    });
  }

  it("shows exactly each segment's own frames, through one input, after a backward jump, with smooth cuts", async () => {
    // Every frame of this clip is one flat grey whose level encodes its frame number.
    const clip = path.join(work, "numbered.mp4");
    await makeNumberedClip(clip, FPS);
    const pieces: EditSegment[] = [
      { file: clip, kind: "video", start: 0.5, end: 1.5 },
      { file: clip, kind: "video", start: 2.0, end: 2.6 },
      { file: clip, kind: "video", start: 4.1, end: 5.0 },
      { file: clip, kind: "video", start: 1.0, end: 1.4 },
    ];
    const output = path.join(work, "numbered-preview.mp4");
    await renderPreview(pieces, output, { smoothCuts: true });
    const shown = await frameNumbers(output);
    const expected = pieces.flatMap((p) => Array.from({ length: Math.round((p.end - p.start) * FPS) }, (_, k) => Math.round(p.start * FPS) + k));
    expect(shown).toHaveLength(expected.length);
    const wrong = shown.map((n, k) => ({ at: k, shown: n, expected: (expected[k] ?? 0) % NUMBERS })).filter((f) => cyclicDistance(f.shown, f.expected) > 0);
    expect(wrong).toEqual([]);
  });

  it("takes an edit list of 120 segments through a filter script", async () => {
    const many: EditSegment[] = Array.from({ length: 120 }, (_, i) => {
      const file = i % 3 === 2 ? fixture("silent.mp4") : talk;
      const start = file === talk ? (i * 0.137) % 17 : (i * 0.05) % 2.5;
      return { file, kind: "video", start, end: start + 0.1 + (i % 4) * 0.013 };
    });
    const expected = many.reduce((sum, s) => sum + s.end - s.start, 0);
    const output = path.join(work, "many.mp4");
    await renderPreview(many, output, { smoothCuts: true });
    const { videoSeconds, audioSeconds } = await streams(output);
    expect(Math.abs(videoSeconds - expected)).toBeLessThanOrEqual(ONE_FRAME);
    expect(Math.abs(audioSeconds - videoSeconds)).toBeLessThanOrEqual(ONE_FRAME);
  });
});



function cyclicDistance(a: number, b: number): number {
  const d = Math.abs((a % NUMBERS) - (b % NUMBERS));
  return Math.min(d, NUMBERS - d);
}

/** The shift (in frames, ±8) that best lines up two level envelopes. */
function bestLag(a: Float32Array, aFrom: number, b: Float32Array, bFrom: number, length: number): number {
  const maxLag = 8;
  let best = 0;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let cost = 0;
    for (let k = 0; k < length; k++) {
      const x = Math.max(ENVELOPE_FLOOR_DB, a[aFrom + k] ?? ENVELOPE_FLOOR_DB);
      const y = Math.max(ENVELOPE_FLOOR_DB, b[bFrom + k + lag] ?? ENVELOPE_FLOOR_DB);
      cost += Math.abs(x - y);
    }
    if (cost < bestCost) {
      bestCost = cost;
      best = lag;
    }
  }
  return best;
}
