/**
 * Issue 15: the finishing chain on real renders (real ffmpeg, real RNNoise): loudness −14 ± 1 LUFS
 * and true peak ≤ −1 dBTP by ffmpeg's ebur128, for a quiet talk and a loud one, on each way a render
 * is made; a near-silent edit not blown up; the denoiser taking a known room noise out of the pauses
 * while the speech keeps its level; sound and picture the same length and in sync; the music bed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOUDNESS_TARGET, type SoundOptions } from "../../server/domain/audio";
import { renderPreview, runFfmpeg, runFfprobe, streamFfmpeg, type EditSegment, type MusicBedFactory, type RenderPath } from "../../server/media";
import { generateTalk, type Talk } from "./spoken-talk";

const FPS = 30;
const SCRIPT = [
  "Welcome back to the channel.",
  "Today I want to show you how we edit a long recording.",
  "The first thing you notice is all the waiting.",
  "Nobody wants to watch me think.",
  "So the editor listens for the pauses.",
];
const GAP_SECONDS = 1.2;
const FULL: SoundOptions = { denoise: "rnnoise", booster: true, loudness: { ...LOUDNESS_TARGET } };

let dir: string;
let talk: Talk;
/** The same talk at three levels, each over a white room tone: a quiet speaker, a loud one, a noisy room. */
let quiet: string;
let loud: string;
let noisy: string;
let roomTone: string;

/** A 320×240 clip (a keyframe every second, so smart render can copy) with the talk's sound at `gainDb`, plus `noiseDb` white noise. */
async function makeClip(file: string, gainDb: number, noiseDb: number | null, speech = true) {
  const seconds = talk.durationSeconds;
  const voice = speech ? `[1:a]aresample=48000,volume=${gainDb}dB,alimiter=limit=0.98:level=false[v]` : `anullsrc=r=48000:cl=mono,atrim=end=${seconds}[v]`;
  const noise = noiseDb === null ? "" : `;anoisesrc=c=white:r=48000:seed=7:a=${(10 ** (noiseDb / 20) * Math.sqrt(3)).toFixed(6)},atrim=end=${seconds}[n];[v][n]amix=inputs=2:normalize=0:duration=first[m]`;
  await runFfmpeg({
    inputs: [
      { file: `testsrc2=size=320x240:rate=${FPS}`, lavfi: true, options: ["-t", String(seconds)] },
      { file: talk.file, format: "wav" },
    ],
    globalOptions: ["-filter_complex", `${voice}${noise}`],
    outputOptions: [
      "-map", "0:v", "-map", noiseDb === null ? "[v]" : "[m]",
      "-c:v", "libx264", "-preset", "veryfast", "-g", String(FPS), "-keyint_min", String(FPS), "-sc_threshold", "0", "-pix_fmt", "yuv420p",
      "-c:a", "aac", "-b:a", "192k", "-ar", "48000", "-ac", "2", "-t", String(seconds),
    ],
    output: file,
  });
}

/** Integrated loudness and true peak by ffmpeg's ebur128 (its summary). */
async function ebur128(file: string): Promise<{ i: number; tp: number }> {
  const lines: string[] = [];
  await runFfmpeg({ inputs: [{ file, format: "mov" }], outputOptions: ["-map", "0:a:0", "-af", "ebur128=peak=true", "-f", "null"], output: null }, { logLevel: "info", onStderrLine: (l) => lines.push(l) });
  const summary = lines.slice(lines.findLastIndex((l) => l.includes("Summary:")));
  const value = (label: RegExp) => Number(summary.find((l) => label.test(l))?.match(/(-?[\d.]+|-inf)/)?.[1] ?? NaN);
  return { i: value(/^I:/), tp: value(/^Peak:/) };
}

/** The decoded sound, mono float 48 kHz. */
async function pcm(file: string): Promise<Float32Array> {
  const run = streamFfmpeg({ inputs: [{ file, format: "mov" }], outputOptions: ["-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "f32le"], output: "-" });
  const chunks: Buffer[] = [];
  for await (const chunk of run.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await run.done;
  const bytes = Buffer.concat(chunks);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

function rmsDb(samples: Float32Array, from: number, to: number): number {
  let sum = 0;
  const a = Math.round(from * 48_000);
  const b = Math.round(to * 48_000);
  for (let i = a; i < b; i++) sum += (samples[i] ?? 0) ** 2;
  return 10 * Math.log10(sum / Math.max(1, b - a) + 1e-20);
}

async function lengths(file: string): Promise<{ video: number; audio: number }> {
  const out = await runFfprobe(["-show_entries", "stream=codec_type,duration", "-of", "csv=p=0", file], { format: "mov" });
  const rows = out.trim().split("\n").map((l) => l.split(","));
  const of = (type: string) => Number(rows.find((r) => r[0] === type)?.[1]);
  return { video: of("video"), audio: of("audio") };
}

/** The lag (samples) at which `b` best matches `a`, searched within ±`range`. */
function bestLag(a: Float32Array, b: Float32Array, range: number): number {
  let best = -Infinity;
  let lag = 0;
  const from = range;
  const to = Math.min(a.length, b.length) - range;
  for (let d = -range; d <= range; d++) {
    let sum = 0;
    for (let i = from; i < to; i += 4) sum += (a[i] ?? 0) * (b[i + d] ?? 0);
    if (sum > best) {
      best = sum;
      lag = d;
    }
  }
  return lag;
}

/** The whole talk (from `from` s) cut in two at a pause (so there is a cut, and a crossfade). */
function edit(file: string, from = 0): EditSegment[] {
  const cut = ((talk.sentences[1]?.end ?? 0) + (talk.sentences[2]?.start ?? 0)) / 2;
  return [
    { file, kind: "video", start: from, end: cut },
    { file, kind: "video", start: cut, end: talk.durationSeconds },
  ];
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-sound-"));
  talk = generateTalk(dir, "talk", SCRIPT, { gaps: GAP_SECONDS, edgeSeconds: 0.8 });
  quiet = path.join(dir, "quiet.mp4");
  loud = path.join(dir, "loud.mp4");
  noisy = path.join(dir, "noisy.mp4");
  roomTone = path.join(dir, "room-tone.mp4");
  await Promise.all([makeClip(quiet, -16, -62), makeClip(loud, 24, -50), makeClip(noisy, -4, -30), makeClip(roomTone, 0, -66, false)]);
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the finishing chain", () => {
  it("levels a quiet talk and a loud one to −14 LUFS with true peaks at most −1 dBTP", async () => {
    const [quietIn, loudIn] = await Promise.all([ebur128(quiet), ebur128(loud)]);
    // The two really are far from the target on either side.
    expect(quietIn.i).toBeLessThan(-28);
    expect(loudIn.i).toBeGreaterThan(LOUDNESS_TARGET.i + 2);
    for (const [name, source] of [["quiet", quiet], ["loud", loud]] as const) {
      const output = path.join(dir, `${name}-out.mp4`);
      const result = await renderPreview(edit(source), output, { smoothCuts: true, sound: FULL });
      // Both rooms are quiet (speech far above the hiss): RNNoise measured them and left them alone.
      expect(result.sound).toMatchObject({ denoise: null, booster: true, music: false });
      expect(result.sound?.room?.snrDb).toBeGreaterThan(30);
      const measured = await ebur128(output);
      expect(Math.abs(measured.i - LOUDNESS_TARGET.i), `${name}: ${measured.i} LUFS`).toBeLessThanOrEqual(1);
      expect(measured.tp, `${name}: ${measured.tp} dBTP`).toBeLessThanOrEqual(LOUDNESS_TARGET.tp);
      const { video, audio } = await lengths(output);
      expect(Math.abs(video - result.durationSeconds)).toBeLessThanOrEqual(1 / FPS);
      expect(Math.abs(audio - video)).toBeLessThanOrEqual(1 / FPS);
    }
  }, 180_000);

  it("levels the same way when the picture is made in chunks or copied by smart render", async () => {
    const chunked = path.join(dir, "chunked.mp4");
    const chunks = await renderPreview(edit(loud), chunked, { smoothCuts: true, sound: FULL, maxInputsPerPass: 1 });
    expect(chunks.chunks).toBe(2);
    const smart = path.join(dir, "smart.mp4");
    const paths: RenderPath[] = [];
    // Not from the file's first frame: smart render falls back to the full one there (a separate issue).
    await renderPreview(edit(quiet, 0.37), smart, { sound: FULL, smart: true, verifySmart: true, onRenderPath: (p) => paths.push(p) });
    expect(paths[0]?.path, paths[0]?.reason).toBe("smart");
    for (const output of [chunked, smart]) {
      const measured = await ebur128(output);
      expect(Math.abs(measured.i - LOUDNESS_TARGET.i), `${output}: ${measured.i} LUFS`).toBeLessThanOrEqual(1);
      expect(measured.tp).toBeLessThanOrEqual(LOUDNESS_TARGET.tp);
      const { video, audio } = await lengths(output);
      expect(Math.abs(audio - video)).toBeLessThanOrEqual(1 / FPS);
    }
  }, 180_000);

  it("does not blow a near-silent edit's room tone up to −14 LUFS", async () => {
    const input = await ebur128(roomTone);
    const output = path.join(dir, "room-tone-out.mp4");
    const result = await renderPreview(edit(roomTone), output, { sound: FULL });
    const measured = await ebur128(output);
    // RNNoise takes most of the hiss; whatever is left is raised by at most the capped gain.
    expect(result.sound?.loudness?.gainDb ?? 0).toBeLessThanOrEqual(24);
    expect(measured.i).toBeLessThan(input.i + 24 + 1);
    expect(measured.i).toBeLessThan(-35);
  }, 120_000);

  it("takes a known room noise out of the pauses and keeps the speech's level", async () => {
    const plain = path.join(dir, "noisy-plain.mp4");
    const cleaned = path.join(dir, "noisy-rnnoise.mp4");
    const spectral = path.join(dir, "noisy-spectral.mp4");
    // Without levelling, so the two are compared at the level they come out of the denoiser.
    await renderPreview(edit(noisy), plain, { sound: { denoise: null, booster: false, loudness: null } });
    const result = await renderPreview(edit(noisy), cleaned, { sound: { denoise: "rnnoise", booster: false, loudness: null } });
    // A noisy room: all of RNNoise's output is used.
    expect(result.sound?.denoise).toBe("rnnoise");
    expect(result.sound?.room?.wet).toBe(1);
    // A mono recording (in stereo AAC): denoised once, as its mid.
    expect(result.sound?.room?.dualMono).toBe(true);
    await renderPreview(edit(noisy), spectral, { sound: { denoise: "spectral", booster: false, loudness: null } });
    const [a, b, c] = await Promise.all([pcm(plain), pcm(cleaned), pcm(spectral)]);
    // Inside the pauses, away from the words' edges (the crossfade at the cut is in a pause too).
    const pauses = talk.sentences.slice(1).map((s, i) => [(talk.sentences[i]?.end ?? 0) + 0.25, s.start - 0.25] as const);
    const speech = talk.sentences.map((s) => [s.start, s.end] as const);
    const level = (x: Float32Array, spans: readonly (readonly [number, number])[]) => spans.map(([from, to]) => rmsDb(x, from, to)).reduce((s, v) => s + v, 0) / spans.length;
    const noiseDrop = level(a, pauses) - level(b, pauses);
    const speechChange = level(b, speech) - level(a, speech);
    console.log(`pauses: plain ${level(a, pauses).toFixed(1)} dB, rnnoise ${level(b, pauses).toFixed(1)} dB, spectral ${level(c, pauses).toFixed(1)} dB; speech: plain ${level(a, speech).toFixed(1)}, rnnoise ${level(b, speech).toFixed(1)}, spectral ${level(c, speech).toFixed(1)}`);
    expect(noiseDrop).toBeGreaterThanOrEqual(20);
    expect(Math.abs(speechChange)).toBeLessThanOrEqual(3);
    // And the denoised sound is where the plain one is: no lag from RNNoise's frames or afftdn's window.
    expect(Math.abs(bestLag(a, b, 960))).toBeLessThanOrEqual(2);
    expect(Math.abs(bestLag(a, c, 2400))).toBeLessThanOrEqual(2);
  }, 180_000);

  it("keeps the finished sound in step with the picture (no filter delays it)", async () => {
    const bare = path.join(dir, "bare.mp4");
    const finished = path.join(dir, "finished.mp4");
    // The noisy room: RNNoise, the booster and the levelling all run.
    await renderPreview(edit(noisy), bare, { smoothCuts: true });
    expect((await renderPreview(edit(noisy), finished, { smoothCuts: true, sound: FULL })).sound?.denoise).toBe("rnnoise");
    const [a, b] = await Promise.all([pcm(bare), pcm(finished)]);
    expect(b.length).toBe(a.length);
    expect(Math.abs(bestLag(a, b, 960))).toBeLessThanOrEqual(2);
  }, 120_000);

  it("mixes the music bed in as it comes, before levelling", async () => {
    const output = path.join(dir, "music.mp4");
    const seen: { totalSamples: number; sampleRate: number; speechSamples: number }[] = [];
    const music: MusicBedFactory = async (ctx) => {
      const file = path.join(ctx.scratch, "bed.flac");
      const speech = await runFfprobe(["-show_entries", "stream=duration_ts", "-of", "csv=p=0", ctx.speech], { format: "flac" });
      seen.push({ totalSamples: ctx.totalSamples, sampleRate: ctx.sampleRate, speechSamples: Number(speech.trim()) });
      // A steady 1 kHz tone at −30 dBFS, exactly the edit's length.
      await runFfmpeg({
        inputs: [{ file: `sine=frequency=1000:sample_rate=48000`, lavfi: true }],
        outputOptions: ["-af", `volume=${(10 ** (-27 / 20)).toFixed(5)},atrim=end_sample=${ctx.totalSamples}`, "-ac", "2", "-c:a", "flac", "-f", "flac"],
        output: file,
      });
      return { file };
    };
    const result = await renderPreview(edit(quiet), output, { smoothCuts: true, sound: FULL, music });
    expect(result.music).toBe(true);
    expect(result.sound?.music).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.sampleRate).toBe(48_000);
    expect(seen[0]?.speechSamples).toBe(seen[0]?.totalSamples);
    expect(Math.abs((seen[0]?.totalSamples ?? 0) / 48_000 - result.durationSeconds)).toBeLessThanOrEqual(1 / FPS);
    const measured = await ebur128(output);
    expect(Math.abs(measured.i - LOUDNESS_TARGET.i)).toBeLessThanOrEqual(1);
    // The tone plays through the first pause, where the denoised speech is silent.
    const samples = await pcm(output);
    const pause = [(talk.sentences[0]?.end ?? 0) + 0.3, (talk.sentences[1]?.start ?? 0) - 0.3] as const;
    expect(rmsDb(samples, ...pause)).toBeGreaterThan(-40);
    const none = await renderPreview(edit(quiet), path.join(dir, "no-music.mp4"), { sound: FULL, music: async () => null });
    expect(none.music).toBe(false);
  }, 120_000);
});
