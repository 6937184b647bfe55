import { stat } from "node:fs/promises";
import path from "node:path";
import { FfmpegError, runFfprobe, type RunLimits } from "./ffmpeg";

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

/** Codecs that only ever hold pictures: a single one of these without a duration is a still. */
const IMAGE_CODECS = new Set([
  "png", "mjpeg", "jpeg2000", "jpegls", "webp", "bmp", "tiff", "gif", "ppm", "pgm", "pam", "qoi", "jpegxl", "avif", "heif",
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

/** What a file is, decided from its streams (never from its name). */
export async function probe(file: string, limits: RunLimits = {}): Promise<MediaInfo> {
  const [output, size] = await Promise.all([readProbe(file, limits), stat(file)]);
  return mediaInfoFromProbe(file, output, size.size);
}

async function readProbe(file: string, limits: RunLimits): Promise<ProbeOutput> {
  let text: string;
  try {
    // Absolute, so a name like "-x.mp4" or "a:b.mp4" is never read as an option or a protocol.
    text = await runFfprobe(["-print_format", "json", "-show_format", "-show_streams", path.resolve(file)], limits);
  } catch (error) {
    if (error instanceof FfmpegError && !error.timedOut) {
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

/** Pure: ffprobe's JSON → MediaInfo. Exported for tests. */
export function mediaInfoFromProbe(file: string, output: ProbeOutput, sizeBytes: number): MediaInfo {
  const formatName = output.format?.format_name ?? "";
  const streams = output.streams ?? [];
  const video = streams.find((s) => isPicture(s) && s.disposition?.attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === "audio" && s.codec_name && Number(s.sample_rate) > 0);
  if (streams.some((s) => TEXT_ART_CODECS.has(s.codec_name ?? "")) || (!video && !audio)) {
    throw new UnreadableMediaError(file, "no audio or video stream");
  }
  const durationSeconds = mediaDuration(output, streams);
  const base = { formatName, sizeBytes, hasAudio: Boolean(audio), audioCodec: audio?.codec_name };
  if (!video) {
    if (!(durationSeconds > 0)) throw new UnreadableMediaError(file, "audio without a duration");
    return { kind: "audio", durationSeconds, ...base };
  }
  const still = isStill(video, formatName, durationSeconds);
  if (!still && !(durationSeconds > 0)) throw new UnreadableMediaError(file, "video without a duration");
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
