import type { ChildProcess } from "node:child_process";
import { accessSync, constants as fsConstants } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Readable } from "node:stream";
import { spawnChild } from "./children";

/** Threads per ffmpeg run unless told otherwise: a job must leave room for the HTTP server and other jobs. */
export const DEFAULT_THREADS = 2;
/** Longest an ffmpeg run may take before it is killed (a stuck decode must not hold a worker forever). */
export const DEFAULT_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** Longest an ffprobe run may take. */
export const DEFAULT_PROBE_TIMEOUT_MS = 60 * 1000;
/** How many of ffmpeg's last stderr lines an error carries. */
export const STDERR_TAIL_LINES = 20;
/** Only local files: a crafted playlist must not make the server fetch URLs (our outputs go to pipes, never our inputs). */
export const PROTOCOL_WHITELIST = "file";

/**
 * The demuxers a user's file may be read with, as `-f` names them (issue 12 item 1). Every one reads
 * the file it is given and nothing else: no playlists (hls, dash), lists (concat), sequences or
 * patterns (image2), session descriptions (sdp, rtp), devices or filter graphs (lavfi). ffprobe and
 * ffmpeg detect a demuxer from the content whatever the name, so detection itself is limited to
 * these (`-format_whitelist`) and every later run names the one the upload's probe found (`-f`).
 */
export const ALLOWED_CONTAINERS: readonly string[] = Object.freeze([
  // video (and their audio-only cousins: m4a, 3gp and webm are mov and matroska)
  "mov", "matroska", "avi", "mpegts", "mpeg", "ogg", "flv", "asf", "mxf", "dv",
  // audio
  "wav", "w64", "mp3", "flac", "aac", "aiff", "caf", "amr",
  // single pictures (and animated ones: gif, apng)
  "png_pipe", "apng", "jpeg_pipe", "webp_pipe", "gif", "bmp_pipe", "tiff_pipe",
]);

/**
 * Largest picture any decoder of a user's file may allocate (`-max_pixels`): 8192×8192, a 64 MP still
 * (phones shoot 48–50 MP). probe.ts refuses video above 8K and stills above this before any decode.
 */
export const MAX_DECODED_PIXELS = 8192 * 8192;

const MICROSECONDS = 1_000_000;
const KILL_GRACE_MS = 2_000;

export class FfmpegNotFoundError extends Error {
  constructor(readonly binary: "ffmpeg" | "ffprobe") {
    super(`${binary} was not found: set ${binary.toUpperCase()}_PATH or install ${binary} on the PATH`);
    this.name = "FfmpegNotFoundError";
  }
}

export interface FfmpegFailure {
  binary: "ffmpeg" | "ffprobe";
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stderrTail: string[];
}

/** A failed run, with ffmpeg's own last words so the log says why. */
export class FfmpegError extends Error {
  readonly binary: FfmpegFailure["binary"];
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stderrTail: string[];

  constructor(failure: FfmpegFailure) {
    const how = failure.timedOut
      ? "timed out"
      : failure.signal
        ? `was killed by ${failure.signal}`
        : `exited with code ${failure.exitCode}`;
    const tail = failure.stderrTail.length > 0 ? `: ${failure.stderrTail.join(" | ")}` : "";
    super(`${failure.binary} ${how}${tail}`);
    this.name = "FfmpegError";
    this.binary = failure.binary;
    this.exitCode = failure.exitCode;
    this.signal = failure.signal;
    this.timedOut = failure.timedOut;
    this.stderrTail = failure.stderrTail;
  }
}

/** Thrown when the caller's AbortSignal fires; the child process is killed. */
export class MediaAbortedError extends Error {
  constructor() {
    super("The media operation was aborted");
    this.name = "AbortError";
  }
}

// ---------------------------------------------------------------------------------------------
// Locating the binaries
// ---------------------------------------------------------------------------------------------

/** Where a binary is: `<NAME>_PATH`, else the PATH, else an npm installer package if one is present. */
export function locateBinary(binary: "ffmpeg" | "ffprobe", env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[`${binary.toUpperCase()}_PATH`];
  if (fromEnv) return fromEnv;
  const onPath = findOnPath(binary, env.PATH ?? "");
  if (onPath) return onPath;
  const bundled = bundledBinary(binary);
  if (bundled) return bundled;
  throw new FfmpegNotFoundError(binary);
}

function findOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `@ffmpeg-installer/ffmpeg` / `@ffprobe-installer/ffprobe`, used only when installed (they are not dependencies). */
function bundledBinary(binary: "ffmpeg" | "ffprobe"): string | undefined {
  const pkg = binary === "ffmpeg" ? "@ffmpeg-installer/ffmpeg" : "@ffprobe-installer/ffprobe";
  try {
    const required = createRequire(import.meta.url)(pkg) as { path?: unknown };
    return typeof required.path === "string" && isExecutable(required.path) ? required.path : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Building the command line
// ---------------------------------------------------------------------------------------------

export interface FfmpegInput {
  /** A path (made absolute, so a leading "-" or "x:" is never read as an option or protocol) or a lavfi graph. */
  file: string;
  /** Input options placed before `-i`, e.g. `["-ss", "3", "-t", "2"]`. */
  options?: string[];
  /** `true` for `-f lavfi` sources, whose "file" is a filter description. */
  lavfi?: boolean;
  /**
   * The demuxer (`-f`): for a user's file the container its upload's probe found (MediaInfo.container),
   * one of ALLOWED_CONTAINERS; without it, detection is limited to those.
   */
  format?: string;
  /** One of our own intermediate files (a concat list of chunks, a chunk's sound): read with its `format`, whatever it is. */
  internal?: boolean;
}

export interface FfmpegCommand {
  inputs: FfmpegInput[];
  /** Options between the inputs and the output: maps, filters, codecs. */
  outputOptions: string[];
  /** An output path, or `"-"` for stdout (with `-f`), or `null` for `-f null`. */
  output: string | null;
  /** Options placed before everything else (e.g. `-filter_complex_script`). */
  globalOptions?: string[];
}

export interface RunLimits {
  threads?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** ffmpeg's log level on stderr; "error" keeps the tail short and to the point. */
  logLevel?: "quiet" | "error" | "warning" | "info";
}

/** The full argument list: the common safety prefix, per-input thread cap and whitelist, then the output. */
export function buildArgs(command: FfmpegCommand, limits: RunLimits = {}, withProgress = false): string[] {
  const threads = String(limits.threads ?? DEFAULT_THREADS);
  const args = ["-nostdin", "-hide_banner", "-nostats", "-loglevel", limits.logLevel ?? "error"];
  args.push("-filter_complex_threads", threads, "-filter_threads", threads);
  if (withProgress) args.push("-progress", "pipe:1");
  args.push(...(command.globalOptions ?? []));
  for (const input of command.inputs) {
    if (input.lavfi) {
      args.push(...(input.options ?? []), "-f", "lavfi", "-i", input.file);
    } else {
      args.push("-threads", threads, "-protocol_whitelist", PROTOCOL_WHITELIST, ...inputGuards(input), ...(input.options ?? []));
      args.push("-i", path.resolve(input.file));
    }
  }
  args.push(...command.outputOptions, "-threads", threads);
  if (command.output === null) args.push("-f", "null", "-");
  else if (command.output === "-") args.push("pipe:1");
  else args.push("-y", path.resolve(command.output));
  return args;
}

/**
 * What a file input reads with: our own files their stated demuxer; a user's file only an allowed
 * demuxer (the one named, else one detected among the allowed) and pictures of at most MAX_DECODED_PIXELS.
 */
export function inputGuards(input: Pick<FfmpegInput, "format" | "internal"> & { singlePicture?: boolean }): string[] {
  if (input.internal) {
    if (!input.format) throw new Error("An internal ffmpeg input names its format");
    return ["-f", input.format];
  }
  if (input.format !== undefined && !ALLOWED_CONTAINERS.includes(input.format)) throw new Error(`Container not allowed: ${input.format}`);
  // image2 picks files by the name's extension; it may only read the one file a literal name names.
  const detect = input.singlePicture ? [...ALLOWED_CONTAINERS, "image2"] : ALLOWED_CONTAINERS;
  return ["-format_whitelist", detect.join(","), "-max_pixels", String(MAX_DECODED_PIXELS), ...(input.format ? ["-f", input.format] : [])];
}

/** A name image2 reads as exactly one file: no sequence pattern (%d) or glob character in it. */
export const isLiteralName = (file: string) => !/[%*?[\]{}]/.test(path.resolve(file));

// ---------------------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------------------

export type ProgressCallback = (fraction: number) => void;

/** Reads `-progress` key=value lines and reports out_time as a 0..1 fraction of a known duration. */
export class ProgressParser {
  private lastFraction = -1;
  private pending = "";

  constructor(
    private readonly durationSeconds: number | undefined,
    private readonly onProgress: ProgressCallback,
  ) {}

  /** Feed raw stdout text; complete lines are parsed, a partial line waits for the next chunk. */
  push(text: string): void {
    const lines = (this.pending + text).split("\n");
    this.pending = lines.pop() ?? "";
    for (const line of lines) this.line(line.trim());
  }

  line(line: string): void {
    const eq = line.indexOf("=");
    if (eq < 0) return;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    if (key === "progress" && value === "end") this.emit(1);
    else if (key === "out_time_us" || key === "out_time_ms") this.emitTime(Number(value) / MICROSECONDS);
    else if (key === "out_time") this.emitTime(parseClock(value));
  }

  private emitTime(seconds: number): void {
    if (!this.durationSeconds || !Number.isFinite(seconds) || seconds < 0) return;
    this.emit(Math.min(1, seconds / this.durationSeconds));
  }

  /** Never goes backwards and never repeats a value. */
  private emit(fraction: number): void {
    if (fraction <= this.lastFraction) return;
    this.lastFraction = fraction;
    this.onProgress(fraction);
  }
}

/** "01:02:03.500000" → 3723.5; NaN for "N/A". */
export function parseClock(clock: string): number {
  const parts = clock.split(":").map(Number);
  if (parts.length !== 3 || parts.some((p) => !Number.isFinite(p))) return Number.NaN;
  const [h = 0, m = 0, s = 0] = parts;
  return h * 3600 + m * 60 + s;
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

/** Keeps the last N lines of a stream, and hands each complete line to an optional listener. */
class LineTail {
  readonly lines: string[] = [];
  private pending = "";

  constructor(
    private readonly max: number,
    private readonly onLine?: (line: string) => void,
  ) {}

  push(text: string): void {
    const parts = (this.pending + text).split(/\r?\n|\r/);
    this.pending = parts.pop() ?? "";
    for (const part of parts) this.add(part);
  }

  end(): void {
    if (this.pending) this.add(this.pending);
    this.pending = "";
  }

  private add(line: string): void {
    const trimmed = line.trim();
    if (!trimmed) return;
    this.onLine?.(trimmed);
    this.lines.push(trimmed);
    if (this.lines.length > this.max) this.lines.shift();
  }
}

interface Supervised {
  child: ChildProcess;
  stderr: LineTail;
  /** Resolves when the process exits cleanly; rejects with FfmpegError / MediaAbortedError otherwise. */
  done: Promise<void>;
}

/** Spawns a binary with a timeout and an AbortSignal, collecting the stderr tail. */
function supervise(
  binary: "ffmpeg" | "ffprobe",
  args: string[],
  limits: RunLimits,
  onStderrLine?: (line: string) => void,
): Supervised {
  if (limits.signal?.aborted) throw new MediaAbortedError();
  // dies with this process (setpriv --pdeathsig) and is recorded for the start-up sweep (children.ts)
  const child = spawnChild(locateBinary(binary), args, { stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
  const stderr = new LineTail(STDERR_TAIL_LINES, onStderrLine);
  child.stderr?.setEncoding("utf8").on("data", (text: string) => stderr.push(text));
  let timedOut = false;
  let aborted = false;
  const kill = () => {
    child.kill("SIGTERM");
    setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), KILL_GRACE_MS).unref();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, limits.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => {
    aborted = true;
    kill();
  };
  limits.signal?.addEventListener("abort", onAbort, { once: true });
  const done = new Promise<void>((resolve, reject) => {
    child.once("error", (error) => {
      clearTimeout(timer);
      limits.signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.once("close", (exitCode, signal) => {
      clearTimeout(timer);
      limits.signal?.removeEventListener("abort", onAbort);
      stderr.end();
      if (aborted) reject(new MediaAbortedError());
      else if (exitCode === 0 && !timedOut) resolve();
      else reject(new FfmpegError({ binary, exitCode, signal, timedOut, stderrTail: stderr.lines }));
    });
  });
  return { child, stderr, done };
}

export interface RunOptions extends RunLimits {
  /** Length of the output in seconds, so progress can be a fraction. */
  durationSeconds?: number;
  onProgress?: ProgressCallback;
  /** Every stderr line (e.g. to read `showinfo`); needs a logLevel that prints them. */
  onStderrLine?: (line: string) => void;
}

/** Runs ffmpeg to a file (or null output) with progress from `-progress pipe:1`. */
export async function runFfmpeg(command: FfmpegCommand, options: RunOptions = {}): Promise<void> {
  if (command.output === "-") throw new Error("runFfmpeg writes progress to stdout; use streamFfmpeg for piped output");
  const args = buildArgs(command, options, true);
  const run = supervise("ffmpeg", args, options, options.onStderrLine);
  const parser = options.onProgress ? new ProgressParser(options.durationSeconds, options.onProgress) : undefined;
  run.child.stdout?.setEncoding("utf8").on("data", (text: string) => parser?.push(text));
  await run.done;
}

export interface StreamedFfmpeg {
  /** ffmpeg's stdout: the encoded output. */
  stdout: Readable;
  /** Settles when ffmpeg exits; read `stdout` to the end first, or the pipe fills and ffmpeg blocks. */
  done: Promise<void>;
  /** Stops ffmpeg early (the caller has what it needs). */
  stop(): void;
}

/** Runs ffmpeg with its output on stdout, for streaming consumers (PCM for analysis). */
export function streamFfmpeg(command: FfmpegCommand, options: RunLimits = {}): StreamedFfmpeg {
  const run = supervise("ffmpeg", buildArgs({ ...command, output: "-" }, options, false), options);
  const stdout = run.child.stdout;
  if (!stdout) throw new Error("ffmpeg has no stdout");
  return { stdout, done: run.done, stop: () => run.child.kill("SIGTERM") };
}

/** Runs ffprobe on a file (the last argument) read as a user's file (inputGuards), and returns its stdout. */
export async function runFfprobe(args: string[], limits: RunLimits & { format?: string; singlePicture?: boolean } = {}): Promise<string> {
  const guards = inputGuards({ format: limits.format, singlePicture: limits.singlePicture });
  const fullArgs = ["-hide_banner", "-loglevel", limits.logLevel ?? "error", "-protocol_whitelist", PROTOCOL_WHITELIST, ...guards, ...args];
  const run = supervise("ffprobe", fullArgs, { timeoutMs: DEFAULT_PROBE_TIMEOUT_MS, ...limits });
  const chunks: string[] = [];
  run.child.stdout?.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
  await run.done;
  return chunks.join("");
}
