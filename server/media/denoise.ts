/**
 * The speech-trained denoiser: RNNoise (Xiph/Mozilla, BSD-3-Clause), the @echogarden/rnnoise-wasm
 * build, whose model is compiled into its 125 kB wasm and which loads in Node without a browser.
 * It denoises 48 kHz audio in 480-sample frames, each channel with its own state. The PCM streams
 * between two ffmpeg processes (decode to stdout, encode from a FIFO), so an hour of sound is never
 * held in memory.
 */
import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { open, rm } from "node:fs/promises";
import { constants } from "node:fs";
import path from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import RNNoise from "@echogarden/rnnoise-wasm";
import { runFfmpeg, streamFfmpeg, type RunLimits } from "./ffmpeg";

/** RNNoise's frame: 10 ms at 48 kHz. */
export const RNNOISE_FRAME = 480;
/** Its output lags its input by one frame (measured: the best cross-correlation lag is 480); we drop that lag. */
export const RNNOISE_DELAY = RNNOISE_FRAME;
export const RNNOISE_SAMPLE_RATE = 48_000;
/** RNNoise was trained on 16-bit sample values, not ±1 floats. */
const INT16_SCALE = 32_768;

interface RnnoiseModule {
  _rnnoise_create(model: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_process_frame(state: number, output: number, input: number): number;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  HEAPF32: Float32Array;
}

let loaded: Promise<RnnoiseModule> | undefined;

/** The wasm module, compiled once per process. */
export function loadRnnoise(): Promise<RnnoiseModule> {
  loaded ??= RNNoise() as Promise<RnnoiseModule>;
  return loaded;
}

/** The re-synthesis window: 2048 samples (43 ms at 48 kHz, 23 Hz bins), half-overlapped. */
export const MASK_WINDOW = 2048;
const MASK_HOP = MASK_WINDOW / 2;
/** Under this, nothing is speech (a low male voice starts near 80 Hz): the rumble is cut there. */
export const MASK_LOW_CUT_HZ = 60;

/** A window where RNNoise keeps under 1 % of the power (−20 dB) is a pause: the room alone. */
const PAUSE_POWER = 0.01;
/** Measured (bench:sound): 2 is best on white, pink and brown rooms; 1 leaves ½ dB more noise, 4 eats speech. */
const OVER_SUBTRACTION = 2;

/** In-place radix-2 FFT (inverse unscaled). */
function fft(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const tr = re[i] ?? 0;
      re[i] = re[j] ?? 0;
      re[j] = tr;
      const ti = im[i] ?? 0;
      im[i] = im[j] ?? 0;
      im[j] = ti;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    const half = len >> 1;
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let j = 0; j < half; j++) {
        const a = i + j;
        const b = a + half;
        const br = re[b] ?? 0;
        const bi = im[b] ?? 0;
        const tr = br * cr - bi * ci;
        const ti = br * ci + bi * cr;
        re[b] = (re[a] ?? 0) - tr;
        im[b] = (im[a] ?? 0) - ti;
        re[a] = (re[a] ?? 0) + tr;
        im[a] = (im[a] ?? 0) + ti;
        const nr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = nr;
      }
    }
  }
}

/**
 * RNNoise's gains put back on the original sound. RNNoise high-passes its input (a biquad near 15 Hz)
 * before it denoises, and that filter's phase shift on a voice's lowest harmonics is most of the
 * distortion it leaves (clean speech through it scores ≈ 20 dB SI-SDR; that filter alone does the
 * same). Here each 2048-sample window of the input and of RNNoise's output is transformed, the
 * ratio of their magnitudes (≤ 1) is RNNoise's gain in that bin, and that gain (mixed with 1 by
 * `wet`) is applied to the input: no phase change, finer bins than RNNoise's 22 bands, and the
 * rumble under 60 Hz cut. The room's spectrum, learnt where RNNoise finds no voice, caps each bin's
 * gain as spectral subtraction would (the noise left between harmonics). One channel; output lags input by MASK_HOP samples (the caller drops them).
 */
export class SpectralMask {
  private readonly x = new Float64Array(MASK_WINDOW);
  private readonly y = new Float64Array(MASK_WINDOW);
  private readonly overlap = new Float64Array(MASK_HOP);
  private filled = MASK_HOP;
  private readonly xr = new Float64Array(MASK_WINDOW);
  private readonly xi = new Float64Array(MASK_WINDOW);
  private readonly yr = new Float64Array(MASK_WINDOW);
  private readonly yi = new Float64Array(MASK_WINDOW);
  private readonly denoisedPower = new Float64Array(MASK_WINDOW / 2 + 1);
  private static readonly window = Float64Array.from({ length: MASK_WINDOW }, (_, i) => Math.sin((Math.PI * (i + 0.5)) / MASK_WINDOW));
  private readonly lowBins: number;
  /** The room's power per bin, learnt in the windows RNNoise silences (its pauses). */
  private readonly noise = new Float64Array(MASK_WINDOW / 2 + 1);
  private noiseWindows = 0;

  constructor(
    private readonly wet = 1,
    sampleRate = RNNOISE_SAMPLE_RATE,
  ) {
    this.lowBins = Math.ceil((MASK_LOW_CUT_HZ * MASK_WINDOW) / sampleRate);
  }

  /**
   * `input` and `denoised` aligned, same length. Returns MASK_HOP samples per window completed: the
   * first MASK_HOP samples ever returned are the zeros before the start (the caller drops them).
   */
  push(input: Float32Array, denoised: Float32Array): Float32Array {
    const windows = Math.floor((this.filled - MASK_HOP + input.length) / MASK_HOP);
    const out = new Float32Array(windows * MASK_HOP);
    let written = 0;
    for (let i = 0; i < input.length; i++) {
      this.x[this.filled] = input[i] ?? 0;
      this.y[this.filled] = denoised[i] ?? 0;
      this.filled++;
      if (this.filled === MASK_WINDOW) {
        this.frame(out, written);
        written += MASK_HOP;
      }
    }
    return out;
  }

  /** One window: its first half is complete and goes to out[at…]; the second half is kept. */
  private frame(out: Float32Array, at: number): void {
    const { x, y, xr, xi, yr, yi, overlap, denoisedPower } = this;
    const window = SpectralMask.window;
    // Both real windows in one complex FFT (input as the real part, RNNoise's output as the imaginary), then split.
    for (let i = 0; i < MASK_WINDOW; i++) {
      const w = window[i] ?? 0;
      yr[i] = (x[i] ?? 0) * w;
      yi[i] = (y[i] ?? 0) * w;
    }
    fft(yr, yi, false);
    const half = MASK_WINDOW / 2;
    let inputPower = 0;
    let outputPower = 0;
    for (let k = 0; k <= half; k++) {
      const j = (MASK_WINDOW - k) % MASK_WINDOW;
      const ar = yr[k] ?? 0;
      const ai = yi[k] ?? 0;
      const br = yr[j] ?? 0;
      const bi = yi[j] ?? 0;
      xr[k] = (ar + br) / 2;
      xi[k] = (ai - bi) / 2;
      const power = ((ai + bi) / 2) ** 2 + ((ar - br) / 2) ** 2;
      denoisedPower[k] = power;
      inputPower += (xr[k] ?? 0) ** 2 + (xi[k] ?? 0) ** 2;
      outputPower += power;
    }
    const { noise } = this;
    if (inputPower > 0 && outputPower < PAUSE_POWER * inputPower) {
      this.noiseWindows++;
      // A plain mean at first, then a slow running one (about 20 windows, ½ s) as the room changes.
      const a = Math.max(1 / this.noiseWindows, 0.05);
      for (let k = 0; k <= half; k++) noise[k] = (1 - a) * (noise[k] ?? 0) + a * ((xr[k] ?? 0) ** 2 + (xi[k] ?? 0) ** 2);
    }
    for (let k = 0; k <= half; k++) {
      const px = (xr[k] ?? 0) ** 2 + (xi[k] ?? 0) ** 2;
      const py = denoisedPower[k] ?? 0;
      let gain = k < this.lowBins ? 0 : px > 0 ? Math.min(1, Math.sqrt(py / px)) : 0;
      // What RNNoise's 22 bands leave between a voice's harmonics: no more than spectral subtraction
      // of the room (twice its power, the usual over-subtraction) would keep.
      if (this.noiseWindows > 0 && px > 0) gain = Math.min(gain, Math.sqrt(Math.max(0, 1 - (OVER_SUBTRACTION * (noise[k] ?? 0)) / px)));
      const g = this.wet * gain + (1 - this.wet);
      xr[k] = (xr[k] ?? 0) * g;
      xi[k] = (xi[k] ?? 0) * g;
      if (k > 0 && k < half) {
        xr[MASK_WINDOW - k] = xr[k] ?? 0;
        xi[MASK_WINDOW - k] = -(xi[k] ?? 0);
      }
    }
    fft(xr, xi, true);
    for (let i = 0; i < MASK_HOP; i++) {
      out[at + i] = (overlap[i] ?? 0) + ((xr[i] ?? 0) / MASK_WINDOW) * (window[i] ?? 0);
      overlap[i] = ((xr[i + MASK_HOP] ?? 0) / MASK_WINDOW) * (window[i + MASK_HOP] ?? 0);
    }
    x.copyWithin(0, MASK_HOP);
    y.copyWithin(0, MASK_HOP);
    this.filled = MASK_HOP;
  }
}

/**
 * Denoises interleaved float PCM (±1) of `channels` channels as it arrives, in RNNoise frames.
 * RNNoise's gains are put back on the input (SpectralMask). What comes out lines up with what went in
 * (RNNoise's one-frame lag and the mask's half window removed), and `end()` returns the rest, so the
 * output has exactly as many samples as the input. `wet` < 1 mixes that share of the denoised sound
 * with the rest of the original (see rnnoiseWet).
 */
export class RnnoiseStream {
  private readonly states: number[];
  private readonly buffer: number;
  /** Interleaved input not yet a whole frame. */
  private pending: Float32Array;
  /** The frame before: RNNoise's output for a frame is the input of the frame before (its lag). */
  private previous: Float32Array;
  private pendingFrames = 0;
  private inputFrames = 0;
  private outputFrames = 0;
  private skip = RNNOISE_DELAY;
  /** The re-synthesis' own lag (see SpectralMask), dropped after RNNoise's. */
  private maskSkip = MASK_HOP;
  private readonly masks: SpectralMask[];
  private closed = false;

  constructor(
    private readonly module: RnnoiseModule,
    readonly channels: number,
    wet = 1,
  ) {
    this.states = Array.from({ length: channels }, () => module._rnnoise_create(0));
    this.buffer = module._malloc(RNNOISE_FRAME * 4);
    this.pending = new Float32Array(RNNOISE_FRAME * channels);
    this.previous = new Float32Array(RNNOISE_FRAME * channels);
    this.masks = Array.from({ length: channels }, () => new SpectralMask(wet));
  }

  /** Denoised samples for what has come in so far (interleaved, a whole number of sample frames). */
  push(interleaved: Float32Array): Float32Array {
    if (this.closed) throw new Error("the denoiser was ended");
    if (interleaved.length % this.channels) throw new Error("a partial sample frame");
    const frames = interleaved.length / this.channels;
    this.inputFrames += frames;
    return this.feed(interleaved, frames);
  }

  /** The rest: the last partial frame and the lag, padded with silence; then the states are freed. */
  end(): Float32Array {
    if (this.closed) return new Float32Array(0);
    const owed = this.inputFrames - this.outputFrames;
    const padFrames = this.skip + (RNNOISE_FRAME - this.pendingFrames) + RNNOISE_FRAME + this.maskSkip + 2 * MASK_HOP;
    const tail = this.feed(new Float32Array(padFrames * this.channels), padFrames);
    this.destroy();
    const out = tail.subarray(0, Math.max(0, owed) * this.channels);
    this.outputFrames += Math.max(0, owed);
    return out;
  }

  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    for (const state of this.states) this.module._rnnoise_destroy(state);
    this.module._free(this.buffer);
  }

  private feed(interleaved: Float32Array, frames: number): Float32Array {
    const channels = this.channels;
    const whole = Math.floor((this.pendingFrames + frames) / RNNOISE_FRAME);
    const denoised = Array.from({ length: channels }, () => new Float32Array(whole * RNNOISE_FRAME));
    const dry = Array.from({ length: channels }, () => new Float32Array(whole * RNNOISE_FRAME));
    let written = 0;
    let read = 0;
    for (let f = 0; f < whole; f++) {
      const take = RNNOISE_FRAME - this.pendingFrames;
      this.pending.set(interleaved.subarray(read * channels, (read + take) * channels), this.pendingFrames * channels);
      read += take;
      this.pendingFrames = 0;
      const offset = this.buffer >> 2;
      for (let c = 0; c < channels; c++) {
        // HEAPF32 is looked up each time: the wasm memory may have grown and replaced it.
        const heap = this.module.HEAPF32;
        for (let i = 0; i < RNNOISE_FRAME; i++) heap[offset + i] = (this.pending[i * channels + c] ?? 0) * INT16_SCALE;
        this.module._rnnoise_process_frame(this.states[c] ?? 0, this.buffer, this.buffer);
        const result = this.module.HEAPF32;
        const y = denoised[c] ?? new Float32Array();
        const x = dry[c] ?? new Float32Array();
        for (let i = 0; i < RNNOISE_FRAME; i++) {
          y[written + i] = (result[offset + i] ?? 0) / INT16_SCALE;
          x[written + i] = this.previous[i * channels + c] ?? 0;
        }
      }
      [this.previous, this.pending] = [this.pending, this.previous];
      written += RNNOISE_FRAME;
    }
    const left = frames - read;
    this.pending.set(interleaved.subarray(read * channels, frames * channels), this.pendingFrames * channels);
    this.pendingFrames += left;
    // The first RNNOISE_DELAY samples out are the lag: dropped.
    const drop = Math.min(this.skip, written);
    this.skip -= drop;
    // RNNoise's gains put back on the input it was given (SpectralMask), each channel on its own.
    const masked = this.masks.map((mask, c) => mask.push((dry[c] ?? new Float32Array()).subarray(drop), (denoised[c] ?? new Float32Array()).subarray(drop)));
    const count = masked[0]?.length ?? 0;
    const out = new Float32Array(count * channels);
    for (let c = 0; c < channels; c++) {
      const m = masked[c] ?? new Float32Array();
      for (let i = 0; i < count; i++) out[i * channels + c] = m[i] ?? 0;
    }
    const lag = Math.min(this.maskSkip, count);
    this.maskSkip -= lag;
    this.outputFrames += count - lag;
    return out.subarray(lag * channels);
  }
}

/** A byte stream of interleaved f32le PCM through RNNoise (chunks are cut anywhere). */
export class RnnoiseTransform extends Transform {
  private carry = Buffer.alloc(0);

  constructor(private readonly denoiser: RnnoiseStream) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
      // Whole sample frames only (4 bytes a channel): a pipe cuts its chunks anywhere.
      const frameBytes = 4 * this.denoiser.channels;
      const usable = bytes.length - (bytes.length % frameBytes);
      this.carry = Buffer.from(bytes.subarray(usable));
      const copy = new Float32Array(usable / 4);
      Buffer.from(copy.buffer).set(bytes.subarray(0, usable));
      const out = this.denoiser.push(copy);
      if (out.length) this.push(Buffer.from(out.buffer, out.byteOffset, out.byteLength));
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      const out = this.denoiser.end();
      if (out.length) this.push(Buffer.from(out.buffer, out.byteOffset, out.byteLength));
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    this.denoiser.destroy();
    callback(error);
  }
}

/**
 * How much of RNNoise's output a render uses, from the room's signal-to-noise ratio. Measured
 * (bench:sound): RNNoise leaves its own distortion about 20 dB under the speech (clean speech comes
 * out at ≈ 20 dB SI-SDR; 24–32 dB with its gains put back on the input, still worse than a quiet room
 * left alone), so it helps only where the room's noise is louder than that. At 20 dB SNR
 * or less: all of it; at 30 dB or more (a quiet room): none, the sound is left as it is; between, a mix.
 */
export function rnnoiseWet(snrDb: number): number {
  if (!Number.isFinite(snrDb)) return snrDb < 0 ? 1 : 0;
  return Math.min(1, Math.max(0, (FULL_WET_ABOVE_SNR_DB - snrDb) / (FULL_WET_ABOVE_SNR_DB - FULL_WET_BELOW_SNR_DB)));
}
const FULL_WET_BELOW_SNR_DB = 20;
const FULL_WET_ABOVE_SNR_DB = 30;

/** Frames for the room measure: 20 ms at 16 kHz. */
const ROOM_RATE = 16_000;
const ROOM_FRAME = 320;
/**
 * Channels whose difference is this far under their mid (−25 dB) are one sound: the AAC encode of a
 * mono recording leaves about −30 dB of coding noise between them (measured on bench:sound's clips);
 * a stereo room is wider. What is dropped is that noise, or a room the denoiser takes out anyway.
 */
const DUAL_MONO_SIDE = 10 ** (-25 / 10);
/** Frames below this are digital silence (a muted scene, padding), not the room. */
const DIGITAL_SILENCE_DB = -100;

/**
 * The room of a sound (our stereo FLAC): its noise floor (the 10th percentile of 20 ms frame levels,
 * digital silence left out: the pauses) and its speech level (the 95th percentile), in dBFS, and their
 * difference; and whether both channels carry the same sound (a mono recording, whatever its AAC
 * coding left between them), which RNNoise then denoises once, as their mid.
 */
export async function measureRoom(file: string, limits: RunLimits = {}): Promise<{ floorDb: number; speechDb: number; snrDb: number; dualMono: boolean }> {
  const decode = streamFfmpeg({ inputs: [{ file, format: "flac", internal: true }], outputOptions: ["-map", "0:a:0", "-ac", "2", "-ar", String(ROOM_RATE), "-f", "f32le"], output: "-" }, limits);
  const levels: number[] = [];
  let mid = 0;
  let side = 0;
  let carry = Buffer.alloc(0);
  for await (const chunk of decode.stdout as AsyncIterable<Buffer>) {
    const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const frameBytes = ROOM_FRAME * 8;
    const whole = bytes.length - (bytes.length % frameBytes);
    for (let at = 0; at < whole; at += frameBytes) {
      let sum = 0;
      for (let i = 0; i < ROOM_FRAME; i++) {
        const left = bytes.readFloatLE(at + 8 * i);
        const right = bytes.readFloatLE(at + 8 * i + 4);
        const m = ((left + right) / 2) ** 2;
        sum += m;
        mid += m;
        side += ((left - right) / 2) ** 2;
      }
      const db = 10 * Math.log10(sum / ROOM_FRAME + 1e-30);
      if (db > DIGITAL_SILENCE_DB) levels.push(db);
    }
    carry = Buffer.from(bytes.subarray(whole));
  }
  await decode.done;
  const dualMono = side <= DUAL_MONO_SIDE * mid;
  if (levels.length === 0) return { floorDb: -Infinity, speechDb: -Infinity, snrDb: Infinity, dualMono };
  levels.sort((a, b) => a - b);
  const at = (q: number) => levels[Math.min(levels.length - 1, Math.floor(q * levels.length))] ?? -Infinity;
  const floorDb = at(0.1);
  const speechDb = at(0.95);
  return { floorDb, speechDb, snrDb: speechDb - floorDb, dualMono };
}

const run = promisify(execFile);
let fifoCount = 0;

/**
 * `input` (our FLAC, 48 kHz stereo) denoised by RNNoise into `output` (FLAC), `after` filters
 * applied on the way out (the voice booster). Same length, same alignment.
 */
export async function rnnoiseFile(input: string, output: string, options: RunLimits & { scratch: string; after?: readonly string[]; wet?: number; mono?: boolean }): Promise<void> {
  const module = await loadRnnoise();
  // Both channels the same: denoised once and written back to both (half the work).
  const channels = options.mono ? 1 : 2;
  const rate = String(RNNOISE_SAMPLE_RATE);
  const fifo = path.join(options.scratch, `denoise-${process.pid}-${fifoCount++}.pcm`);
  await run("mkfifo", ["-m", "600", fifo]);
  const limits: RunLimits = { threads: options.threads, timeoutMs: options.timeoutMs, signal: options.signal, logLevel: options.logLevel };
  const decode = streamFfmpeg({ inputs: [{ file: input, format: "flac", internal: true }], outputOptions: ["-map", "0:a:0", ...(options.mono ? ["-af", "pan=mono|c0=0.5*c0+0.5*c1"] : []), "-ac", String(channels), "-ar", rate, "-f", "f32le"], output: "-" }, limits);
  // Back to both channels at full level (ffmpeg's own mono-to-stereo lowers each by 3 dB).
  const after = [...(options.mono ? ["pan=stereo|c0=c0|c1=c0"] : []), ...(options.after ?? [])];
  const encode = runFfmpeg(
    {
      inputs: [{ file: fifo, format: "f32le", internal: true, options: ["-ar", rate, "-ac", String(channels)] }],
      outputOptions: [...(after.length ? ["-af", after.join(",")] : []), "-c:a", "flac", "-ar", rate, "-ac", "2", "-f", "flac"],
      output,
    },
    limits,
  );
  // Opening a FIFO to write waits for its reader: if the encoder dies first, open it ourselves so the writer is released.
  const release = () =>
    open(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
      .then((handle) => handle.close())
      .catch(() => undefined);
  const encoded = encode.catch(async (error: unknown) => {
    await release();
    throw error;
  });
  try {
    await Promise.all([pipeline(decode.stdout, new RnnoiseTransform(new RnnoiseStream(module, channels, options.wet ?? 1)), createWriteStream(fifo)), decode.done, encoded]);
  } catch (error) {
    decode.stop();
    await release();
    await Promise.allSettled([decode.done, encoded]);
    throw error;
  } finally {
    await rm(fifo, { force: true });
  }
}
