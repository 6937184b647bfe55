/**
 * Smart render against the full render on real generated H.264 (issue 13): the same frames at every
 * cut, the same length, sound in sync, a clean decode, and the full render whenever a stretch needs
 * its picture re-made (watermark, crop, overlay).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPreview, runFfmpeg, runFfprobe, streamFfmpeg, type EditSegment, type RenderOptions, type RenderPath } from "../../server/media";
import { WATERMARK_LOGO } from "../../server/media/watermark";

const FPS = 30;
const WIDTH = 320;
const HEIGHT = 240;
/** Rows at the top of each frame: one flat grey that encodes the frame number. */
const BAND = 32;
const LEVEL_STEP = 4;
const NUMBERS = 256 / LEVEL_STEP;
const SECONDS = 14;
/** A keyframe every 0.5 s (closed GOPs, B-frames), as x264 writes a phone-like upload. */
const GOP = 15;

let dir: string;
let source: string;

async function collect(run: ReturnType<typeof streamFfmpeg>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of run.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await run.done;
  return Buffer.concat(chunks);
}

/** A 320×240 talk-like clip: moving texture below a grey band that numbers each frame, and a steady tone. */
async function makeSource(file: string) {
  const picture = `testsrc2=size=${WIDTH}x${HEIGHT}:rate=${FPS},drawbox=x=0:y=0:w=${WIDTH}:h=${BAND}:color=black:t=fill,geq=lum='if(lt(Y,${BAND}),mod(N*${LEVEL_STEP},256),lum(X,Y))':cb='if(lt(Y,${BAND}),128,cb(X,Y))':cr='if(lt(Y,${BAND}),128,cr(X,Y))'`;
  await runFfmpeg({
    inputs: [
      { file: picture, lavfi: true, options: ["-t", String(SECONDS)] },
      { file: "sine=frequency=300:sample_rate=48000", lavfi: true, options: ["-t", String(SECONDS)] },
    ],
    outputOptions: [
      "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-g", String(GOP), "-keyint_min", String(GOP), "-sc_threshold", "0", "-pix_fmt", "yuv420p",
      "-c:a", "aac", "-shortest",
    ],
    output: file,
  });
}

/** The frame numbers a render shows, from the band's grey. */
async function frameNumbers(file: string): Promise<number[]> {
  const raw = await collect(
    streamFfmpeg({ inputs: [{ file }], outputOptions: ["-map", "0:v:0", "-vf", `crop=${WIDTH}:${BAND - 8}:0:4,extractplanes=y,scale=1:1`, "-f", "rawvideo", "-pix_fmt", "gray"], output: "-" }),
  );
  return [...raw].map((level) => Math.round(level / LEVEL_STEP) % NUMBERS);
}

/** SSIM (All) of each listed frame of `a` against the same frame of `b` (ffmpeg's ssim filter). */
async function ssimAt(a: string, b: string, frames: readonly number[]): Promise<number[]> {
  const pick = `select='${frames.map((n) => `eq(n\\,${n})`).join("+")}',settb=1/${FPS},setpts=N`;
  const stats = path.join(dir, `ssim-${Date.now()}.log`);
  await runFfmpeg({
    globalOptions: ["-filter_complex", `[0:v]${pick}[a];[1:v]${pick}[b];[a][b]ssim=stats_file=${stats}`],
    inputs: [{ file: a }, { file: b }],
    outputOptions: ["-an"],
    output: null,
  });
  const lines = (await readFile(stats, "utf8")).trim().split("\n");
  expect(lines.length).toBe(frames.length);
  return lines.map((line) => Number(/All:([0-9.]+)/.exec(line)?.[1]));
}

async function streamSeconds(file: string): Promise<{ video: number; audio: number; frames: number }> {
  const out = JSON.parse(await runFfprobe(["-count_packets", "-show_entries", "stream=codec_type,duration,nb_read_packets", "-of", "json", file])) as {
    streams: { codec_type: string; duration: string; nb_read_packets: string }[];
  };
  const video = out.streams.find((s) => s.codec_type === "video");
  const audio = out.streams.find((s) => s.codec_type === "audio");
  return { video: Number(video?.duration), audio: Number(audio?.duration), frames: Number(video?.nb_read_packets) };
}

async function decodeErrors(file: string): Promise<string[]> {
  const errors: string[] = [];
  await runFfmpeg({ inputs: [{ file }], outputOptions: [], output: null }, { logLevel: "error", onStderrLine: (line) => errors.push(line) });
  return errors;
}

/** Renders both ways; the smart one records the path it took. */
async function renderBoth(name: string, segments: EditSegment[], options: RenderOptions = {}) {
  const full = path.join(dir, `${name}-full.mp4`);
  const smart = path.join(dir, `${name}-smart.mp4`);
  const paths: RenderPath[] = [];
  await renderPreview(segments, full, { ...options, smart: false });
  const result = await renderPreview(segments, smart, { ...options, smart: true, verifySmart: true, onRenderPath: (p) => paths.push(p) });
  return { full, smart, result, path: paths[0] };
}

/** Three talk stretches cut at times that fall between frames, the last one reaching back past a gap. */
const CUTS: EditSegment[] = [
  { file: "", kind: "video", start: 0.37, end: 3.81 },
  { file: "", kind: "video", start: 4.52, end: 7.03 },
  { file: "", kind: "video", start: 7.91, end: 12.2 },
];
const edit = (changes: Partial<EditSegment>[] = []) => CUTS.map((s, i) => ({ ...s, file: source, ...changes[i] }));

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-smart-"));
  source = path.join(dir, "talk.mp4");
  await makeSource(source);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("smart render", () => {
  it("copies the stretches between cuts and shows the full render's frames, length and sound timing", async () => {
    const { full, smart, result, path: chosen } = await renderBoth("cuts", edit(), { smoothCuts: true, crf: 18 });
    expect(result.path).toBe("smart");
    expect(chosen?.path).toBe("smart");
    expect(chosen?.smart?.copiedFrames).toBeGreaterThan(result.frames / 2);
    expect(chosen?.smart?.encodedFrames).toBeGreaterThan(0);

    const [fullFrames, smartFrames] = await Promise.all([frameNumbers(full), frameNumbers(smart)]);
    expect(smartFrames.length).toBe(fullFrames.length);
    expect(smartFrames).toEqual(fullFrames);

    // SSIM on the frames around each cut (and the first and last).
    const cuts: number[] = [];
    let at = 0;
    for (const s of edit()) {
      cuts.push(at);
      at += Math.round((s.end - s.start) * FPS);
    }
    const around = [...new Set(cuts.flatMap((c) => [c - 2, c - 1, c, c + 1, c + 2]).concat(fullFrames.length - 1))].filter((n) => n >= 0 && n < fullFrames.length);
    const scores = await ssimAt(full, smart, around);
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0.99);

    const [a, b] = await Promise.all([streamSeconds(full), streamSeconds(smart)]);
    expect(b.frames).toBe(a.frames);
    expect(Math.abs(b.video - b.audio)).toBeLessThanOrEqual(1 / FPS);
    expect(Math.abs(b.video - a.video)).toBeLessThanOrEqual(1 / FPS);
    expect(await decodeErrors(smart)).toEqual([]);
  }, 240_000);

  it("matches a reordered storyboard rendered in chunks, frame for frame", async () => {
    const reordered: EditSegment[] = [
      { file: source, kind: "video", start: 8.13, end: 10.71 },
      { file: source, kind: "video", start: 1.23, end: 4.4 },
      { file: source, kind: "video", start: 4.93, end: 6.58 },
    ];
    // One input per pass: the full render makes this in chunks (its own seek points).
    const { full, smart, result } = await renderBoth("reordered", reordered, { smoothCuts: true, crf: 18, maxInputsPerPass: 1 });
    expect(result.path).toBe("smart");
    expect(await frameNumbers(smart)).toEqual(await frameNumbers(full));
    const [a, b] = await Promise.all([streamSeconds(full), streamSeconds(smart)]);
    expect(b.frames).toBe(a.frames);
    expect(Math.abs(b.video - b.audio)).toBeLessThanOrEqual(1 / FPS);
    expect(await decodeErrors(smart)).toEqual([]);
  }, 240_000);

  it("makes the full render when the watermark covers every frame, and says why", async () => {
    const { full, smart, result, path: chosen } = await renderBoth("watermark", edit(), { watermark: WATERMARK_LOGO });
    expect(result.path).toBe("full");
    expect(chosen?.path).toBe("full");
    expect(chosen?.reason).toMatch(/watermark/);
    expect(await frameNumbers(smart)).toEqual(await frameNumbers(full));
  }, 240_000);

  it("encodes a cropped (punched-in) stretch and still copies the others, frame for frame", async () => {
    const crop = { x: 0, y: 0, w: 0.5, h: 0.5 };
    const { full, smart, result, path: chosen } = await renderBoth("crop", edit([{}, { crop }, {}]), { crf: 18 });
    expect(result.path).toBe("smart");
    const plainFrames = Math.round((CUTS[1]!.end - CUTS[1]!.start) * FPS);
    expect(chosen?.smart?.encodedFrames).toBeGreaterThanOrEqual(plainFrames);
    expect((await frameNumbers(smart)).length).toBe((await frameNumbers(full)).length);
    // The cropped stretch is zoomed (no band at the top to read): compare the picture itself.
    const start = Math.round((CUTS[0]!.end - CUTS[0]!.start) * FPS);
    const scores = await ssimAt(full, smart, [start - 1, start, start + 1, start + 30, start + plainFrames - 1, start + plainFrames]);
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0.99);
  }, 240_000);

  it("makes the full render when every stretch is cropped or under an overlay", async () => {
    const crop = { x: 0.25, y: 0.25, w: 0.5, h: 0.5 };
    const { result, path: chosen } = await renderBoth("all-cropped", edit([{ crop }, { crop }, {}]), {
      overlays: [{ file: source, start: 1, seconds: Number.POSITIVE_INFINITY, fromSegment: 2, untilSegment: 3, placement: "pip_tr", fade: false, hideMain: false }],
    });
    expect(result.path).toBe("full");
    expect(chosen?.reason).toMatch(/cropped/);
    expect(chosen?.reason).toMatch(/overlay/);
  }, 240_000);
});
