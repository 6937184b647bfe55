/**
 * Issue 15: the finishing chain of every render's sound, on the edit's joined sound (FLAC 48 kHz
 * stereo, exactly the edit's length): denoise → voice booster → music bed (summed as it comes) →
 * two-pass loudness normalisation to −14 LUFS / −1 dBTP. Every step keeps the length and the
 * alignment, so the picture stays in sync; the result is encoded to AAC once, by the caller.
 */
import { rename } from "node:fs/promises";
import path from "node:path";
import { NOISE_CANCELLING_FILTERS, VOICE_BOOSTER_FILTERS, type Denoiser, type SoundOptions } from "../domain/audio";
import { measureRoom, rnnoiseFile, rnnoiseWet } from "./denoise";
import { runFfmpeg, type FfmpegInput, type ProgressCallback, type RunLimits } from "./ffmpeg";
import type { MusicBedFactory } from "./render";
import type { RenderPlan } from "./render-plan";

/**
 * The most gain loudness normalisation gives: a near-silent edit (room tone, a muted project with a
 * whisper) is raised at most this much instead of lifting its noise to −14 LUFS.
 */
export const MAX_LOUDNESS_GAIN_DB = 24;
/** Below this integrated loudness there is nothing to level (digital silence measures −inf / −70). */
const SILENCE_LUFS = -69;
/**
 * The limiter's ceiling sits this far under the true-peak target: the AAC encode after it adds a
 * little overshoot, and the target is checked on the encoded file.
 */
const TRUE_PEAK_MARGIN_DB = 0.6;
/** Oversampling for the true-peak limiter (ITU-R BS.1770 measures true peak at 4× 48 kHz). */
const TRUE_PEAK_RATE = 192_000;

/** What the chain did, for the render's result and the project's highlights. */
export interface SoundReport {
  /** The denoiser that ran, if any (RNNoise does not run in a quiet room: see rnnoiseWet). */
  denoise: Denoiser | null;
  /** The room RNNoise measured (dBFS, dB) and the share of its output used. */
  room?: { floorDb: number; speechDb: number; snrDb: number; dualMono: boolean; wet: number };
  booster: boolean;
  /** A music bed was mixed in. */
  music: boolean;
  /** The loudness of the mix before levelling and the gain given (null when not levelled). */
  loudness: { measuredI: number; measuredTp: number; gainDb: number; limited: boolean } | null;
}

export interface FinishContext extends RunLimits {
  sound: SoundOptions;
  music?: MusicBedFactory;
  plan: RenderPlan;
  totalSamples: number;
  scratch: string;
  onProgress?: ProgressCallback;
}

/** Shares of the chain's progress: denoise + booster, the bed, the measure, the levelling. */
const SHARES = { speech: [0, 0.5], music: [0.5, 0.6], measure: [0.6, 0.8], level: [0.8, 1] } as const;

/** `joined` finished into `output` (FLAC, same length); returns what ran. */
export async function finishSound(joined: string, output: string, ctx: FinishContext): Promise<SoundReport> {
  const limits: RunLimits = { threads: ctx.threads, timeoutMs: ctx.timeoutMs, signal: ctx.signal, logLevel: ctx.logLevel };
  const rate = ctx.plan.sampleRate;
  const seconds = ctx.totalSamples / rate;
  const report = (from: number, to: number) => (ctx.onProgress ? { onProgress: (f: number) => ctx.onProgress?.(from + f * (to - from)) } : {});
  const exact = exactLength(ctx.totalSamples);
  const flac = ["-c:a", "flac", "-ar", String(rate), "-ac", "2", "-f", "flac"];
  const { booster } = ctx.sound;
  const boost = booster ? VOICE_BOOSTER_FILTERS : [];
  let denoise = ctx.sound.denoise;
  let room: SoundReport["room"];
  if (denoise === "rnnoise") {
    const measured = await measureRoom(joined, limits);
    room = { ...measured, wet: rnnoiseWet(measured.snrDb) };
    // A quiet room: RNNoise would add more distortion than it takes noise away.
    if (room.wet === 0) denoise = null;
  }

  let speech = joined;
  if (denoise || booster) {
    speech = path.join(ctx.scratch, "speech.flac");
    if (denoise === "rnnoise") await rnnoiseFile(joined, speech, { ...limits, scratch: ctx.scratch, after: [...boost, exact], wet: room?.wet ?? 1, mono: room?.dualMono ?? false });
    else {
      const filters = [...(denoise === "spectral" ? NOISE_CANCELLING_FILTERS : []), ...boost, exact];
      await runFfmpeg({ inputs: [flacInput(joined)], outputOptions: ["-af", filters.join(","), ...flac], output: speech }, { ...limits, durationSeconds: seconds, ...report(...SHARES.speech) });
    }
  }
  ctx.onProgress?.(SHARES.speech[1]);

  const bed = ctx.music ? await ctx.music({ speech, totalSamples: ctx.totalSamples, sampleRate: rate, plan: ctx.plan, scratch: ctx.scratch, signal: ctx.signal }) : null;
  ctx.onProgress?.(SHARES.music[1]);
  const inputs = [flacInput(speech), ...(bed ? [flacInput(bed.file)] : [])];
  // A plain sum: the bed comes levelled and ducked, and amix's own normalising would halve the speech.
  const mix = bed ? "[0:a][1:a]amix=inputs=2:normalize=0:duration=first:dropout_transition=0" : "[0:a]anull";

  if (!ctx.sound.loudness) {
    if (!bed && speech !== joined) {
      await rename(speech, output);
      return { denoise, ...(room ? { room } : {}), booster, music: false, loudness: null };
    }
    await runFfmpeg({ inputs, globalOptions: ["-filter_complex", `${mix},${exact}[out]`], outputOptions: ["-map", "[out]", ...flac], output }, { ...limits, durationSeconds: seconds, ...report(...SHARES.level) });
    return { denoise, ...(room ? { room } : {}), booster, music: !!bed, loudness: null };
  }

  const target = ctx.sound.loudness;
  const measured = await measureLoudness(inputs, mix, target, { ...limits, durationSeconds: seconds, ...report(...SHARES.measure) });
  const gainDb = levellingGain(measured.i, target.i);
  // Linear gain keeps the speech's dynamics; where the gain would push peaks past the target, a
  // true-peak limiter (oversampled, its delay compensated) shaves only those peaks.
  const ceilingDb = target.tp - TRUE_PEAK_MARGIN_DB;
  const limited = measured.tp + gainDb > ceilingDb;
  const level = [
    `volume=${gainDb.toFixed(2)}dB:precision=double`,
    ...(limited
      ? [`aresample=${TRUE_PEAK_RATE}`, `alimiter=limit=${(10 ** (ceilingDb / 20)).toFixed(5)}:attack=1:release=50:level=false:latency=1`, `aresample=${rate}`]
      : []),
  ];
  await runFfmpeg(
    { inputs, globalOptions: ["-filter_complex", `${mix},${level.join(",")},${exact}[out]`], outputOptions: ["-map", "[out]", ...flac], output },
    { ...limits, durationSeconds: seconds, ...report(...SHARES.level) },
  );
  return { denoise, ...(room ? { room } : {}), booster, music: !!bed, loudness: { measuredI: measured.i, measuredTp: measured.tp, gainDb, limited } };
}

/**
 * The gain that brings `measuredI` to `targetI`, never more than MAX_LOUDNESS_GAIN_DB, and none for
 * silence (whose loudness is not a number to level by).
 */
export function levellingGain(measuredI: number, targetI: number): number {
  if (!Number.isFinite(measuredI) || measuredI <= SILENCE_LUFS) return 0;
  return Math.min(targetI - measuredI, MAX_LOUDNESS_GAIN_DB);
}

/** Pads or trims to exactly `total` samples (what keeps every pass sample-exact). */
function exactLength(total: number): string {
  return `apad=whole_len=${total},atrim=end_sample=${total},asetpts=N/SR/TB`;
}

function flacInput(file: string): FfmpegInput {
  return { file, format: "flac", internal: true };
}

/** The first pass: loudnorm's own measure (print_format=json) of the mix. */
export async function measureLoudness(
  inputs: FfmpegInput[],
  mix: string,
  target: { i: number; tp: number },
  options: RunLimits & { durationSeconds?: number; onProgress?: ProgressCallback },
): Promise<{ i: number; tp: number; lra: number; thresh: number }> {
  const lines: string[] = [];
  await runFfmpeg(
    { inputs, globalOptions: ["-filter_complex", `${mix},loudnorm=I=${target.i}:TP=${target.tp}:LRA=50:print_format=json[out]`], outputOptions: ["-map", "[out]"], output: null },
    { ...options, logLevel: "info", onStderrLine: (line) => lines.push(line) },
  );
  return parseLoudnorm(lines);
}

/** loudnorm's JSON block from its stderr lines ("-inf" for silence becomes -Infinity). */
export function parseLoudnorm(lines: readonly string[]): { i: number; tp: number; lra: number; thresh: number } {
  const start = lines.findLastIndex((line) => line.trim() === "{");
  const end = lines.findLastIndex((line) => line.trim() === "}");
  if (start < 0 || end < start) throw new Error("loudnorm printed no measurement");
  const json = JSON.parse(lines.slice(start, end + 1).join("\n")) as Record<string, string>;
  const number = (key: string) => {
    const value = json[key];
    if (value === undefined) throw new Error(`loudnorm gave no ${key}`);
    return value.trim() === "-inf" ? -Infinity : value.trim() === "inf" ? Infinity : Number(value);
  };
  return { i: number("input_i"), tp: number("input_tp"), lra: number("input_lra"), thresh: number("input_thresh") };
}
