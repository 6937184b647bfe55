import { streamFfmpeg, type ProgressCallback, type RunLimits } from "./ffmpeg";
import { mediaInput, probe, type MediaInfo } from "./probe";

/** Analysis sample rate: speech energy lives well below 8 kHz, and 16 kHz keeps the pipe small. */
export const ANALYSIS_SAMPLE_RATE = 16_000;
/** Level given to a frame of pure digital zeros (log of 0 is -∞, which JSON cannot carry). */
export const MIN_LEVEL_DB = -100;

/** Levels need no steep anti-alias filter: a shorter resampler filter decodes ~15 % faster. */
const RESAMPLER_FILTER_SIZE = 16;
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
  /** After padding, a cut shorter than this is not worth a jump in the picture: the pause stays. */
  minCutSeconds: number;
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
  /** Onsets are sharper than fades: this share of the masked tail is kept before each stretch too. */
  maskedOnsetShare: number;
  /** A word's fade below this (dBFS) is inaudible anyway: a room whose floor is near it masks nothing worth keeping. */
  inaudibleDb: number;
  /** The tail padding never grows beyond this. */
  maxPaddingAfterSeconds: number;
  /** Sound below this (Hz) is filtered out before levels are measured: the rumble of fans, traffic and handling, which masks no consonant; voices keep their harmonics above it. */
  highpassHz: number;
  /** Frames at or below this are digital silence: never speech and never part of the floor estimate. */
  digitalSilenceDb: number;
  /** Below this floor-to-speech range the recording is one uniform level: there is nothing to tell apart. */
  minDynamicRangeDb: number;
  /** A uniform recording quieter than this is all silence; a louder one is kept whole (never cut blind). */
  uniformSilenceBelowDb: number;
}

/** Tuned with `npm run bench:pipeline` (10-min talk in a −60 and a −38 dBFS room, and six other talks: voices, speeds, white/pink/brown rooms, reverberation) and the fixtures. */
export const DEFAULT_ANALYSIS_SETTINGS: Readonly<AnalysisSettings> = Object.freeze({
  frameSeconds: 0.01,
  floorPercentile: 10,
  enterAboveFloorDb: 12,
  leaveAboveFloorDb: 4,
  maxThresholdShareOfRange: 0.5,
  speechPercentile: 95,
  bridgeSeconds: 0.1,
  minSilenceSeconds: 0.35,
  minCutSeconds: 0.1,
  minSpeechSeconds: 0.05,
  smoothingSeconds: 0.05,
  paddingBeforeSeconds: 0.03,
  paddingAfterSeconds: 0.1,
  cleanRangeDb: 40,
  maskedTailSecondsPerDb: 1 / 130,
  maxPaddingAfterSeconds: 0.3,
  inaudibleDb: -72,
  maskedOnsetShare: 0.25,
  highpassHz: 200,
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
  // A noisier room hides more of each word's fade, and a little of its onset.
  const masked = Math.max(0, Math.min(s.cleanRangeDb - range, floor - s.inaudibleDb)) * s.maskedTailSecondsPerDb;
  const paddingAfter = Math.min(s.maxPaddingAfterSeconds, s.paddingAfterSeconds + masked);
  const paddingBefore = s.paddingBeforeSeconds + masked * s.maskedOnsetShare;
  const speech = padRuns(
    speechRuns,
    { before: paddingBefore, after: paddingAfter, minCut: s.minCutSeconds },
    s.frameSeconds,
    duration,
  );
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

/** Frame runs → padded time ranges within [0, duration], merged where the cut between would be too short. */
function padRuns(
  runs: FrameRun[],
  pad: { before: number; after: number; minCut: number },
  frameSeconds: number,
  duration: number,
): TimeRange[] {
  const out: TimeRange[] = [];
  for (const [a, b] of runs) {
    const start = Math.max(0, a * frameSeconds - pad.before);
    const end = Math.min(duration, b * frameSeconds + pad.after);
    const last = out.at(-1);
    if (last && start - last.end < pad.minCut) last.end = Math.max(last.end, end);
    else out.push({ start, end });
  }
  const first = out[0];
  if (first && first.start < pad.minCut) first.start = 0;
  const final = out.at(-1);
  if (final && duration - final.end < pad.minCut) final.end = duration;
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

/** Room for ~10 s of frames before the first growth; the array doubles as needed. */
const INITIAL_FRAME_CAPACITY = 1024;

/** Turns a stream of s16le mono bytes into one dBFS level per frame, holding only the levels. */
export class FrameMeter {
  private levels = new Float32Array(INITIAL_FRAME_CAPACITY);
  private count = 0;
  private sumSquares = 0;
  private inFrame = 0;
  private carry: number | undefined;
  samples = 0;
  /** Second-order high-pass (RBJ biquad, Q = 1/√2) coefficients and state, when asked for: cheaper here than in ffmpeg. */
  private readonly filter: { b0: number; b1: number; b2: number; a1: number; a2: number } | undefined;
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(
    private readonly samplesPerFrame: number,
    highpass?: { highpassHz: number; sampleRate: number },
  ) {
    if (highpass && highpass.highpassHz > 0 && highpass.highpassHz < highpass.sampleRate / 2) {
      const w = (2 * Math.PI * highpass.highpassHz) / highpass.sampleRate;
      const alpha = Math.sin(w) / Math.SQRT2;
      const a0 = 1 + alpha;
      const cos = Math.cos(w);
      this.filter = { b0: (1 + cos) / 2 / a0, b1: -(1 + cos) / a0, b2: (1 + cos) / 2 / a0, a1: (-2 * cos) / a0, a2: (1 - alpha) / a0 };
    }
  }

  push(chunk: Uint8Array): void {
    let offset = 0;
    if (this.carry !== undefined && chunk.length > 0) {
      this.addSamples(Int16Array.of(toInt16(this.carry, chunk[0] ?? 0)));
      this.carry = undefined;
      offset = 1;
    }
    const whole = (chunk.length - offset) & ~1;
    if (whole > 0) this.addSamples(int16View(chunk, offset, whole));
    if (offset + whole < chunk.length) this.carry = chunk[chunk.length - 1];
  }

  /** The levels so far, with a last partial frame if any. */
  finish(): Float32Array {
    if (this.inFrame > 0) this.closeFrame();
    return this.levels.subarray(0, this.count);
  }

  /** The hot loop: plain arithmetic over a typed array, one frame boundary check per sample. */
  private addSamples(raw: Int16Array): void {
    const samples = this.filter ? this.highpass(raw) : raw;
    let sum = this.sumSquares;
    let inFrame = this.inFrame;
    for (let i = 0; i < samples.length; i++) {
      const sample = samples[i] ?? 0;
      sum += sample * sample;
      if (++inFrame === this.samplesPerFrame) {
        this.sumSquares = sum;
        this.inFrame = inFrame;
        this.closeFrame();
        sum = 0;
        inFrame = 0;
      }
    }
    this.sumSquares = sum;
    this.inFrame = inFrame;
    this.samples += samples.length;
  }

  private highpass(samples: Int16Array): Float64Array {
    const { b0, b1, b2, a1, a2 } = this.filter!;
    const out = new Float64Array(samples.length);
    let { x1, x2, y1, y2 } = this;
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i] ?? 0;
      const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      out[i] = y;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
    }
    Object.assign(this, { x1, x2, y1, y2 });
    return out;
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

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Little-endian samples as an Int16Array, without a copy when the bytes are aligned. */
function int16View(bytes: Uint8Array, offset: number, length: number): Int16Array {
  const start = bytes.byteOffset + offset;
  if (start % BYTES_PER_SAMPLE === 0 && LITTLE_ENDIAN) return new Int16Array(bytes.buffer, start, length / BYTES_PER_SAMPLE);
  const out = new Int16Array(length / BYTES_PER_SAMPLE);
  for (let i = 0; i < out.length; i++) out[i] = toInt16(bytes[offset + 2 * i] ?? 0, bytes[offset + 2 * i + 1] ?? 0);
  return out;
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
  const meter = new FrameMeter(Math.round(ANALYSIS_SAMPLE_RATE * frameSeconds), {
    highpassHz: options.settings?.highpassHz ?? DEFAULT_ANALYSIS_SETTINGS.highpassHz,
    sampleRate: ANALYSIS_SAMPLE_RATE,
  });
  const decoder = streamFfmpeg(
    {
      inputs: [mediaInput(file, info)],
      // -flush_packets 0: write the pipe in full buffers, not one tiny write per audio frame.
      outputOptions: [
        "-map", "0:a:0", "-vn", "-sn", "-dn", "-ac", "1",
        "-af", `aresample=${ANALYSIS_SAMPLE_RATE}:filter_size=${RESAMPLER_FILTER_SIZE}`,
        "-c:a", "pcm_s16le", "-flush_packets", "0", "-f", "s16le",
      ],
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
