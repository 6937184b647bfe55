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

/**
 * Denoises interleaved float PCM (±1) of `channels` channels as it arrives, in RNNoise frames.
 * What comes out lines up with what went in (the one-frame lag removed), and `end()` returns the
 * rest, so the output has exactly as many samples as the input. `wet` < 1 mixes that share of the
 * denoised sound with the rest of the original (see rnnoiseWet).
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
  private closed = false;

  constructor(
    private readonly module: RnnoiseModule,
    readonly channels: number,
    private readonly wet = 1,
  ) {
    this.states = Array.from({ length: channels }, () => module._rnnoise_create(0));
    this.buffer = module._malloc(RNNOISE_FRAME * 4);
    this.pending = new Float32Array(RNNOISE_FRAME * channels);
    this.previous = new Float32Array(RNNOISE_FRAME * channels);
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
    const padFrames = this.skip + (RNNOISE_FRAME - this.pendingFrames) + RNNOISE_FRAME;
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
    const out = new Float32Array(whole * RNNOISE_FRAME * channels);
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
        const wet = this.wet;
        for (let i = 0; i < RNNOISE_FRAME; i++) {
          const k = i * channels + c;
          out[(written + i) * channels + c] = (wet * (result[offset + i] ?? 0)) / INT16_SCALE + (1 - wet) * (this.previous[k] ?? 0);
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
    const aligned = out.subarray(drop * channels);
    this.outputFrames += written - drop;
    return aligned;
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
 * out at ≈ 20 dB SI-SDR), so it helps only where the room's noise is louder than that. At 20 dB SNR
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
