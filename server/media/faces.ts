/**
 * Issue 17: faces on sparse samples of a video. ffmpeg decodes `fps` frames a second, scaled to the detector's
 * input (long side 256, the size BlazeFace was trained at; padded to its 16-pixel grid) as raw RGB, so no pixel
 * is resized in JavaScript; a pool of worker threads (face-worker.mjs: BlazeFace on TensorFlow.js's WebAssembly
 * backend, all inside npm packages), kept warm between files, finds the faces on each. CPU only, no network.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { FaceSample } from "../domain/faces";
import { MediaAbortedError, streamFfmpeg, type RunLimits } from "./ffmpeg";

export const FACE_DEFAULTS = Object.freeze({
  /** Samples a second (issue 17: 2–4 a second of footage). */
  fps: 2,
  /** The long side of a sample in pixels (BlazeFace's scale: smaller misses small faces, larger finds no more). */
  longSide: 256,
  /** Lowest detector confidence kept. */
  minScore: 0.5,
  maxFaces: 10,
});

export interface FaceDetectOptions extends RunLimits {
  fps?: number;
  /** Worker threads (default: the CPU count, at most 2, so the server keeps room). */
  workers?: number;
  /** The video's display size (for the sample's shape). */
  width: number;
  height: number;
  format?: string;
  /** Our own file (the proxy): read with its stated format. */
  internal?: boolean;
  onProgress?: (seconds: number) => void;
}

/** The worker beside this file (resolved when a detector starts). */
const workerFile = () => fileURLToPath(new URL("./face-worker.mjs", import.meta.url));

interface Reply {
  id?: number;
  ready?: boolean;
  faces?: { x: number; y: number; w: number; h: number; score: number }[];
  error?: string;
}

/** One detector thread: send a frame, get its faces; frames are answered in order. */
class DetectorThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  readonly ready: Promise<void>;
  busy = 0;
  /** It failed or ended: the pool starts another in its place. */
  dead = false;

  constructor() {
    this.worker = new Worker(workerFile(), { workerData: { minScore: FACE_DEFAULTS.minScore, maxFaces: FACE_DEFAULTS.maxFaces } });
    let started: (() => void) | undefined;
    let failed: ((e: Error) => void) | undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    this.worker.on("message", (reply: Reply) => {
      if (reply.ready) return started?.();
      if (reply.id === undefined) return failed?.(new Error(`face detector failed to start: ${reply.error}`));
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      this.busy--;
      if (reply.error) waiter?.reject(new Error(`face detection failed: ${reply.error}`));
      else waiter?.resolve(reply);
    });
    const end = (error: Error) => {
      this.dead = true;
      failed?.(error);
      for (const w of this.waiting.values()) w.reject(error);
      this.waiting.clear();
    };
    this.worker.on("error", end);
    this.worker.on("exit", (code) => end(new Error(`face detector stopped (${code})`)));
    this.ready.catch(() => void (this.dead = true));
  }

  /** Whether the thread keeps the process alive (only while a detection uses it). */
  hold(held: boolean) {
    if (held) this.worker.ref();
    else this.worker.unref();
  }

  detect(id: number, width: number, height: number, pixels: Uint8Array): Promise<Reply> {
    this.busy++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, width, height, pixels }, [pixels.buffer as ArrayBuffer]);
    });
  }

  stop() {
    return this.worker.terminate();
  }
}

/**
 * Warm detector threads, shared by the detections of one process: starting one (the WebAssembly module, the model,
 * its first run) costs about as much CPU as 10 samples, so they are kept for a while after their last frame (the
 * files of a project come one after another) and then stopped.
 */
const IDLE_MS = 20_000;
const pool: DetectorThread[] = [];
let users = 0;
let idleTimer: NodeJS.Timeout | undefined;
/** Message ids, unique across the detections sharing the threads. */
let nextId = 0;

function acquireThreads(count: number): DetectorThread[] {
  clearTimeout(idleTimer);
  users++;
  for (let i = pool.length - 1; i >= 0; i--) if (pool[i]!.dead) pool.splice(i, 1);
  while (pool.length < count) pool.push(new DetectorThread());
  for (const thread of pool) thread.hold(true);
  return pool.slice(0, count);
}

function releaseThreads(): void {
  users--;
  if (users > 0) return;
  for (const thread of pool) thread.hold(false);
  idleTimer = setTimeout(() => void Promise.all(pool.splice(0).map((thread) => thread.stop())), IDLE_MS);
  idleTimer.unref();
}

/** The detector's grid: its input's sides are multiples of this (the picture is padded to them). */
const GRID = 16;

/** Even pixel size of a sample whose long side is `longSide`, keeping the picture's shape. */
export function sampleSize(width: number, height: number, longSide: number = FACE_DEFAULTS.longSide): { width: number; height: number } {
  const scale = longSide / Math.max(width, height, 1);
  const even = (v: number) => Math.max(2, 2 * Math.round(v / 2));
  return { width: even(width * scale), height: even(height * scale) };
}

/** The faces on `fps` samples a second of `file` (times in seconds of the file). */
export async function detectFaces(file: string, options: FaceDetectOptions): Promise<FaceSample[]> {
  const fps = options.fps ?? FACE_DEFAULTS.fps;
  // The picture keeps its shape, padded at the right and bottom to the detector's grid.
  const picture = sampleSize(options.width, options.height);
  const width = Math.ceil(picture.width / GRID) * GRID;
  const height = Math.ceil(picture.height / GRID) * GRID;
  const sx = width / picture.width;
  const sy = height / picture.height;
  const frameBytes = width * height * 3;
  const count = Math.max(1, Math.min(options.workers ?? Math.min(2, os.availableParallelism()), 4));
  const threads = acquireThreads(count);
  const samples: FaceSample[] = [];
  const pending: Promise<void>[] = [];
  let failure: unknown;
  try {
    await Promise.all(threads.map((t) => t.ready));
    const run = streamFfmpeg(
      {
        inputs: [{ file, format: options.format, internal: options.internal }],
        // Frames at the sample times (t = n / fps), scaled small; no sound. The fps filter keeps the last frame that
        // rounds to a sample, so rounding up makes it the one at or just before the sample (with `near` it was up to
        // half a sample interval later: a walking face was found ahead of where it was at that time).
        outputOptions: ["-map", "0:v:0", "-an", "-vf", `fps=${fps}:round=up,scale=${picture.width}:${picture.height}:flags=bilinear,pad=${width}:${height}:0:0:black`, "-f", "rawvideo", "-pix_fmt", "rgb24"],
        output: "-",
      },
      { threads: 1, signal: options.signal, timeoutMs: options.timeoutMs },
    );
    let buffered: Buffer[] = [];
    let size = 0;
    let index = 0;
    const send = async (frame: Buffer) => {
      const n = index++;
      // Least busy thread; wait while every one has two frames queued (the decode waits with it).
      let thread = threads.reduce((a, b) => (b.busy < a.busy ? b : a));
      while (thread.busy >= 2) {
        await Promise.race(pending);
        thread = threads.reduce((a, b) => (b.busy < a.busy ? b : a));
      }
      const pixels = new Uint8Array(frameBytes);
      pixels.set(frame);
      const job: Promise<void> = thread
        .detect(nextId++, width, height, pixels)
        .then((reply) => {
          samples.push({ t: n / fps, faces: (reply.faces ?? []).map((f) => ({ x: f.x * sx, y: f.y * sy, w: f.w * sx, h: f.h * sy, score: f.score })).filter((f) => f.w > 0 && f.h > 0 && f.x < 1 && f.y < 1) });
          options.onProgress?.(n / fps);
        })
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => void pending.splice(pending.indexOf(job), 1));
      pending.push(job);
    };
    for await (const chunk of run.stdout as AsyncIterable<Buffer>) {
      if (options.signal?.aborted) throw new MediaAbortedError();
      if (failure) throw failure;
      buffered.push(chunk);
      size += chunk.length;
      while (size >= frameBytes) {
        const all = Buffer.concat(buffered);
        await send(all.subarray(0, frameBytes));
        const rest = all.subarray(frameBytes);
        buffered = rest.length ? [rest] : [];
        size = rest.length;
      }
    }
    await run.done;
    await Promise.all(pending);
    if (failure) throw failure;
  } finally {
    releaseThreads();
  }
  return samples.sort((a, b) => a.t - b.t);
}
