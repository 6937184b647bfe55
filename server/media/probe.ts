import { stat } from "node:fs/promises";
import path from "node:path";
import { ALLOWED_CONTAINERS, FfmpegError, isLiteralName, MAX_DECODED_PIXELS, runFfprobe, streamFfmpeg, type FfmpegInput, type RunLimits } from "./ffmpeg";

export type MediaKind = "video" | "audio" | "image";

export interface MediaInfo {
  kind: MediaKind;
  /** 0 for still images. */
  durationSeconds: number;
  /** Display size (rotation applied). */
  width?: number;
  height?: number;
  fps?: number;
  hasAudio: boolean;
  /** ffprobe's container name, e.g. "mov,mp4,m4a,3gp,3g2,mj2". */
  formatName: string;
  /** The demuxer every later run reads the file with (`-f`), one of ALLOWED_CONTAINERS: "mov" for the name above. */
  container: string;
  videoCodec?: string;
  audioCodec?: string;
  sizeBytes: number;
}

/** ffprobe could not make sense of the file (corrupt, truncated, not media at all). */
export class UnreadableMediaError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`Unreadable media file ${file}: ${reason}`);
    this.name = "UnreadableMediaError";
  }
}

/** A container that is not on the allow-list (a playlist, a list of files, text…): refused whatever it holds. */
export class UnsupportedMediaError extends UnreadableMediaError {
  constructor(file: string, readonly container: string) {
    super(file, `container not allowed: ${container}`);
    this.name = "UnsupportedMediaError";
  }
}

/**
 * Largest frames accepted, decided from the probe before anything is decoded (issue 12 item 16):
 * video up to DCI 8K (8192×4320, 35 MP: a 4:2:0 frame is ~53 MB and a decoder holds a few), stills
 * up to MAX_DECODED_PIXELS (64 MP, ~256 MB as RGBA, decoded once) since phones shoot 48–50 MP photos.
 */
export const MAX_VIDEO_PIXELS = 8192 * 4320;
export const MAX_STILL_PIXELS = MAX_DECODED_PIXELS;
/** More streams than this is no camera's or editor's file (64 audio tracks are fine); each costs every run. */
export const MAX_STREAMS = 256;

/** A measured length this close to the header's keeps the header's (exact, and what the players show). */
const DURATION_AGREES = (header: number) => Math.max(1, header * 0.05);
/** How long measuring a length by reading every packet may take. */
const MEASURE_TIMEOUT_MS = 10 * 60 * 1000;
/** A file whose header gives no length is measured up to this long when no limit is asked for. */
const HEADERLESS_MEASURE_SECONDS = 24 * 3600;
const OUT_TIME = /^out_time_us=(\d+)$/gm;
const MICROSECONDS = 1_000_000;

/** Codecs that only ever hold pictures: a single one of these without a duration is a still. */
const IMAGE_CODECS = new Set([
  "png", "apng", "mjpeg", "jpeg2000", "jpegls", "webp", "bmp", "tiff", "gif", "ppm", "pgm", "pam", "qoi", "jpegxl", "avif", "heif",
]);
/** ffprobe turns any text into "video" through its ANSI-art demuxers; that is never media. */
const TEXT_ART_CODECS = new Set(["ansi", "bintext", "xbin", "idf", "adf", "tty"]);
/** Demuxers that read one picture per file. */
const IMAGE_FORMAT = /^image2$|_pipe$/;
/** A stream shorter than this with an image codec is a single picture (ffprobe says 1/25 s for a JPEG). */
const SINGLE_FRAME_MAX_SECONDS = 0.1;
const QUARTER_TURN_DEGREES = 90;
const HALF_TURN_DEGREES = 180;

export interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  nb_frames?: string;
  sample_rate?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

export interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; size?: string };
}

export interface ProbeOptions extends RunLimits {
  /** The demuxer the file's first probe found (MediaInfo.container): it is never detected again. */
  format?: string;
  /**
   * Measure the running time by reading every packet's timestamp, up to this many seconds (a header
   * can claim 7 minutes for 5 hours): a longer file measures just past it. Without it, the header's.
   */
  measureUpTo?: number;
  /** The length measured before (at upload): taken as measured, so nothing is read again. */
  measuredSeconds?: number;
}

/** What a file is, decided from its streams (never from its name), read only by an allowed demuxer. */
export async function probe(file: string, options: ProbeOptions = {}): Promise<MediaInfo> {
  const [output, size] = await Promise.all([readProbe(file, options), stat(file)]);
  const container = containerOf(file, output);
  const timed = (output.streams ?? []).some((s) => s.codec_type === "audio" || (s.codec_type === "video" && !IMAGE_CODECS.has(s.codec_name ?? "")));
  // A browser's recording (MediaRecorder's WebM, issue 17) has no length in its header: it is measured from the packets.
  const headerless = timed && !(mediaDuration(output, output.streams ?? []) > 0);
  const upTo = options.measureUpTo ?? (headerless ? HEADERLESS_MEASURE_SECONDS : undefined);
  const measured = options.measuredSeconds ?? (upTo !== undefined && timed ? await demuxedDuration(file, container, upTo, options) : undefined);
  const info = mediaInfoFromProbe(file, output, size.size, measured);
  // Packets go on to the end of the measure: the file is at least that long, whatever its header says.
  if (upTo !== undefined && measured !== undefined && measured >= upTo - 1 && info.kind !== "image") {
    return { ...info, durationSeconds: Math.max(info.durationSeconds, measured) };
  }
  return info;
}

/** image2 (a picture found by its name's extension) is read again by its codec's own demuxer. */
const PICTURE_DEMUXERS: Record<string, string> = { mjpeg: "jpeg_pipe", png: "png_pipe", apng: "apng", webp: "webp_pipe", bmp: "bmp_pipe", tiff: "tiff_pipe", gif: "gif" };

/** ffprobe's container → the `-f` name of an allowed demuxer, or UnsupportedMediaError. */
function containerOf(file: string, output: ProbeOutput): string {
  const names = (output.format?.format_name ?? "").split(",");
  const picture = names[0] === "image2" ? output.streams?.find((s) => s.codec_type === "video")?.codec_name : undefined;
  const container = picture ? (PICTURE_DEMUXERS[picture] ?? "image2") : (names[0] ?? "");
  if (!ALLOWED_CONTAINERS.includes(container)) throw new UnsupportedMediaError(file, container || "unknown");
  return container;
}

async function readProbe(file: string, options: ProbeOptions): Promise<ProbeOutput> {
  let text: string;
  try {
    // Absolute, so a name like "-x.mp4" or "a:b.mp4" is never read as an option or a protocol.
    // A first probe may meet a picture that image2 finds by its name, but only when that name is literal.
    const singlePicture = options.format === undefined && isLiteralName(file);
    text = await runFfprobe(["-print_format", "json", "-show_format", "-show_streams", path.resolve(file)], { ...options, singlePicture });
  } catch (error) {
    if (error instanceof FfmpegError && !error.timedOut) {
      // "[hls @ 0x…] Format not on whitelist": detected as a demuxer we do not allow, and never opened.
      const refused = error.stderrTail.map((line) => /^\[([\w,-]+) @ [^\]]*\] Format not on whitelist/.exec(line)?.[1]).find(Boolean);
      if (refused) throw new UnsupportedMediaError(file, refused);
      throw new UnreadableMediaError(file, error.stderrTail.at(-1) ?? "ffprobe failed");
    }
    throw error;
  }
  try {
    return JSON.parse(text) as ProbeOutput;
  } catch {
    throw new UnreadableMediaError(file, "ffprobe printed no readable description");
  }
}

/**
 * The running time by demuxing: every packet of the video and audio streams copied to nowhere, the
 * last timestamp read (cheap: nothing is decoded; bounded: at most `upTo` seconds are read).
 * Undefined when ffmpeg reports none.
 */
async function demuxedDuration(file: string, container: string, upTo: number, limits: RunLimits): Promise<number | undefined> {
  const run = streamFfmpeg(
    {
      globalOptions: ["-progress", "pipe:1"],
      inputs: [{ file, format: container, options: ["-t", upTo.toFixed(3)] }],
      // The null muxer writes nothing: stdout carries only the progress lines.
      outputOptions: ["-map", "0:v?", "-map", "0:a?", "-c", "copy", "-f", "null"],
      output: "-",
    },
    { timeoutMs: MEASURE_TIMEOUT_MS, ...limits },
  );
  let text = "";
  run.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    text = (text + chunk).slice(-4096);
  });
  try {
    await run.done;
  } catch (error) {
    if (error instanceof FfmpegError && !error.timedOut) throw new UnreadableMediaError(file, error.stderrTail.at(-1) ?? "packets unreadable");
    throw error;
  }
  const times = [...text.matchAll(OUT_TIME)].map((m) => Number(m[1]) / MICROSECONDS).filter((t) => Number.isFinite(t) && t > 0);
  return times.length > 0 ? Math.max(...times) : undefined;
}

/** The header's length when the packets agree with it, else what the packets say. */
function trustedDuration(header: number, measured: number | undefined): number {
  if (measured === undefined || !(measured > 0)) return header;
  if (!(header > 0)) return measured;
  return Math.abs(measured - header) <= DURATION_AGREES(header) ? header : measured;
}

/** Every ffmpeg run on a user's file reads at most this long: its (measured) length and a little slack. */
export function lengthCap(durationSeconds: number): number {
  return durationSeconds + Math.max(1, durationSeconds * 0.05);
}

/**
 * How an ffmpeg run reads a user's file: with the demuxer its probe found, and never past lengthCap
 * of its length (a file that lies about its length cannot make a run longer). `options` come after.
 */
export function mediaInput(file: string, info: Pick<MediaInfo, "kind" | "container" | "durationSeconds">, options: readonly string[] = []): FfmpegInput {
  const cap = info.kind === "image" || !(info.durationSeconds > 0) ? [] : ["-t", lengthCap(info.durationSeconds).toFixed(3)];
  return { file, format: info.container, options: [...cap, ...options] };
}

/** Pure: ffprobe's JSON (and a length measured from the packets) → MediaInfo. Exported for tests. */
export function mediaInfoFromProbe(file: string, output: ProbeOutput, sizeBytes: number, measuredSeconds?: number): MediaInfo {
  const formatName = output.format?.format_name ?? "";
  const container = containerOf(file, output);
  const streams = output.streams ?? [];
  if (streams.length > MAX_STREAMS) throw new UnreadableMediaError(file, `${streams.length} streams`);
  const video = streams.find((s) => isPicture(s) && s.disposition?.attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === "audio" && s.codec_name && Number(s.sample_rate) > 0);
  if (streams.some((s) => TEXT_ART_CODECS.has(s.codec_name ?? "")) || (!video && !audio)) {
    throw new UnreadableMediaError(file, "no audio or video stream");
  }
  const durationSeconds = trustedDuration(mediaDuration(output, streams), measuredSeconds);
  const base = { formatName, container, sizeBytes, hasAudio: Boolean(audio), audioCodec: audio?.codec_name };
  if (!video) {
    if (!(durationSeconds > 0)) throw new UnreadableMediaError(file, "audio without a duration");
    return { kind: "audio", durationSeconds, ...base };
  }
  const still = isStill(video, formatName, durationSeconds);
  if (!still && !(durationSeconds > 0)) throw new UnreadableMediaError(file, "video without a duration");
  const pixels = (video.width ?? 0) * (video.height ?? 0);
  if (pixels > (still ? MAX_STILL_PIXELS : MAX_VIDEO_PIXELS)) throw new UnreadableMediaError(file, `picture too large: ${video.width}x${video.height}`);
  return {
    kind: still ? "image" : "video",
    durationSeconds: still ? 0 : durationSeconds,
    ...displaySize(video),
    fps: still ? undefined : frameRate(video),
    videoCodec: video.codec_name,
    ...base,
  };
}

function isPicture(stream: ProbeStream): boolean {
  return stream.codec_type === "video" && Boolean(stream.codec_name) && (stream.width ?? 0) > 0 && (stream.height ?? 0) > 0;
}

/** A picture codec with no running time, or read by a one-picture demuxer. */
function isStill(video: ProbeStream, formatName: string, durationSeconds: number): boolean {
  if (!IMAGE_CODECS.has(video.codec_name ?? "")) return false;
  if (IMAGE_FORMAT.test(formatName)) return true;
  const frames = Number(video.nb_frames);
  if (Number.isFinite(frames) && frames > 0) return frames === 1;
  return !(durationSeconds > SINGLE_FRAME_MAX_SECONDS);
}

function mediaDuration(output: ProbeOutput, streams: ProbeStream[]): number {
  const fromFormat = Number(output.format?.duration);
  if (Number.isFinite(fromFormat) && fromFormat > 0) return fromFormat;
  const fromStreams = streams.map((s) => Number(s.duration)).filter((d) => Number.isFinite(d) && d > 0);
  return fromStreams.length > 0 ? Math.max(...fromStreams) : 0;
}

/** Phones store portrait video as landscape plus a rotation; report what the viewer sees. */
function displaySize(video: ProbeStream): { width?: number; height?: number } {
  const rotation = Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0);
  const quarterTurned = Math.abs(rotation) % HALF_TURN_DEGREES === QUARTER_TURN_DEGREES;
  return quarterTurned ? { width: video.height, height: video.width } : { width: video.width, height: video.height };
}

function frameRate(video: ProbeStream): number | undefined {
  for (const rate of [video.avg_frame_rate, video.r_frame_rate]) {
    const [num = Number.NaN, den = Number.NaN] = (rate ?? "").split("/").map(Number);
    if (num > 0 && den > 0) return num / den;
  }
  return undefined;
}
