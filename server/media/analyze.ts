import { streamFfmpeg, type ProgressCallback, type RunLimits } from "./ffmpeg";
import { probe, type MediaInfo } from "./probe";

/** Analysis sample rate: speech energy lives well below 8 kHz, and 16 kHz keeps the pipe small. */
export const ANALYSIS_SAMPLE_RATE = 16_000;
/** Level given to a frame of pure digital zeros (log of 0 is -∞, which JSON cannot carry). */
export const MIN_LEVEL_DB = -100;

const BYTES_PER_SAMPLE = 2;
const INT16_FULL_SCALE = 32_768;
const DB_PER_DECADE_POWER = 10;
const PERCENT = 100;
const MS_PER_SECOND = 1000;

export interface AnalysisSettings {
  /** Length of one RMS frame. */
  frameSeconds: number;
  /** The noise floor is this percentile of the frame levels (robust to speech filling most of the file). */
  floorPercentile: number;
  /** A stretch counts as speech only if it rises this far above the floor somewhere... */
  enterAboveFloorDb: number;
  /** ...and it reaches out, both ways, as long as levels stay this far above the floor (hysteresis). */
  leaveAboveFloorDb: number;
  /** Thresholds stay within this share of the floor-to-speech range (a quiet talker in a loud room). */
  maxThresholdShareOfRange: number;
  /** The speech level is this percentile of the frame levels. */
  speechPercentile: number;
  /** A dip below `leave` shorter than this does not end a stretch (a soft word ending after a stop consonant). */
  bridgeSeconds: number;
  /** Pauses shorter than this stay in (breaths between words are not cuts). */
  minSilenceSeconds: number;
  /** Isolated bursts shorter than this are clicks, not words. */
  minSpeechSeconds: number;
  /** Levels are averaged (in power) over this window before thresholds apply: 10 ms noise frames jitter by ±5 dB. */
  smoothingSeconds: number;
  /** Kept before each stretch of speech (onsets are sharp). */
  paddingBeforeSeconds: number;
  /** Kept after each stretch of speech in a quiet room (word endings fade out). */
  paddingAfterSeconds: number;
  /** Above this speech-to-floor range (dB) the room hides nothing of a word's fading end. */
  cleanRangeDb: number;
  /** Extra tail kept per dB the range falls short of `cleanRangeDb`: a noisier room hides more of each word's fade. */
  maskedTailSecondsPerDb: number;
  /** The tail padding never grows beyond this. */
  maxPaddingAfterSeconds: number;
  /** Frames at or below this are digital silence: never speech and never part of the floor estimate. */
  digitalSilenceDb: number;
  /** Below this floor-to-speech range the recording is one uniform level: there is nothing to tell apart. */
  minDynamicRangeDb: number;
  /** A uniform recording quieter than this is all silence; a louder one is kept whole (never cut blind). */
  uniformSilenceBelowDb: number;
}

/** Tuned with `npm run bench:pipeline` (quiet and −38 dBFS rooms) and the fixtures; see the bench README. */
export const DEFAULT_ANALYSIS_SETTINGS: Readonly<AnalysisSettings> = Object.freeze({
  frameSeconds: 0.01,
  floorPercentile: 10,
  enterAboveFloorDb: 12,
  leaveAboveFloorDb: 4,
  maxThresholdShareOfRange: 0.5,
  speechPercentile: 95,
  bridgeSeconds: 0.1,
  minSilenceSeconds: 0.35,
  minSpeechSeconds: 0.05,
  smoothingSeconds: 0.05,
  paddingBeforeSeconds: 0.05,
  paddingAfterSeconds: 0.12,
  cleanRangeDb: 40,
  maskedTailSecondsPerDb: 1 / 150,
  maxPaddingAfterSeconds: 0.3,
  digitalSilenceDb: -90,
  minDynamicRangeDb: 6,
  uniformSilenceBelowDb: -60,
});

export interface TimeRange {
  start: number;
  end: number;
}

export interface SilenceAnalysis {
  /** dBFS of the room between words. */
  noiseFloorDb: number;
  /** Stretches to keep (padding included), in seconds, sorted, not overlapping. */
  speech: TimeRange[];
  /** Stretches to cut: the complement of `speech` within [0, duration]. */
  silences: TimeRange[];
  duration: number;
}

/** A file with no audio stream has nothing to analyse; the caller keeps it whole. */
export class NoAudioStreamError extends Error {
  constructor(readonly file: string) {
    super(`No audio stream in ${file}`);
    this.name = "NoAudioStreamError";
  }
}

// ---------------------------------------------------------------------------------------------
// Frame levels → speech and silences (pure)
// ---------------------------------------------------------------------------------------------

type FrameRun = [start: number, end: number];

/**
 * Speech and silences from per-frame RMS levels (dBFS). Pure, for tests and for the file analyser.
 * `durationSeconds` (default: frames × frame length) lets the last, partial frame end on the true length.
 */
export function detectSpeech(
  levelsDb: ArrayLike<number>,
  overrides: Partial<AnalysisSettings> = {},
  durationSeconds?: number,
): SilenceAnalysis {
  const s = { ...DEFAULT_ANALYSIS_SETTINGS, ...overrides };
  const frames = levelsDb.length;
  const duration = durationSeconds ?? frames * s.frameSeconds;
  const levels = smoothLevels(levelsDb, secondsToFrames(s.smoothingSeconds, s), s.digitalSilenceDb);
  const audible = Array.from(levels).filter((level) => level > s.digitalSilenceDb);
  if (frames === 0 || audible.length === 0) return whole(duration, MIN_LEVEL_DB, false);
  const floor = percentile(audible, s.floorPercentile);
  const range = percentile(audible, s.speechPercentile) - floor;
  if (range < s.minDynamicRangeDb) return whole(duration, round(floor), floor > s.uniformSilenceBelowDb);

  const thresholdCap = range * s.maxThresholdShareOfRange;
  const enter = floor + Math.min(s.enterAboveFloorDb, thresholdCap);
  const leave = floor + Math.min(s.leaveAboveFloorDb, thresholdCap, s.enterAboveFloorDb);
  const raw = doubleThresholdRuns(levels, enter, leave, secondsToFrames(s.bridgeSeconds, s));
  const bridged = bridgeShortPauses(raw, secondsToFrames(s.minSilenceSeconds, s));
  const speechRuns = bridged.filter(([a, b]) => b - a >= secondsToFrames(s.minSpeechSeconds, s));
  const paddingAfter = Math.min(
    s.maxPaddingAfterSeconds,
    s.paddingAfterSeconds + Math.max(0, s.cleanRangeDb - range) * s.maskedTailSecondsPerDb,
  );
  const speech = padRuns(speechRuns, s.paddingBeforeSeconds, paddingAfter, s.frameSeconds, duration);
  return { noiseFloorDb: round(floor), speech, silences: complement(speech, duration), duration: round(duration) };
}

/** Nothing to tell apart: the whole file is one thing. */
function whole(duration: number, noiseFloorDb: number, isSpeech: boolean): SilenceAnalysis {
  const all = duration > 0 ? [{ start: 0, end: round(duration) }] : [];
  return { noiseFloorDb, speech: isSpeech ? all : [], silences: isSpeech ? [] : all, duration: round(duration) };
}

/** Centred moving average in the power domain; digital silence stays digital silence. */
export function smoothLevels(levelsDb: ArrayLike<number>, windowFrames: number, digitalSilenceDb: number): Float64Array {
  const n = levelsDb.length;
  const out = new Float64Array(n);
  const half = Math.floor(Math.max(1, windowFrames) / 2);
  const power = Float64Array.from({ length: n }, (_, i) => dbToPower(levelsDb[i] ?? MIN_LEVEL_DB));
  let sum = 0;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    for (; hi < Math.min(n, i + half + 1); hi++) sum += power[hi] ?? 0;
    for (; lo < i - half; lo++) sum -= power[lo] ?? 0;
    const level = (levelsDb[i] ?? MIN_LEVEL_DB) <= digitalSilenceDb ? MIN_LEVEL_DB : powerToDb(sum / (hi - lo));
    out[i] = level;
  }
  return out;
}

function dbToPower(db: number): number {
  return db <= MIN_LEVEL_DB ? 0 : 10 ** (db / DB_PER_DECADE_POWER);
}

function powerToDb(power: number): number {
  return power > 0 ? Math.max(MIN_LEVEL_DB, DB_PER_DECADE_POWER * Math.log10(power)) : MIN_LEVEL_DB;
}

/** Nearest-rank percentile (0..100) of a list. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = Float64Array.from(values).sort();
  const rank = Math.ceil((p / PERCENT) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? MIN_LEVEL_DB;
}

/**
 * Double threshold (Rabiner–Sambur): stretches above `leave`, joined over dips shorter than
 * `bridgeFrames`, count as speech when they reach `enter` somewhere. Unlike a forward-only
 * hysteresis this keeps soft onsets and a soft word ending after a short dip.
 */
function doubleThresholdRuns(levels: ArrayLike<number>, enter: number, leave: number, bridgeFrames: number): FrameRun[] {
  const runs: { start: number; end: number; peak: number }[] = [];
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] ?? MIN_LEVEL_DB;
    if (level < leave) continue;
    const last = runs.at(-1);
    if (last && i - last.end < bridgeFrames) {
      last.end = i + 1;
      last.peak = Math.max(last.peak, level);
    } else runs.push({ start: i, end: i + 1, peak: level });
  }
  return runs.filter((run) => run.peak >= enter).map((run): FrameRun => [run.start, run.end]);
}

/** Joins speech runs separated by less than `minGapFrames`. */
function bridgeShortPauses(runs: FrameRun[], minGapFrames: number): FrameRun[] {
  const out: FrameRun[] = [];
  for (const run of runs) {
    const last = out.at(-1);
    if (last && run[0] - last[1] < minGapFrames) last[1] = run[1];
    else out.push([run[0], run[1]]);
  }
  return out;
}

/** Frame runs → padded, merged time ranges within [0, duration]. */
function padRuns(runs: FrameRun[], before: number, after: number, frameSeconds: number, duration: number): TimeRange[] {
  const out: TimeRange[] = [];
  for (const [a, b] of runs) {
    const start = Math.max(0, a * frameSeconds - before);
    const end = Math.min(duration, b * frameSeconds + after);
    const last = out.at(-1);
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else out.push({ start, end });
  }
  return out.map((r) => ({ start: round(r.start), end: round(r.end) }));
}

/** The gaps of sorted, disjoint ranges within [0, duration]. */
export function complement(ranges: readonly TimeRange[], duration: number): TimeRange[] {
  const out: TimeRange[] = [];
  let cursor = 0;
  for (const range of ranges) {
    if (range.start > cursor) out.push({ start: round(cursor), end: round(range.start) });
    cursor = Math.max(cursor, range.end);
  }
  if (duration > cursor) out.push({ start: round(cursor), end: round(duration) });
  return out;
}

function secondsToFrames(seconds: number, s: AnalysisSettings): number {
  return Math.round(seconds / s.frameSeconds);
}

/** Millisecond precision: enough for cuts, tidy in JSON. */
function round(seconds: number): number {
  return Math.round(seconds * MS_PER_SECOND) / MS_PER_SECOND;
}

// ---------------------------------------------------------------------------------------------
// PCM → frame levels (streaming)
// ---------------------------------------------------------------------------------------------

/** Turns a stream of s16le mono bytes into one dBFS level per frame, holding only the levels. */
export class FrameMeter {
  private levels = new Float32Array(1024);
  private count = 0;
  private sumSquares = 0;
  private inFrame = 0;
  private carry: number | undefined;
  samples = 0;

  constructor(private readonly samplesPerFrame: number) {}

  push(chunk: Uint8Array): void {
    let i = 0;
    if (this.carry !== undefined && chunk.length > 0) {
      this.addSample(toInt16(this.carry, chunk[0] ?? 0));
      this.carry = undefined;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += BYTES_PER_SAMPLE) this.addSample(toInt16(chunk[i] ?? 0, chunk[i + 1] ?? 0));
    if (i < chunk.length) this.carry = chunk[i];
  }

  /** The levels so far, with a last partial frame if any. */
  finish(): Float32Array {
    if (this.inFrame > 0) this.closeFrame();
    return this.levels.subarray(0, this.count);
  }

  private addSample(sample: number): void {
    this.sumSquares += sample * sample;
    this.samples++;
    if (++this.inFrame === this.samplesPerFrame) this.closeFrame();
  }

  private closeFrame(): void {
    if (this.count === this.levels.length) {
      const grown = new Float32Array(this.levels.length * 2);
      grown.set(this.levels);
      this.levels = grown;
    }
    this.levels[this.count++] = rmsToDb(this.sumSquares / this.inFrame);
    this.sumSquares = 0;
    this.inFrame = 0;
  }
}

function toInt16(low: number, high: number): number {
  const value = low | (high << 8);
  return value >= INT16_FULL_SCALE ? value - 2 * INT16_FULL_SCALE : value;
}

function rmsToDb(meanSquare: number): number {
  if (meanSquare <= 0) return MIN_LEVEL_DB;
  const db = DB_PER_DECADE_POWER * Math.log10(meanSquare / (INT16_FULL_SCALE * INT16_FULL_SCALE));
  return Math.max(MIN_LEVEL_DB, db);
}

// ---------------------------------------------------------------------------------------------
// File → analysis
// ---------------------------------------------------------------------------------------------

export interface AnalyzeOptions extends RunLimits {
  settings?: Partial<AnalysisSettings>;
  /** The file's probe, when the caller has it already (saves one ffprobe run). */
  info?: MediaInfo;
  onProgress?: ProgressCallback;
}

/** Per-frame levels of a file's first audio track, decoded to 16 kHz mono through a pipe. */
export async function measureLevels(
  file: string,
  options: AnalyzeOptions = {},
): Promise<{ levels: Float32Array; durationSeconds: number }> {
  const info = options.info ?? (await probe(file, options));
  if (!info.hasAudio) throw new NoAudioStreamError(file);
  const frameSeconds = options.settings?.frameSeconds ?? DEFAULT_ANALYSIS_SETTINGS.frameSeconds;
  const meter = new FrameMeter(Math.round(ANALYSIS_SAMPLE_RATE * frameSeconds));
  const decoder = streamFfmpeg(
    {
      inputs: [{ file }],
      outputOptions: ["-map", "0:a:0", "-vn", "-sn", "-dn", "-ac", "1", "-ar", String(ANALYSIS_SAMPLE_RATE), "-c:a", "pcm_s16le", "-f", "s16le"],
      output: "-",
    },
    options,
  );
  const expectedSamples = info.durationSeconds * ANALYSIS_SAMPLE_RATE;
  const done = decoder.done.catch((error: unknown) => error);
  for await (const chunk of decoder.stdout as AsyncIterable<Buffer>) {
    meter.push(chunk);
    if (options.onProgress && expectedSamples > 0) options.onProgress(Math.min(1, meter.samples / expectedSamples));
  }
  const failure = await done;
  if (failure) throw failure;
  const decoded = meter.samples / ANALYSIS_SAMPLE_RATE;
  // AAC decoders emit a little end padding; the container's length is the truth.
  const durationSeconds = info.durationSeconds > 0 ? Math.min(decoded, info.durationSeconds) : decoded;
  return { levels: meter.finish(), durationSeconds };
}

/** Speech and silences of a media file. Throws NoAudioStreamError when there is no audio. */
export async function analyzeFile(file: string, options: AnalyzeOptions = {}): Promise<SilenceAnalysis> {
  const { levels, durationSeconds } = await measureLevels(file, options);
  return detectSpeech(levels, options.settings, durationSeconds);
}
