import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { FfmpegError, runFfmpeg, type ProgressCallback, type RunLimits } from "./ffmpeg";
import { mediaInput, probe, type MediaInfo } from "./probe";

/** Storyboard thumbnails: small enough to load hundreds at once on a phone. */
export const THUMBNAIL_WIDTH = 320;
/** Poster frames (library cards, project list). */
export const POSTER_WIDTH = 640;
/** mjpeg quality scale (2 best … 31 worst): 5 is crisp at thumbnail size and ~10 KB. */
const JPEG_QUALITY = 5;
const POSTER_JPEG_QUALITY = 3;
/** A poster is taken this far into a video (the very first frames are often black)… */
const POSTER_AT_SHARE = 0.1;
/** …but never later than this. */
const POSTER_MAX_SECONDS = 3;
const AUDIO_POSTER_SIZE = "640x360";
const WAVE_COLOUR = "0x8a7dff";
const THUMBNAIL_PATTERN = "thumb-%06d.jpg";
const THUMBNAIL_NAME = /^thumb-(\d{6})\.jpg$/;
const SHOWINFO_TIME = /Parsed_showinfo.*\bpts_time:\s*(-?[\d.]+)/;

export interface Thumbnail {
  /** Seconds from the start of the media. */
  time: number;
  file: string;
}

export interface KeyframeThumbnailOptions extends RunLimits {
  width?: number;
  /** Skip keyframes closer than this to the previous kept one (short GOPs make thousands). */
  minIntervalSeconds?: number;
  /** The file's probe (its container and length); probed when absent. */
  info?: MediaInfo;
  onProgress?: ProgressCallback;
}

/**
 * One JPEG per keyframe, in a single pass that decodes keyframes only (`-skip_frame nokey`).
 * Times come from `showinfo`, so they are the real presentation times of those keyframes.
 * A decoder that cannot skip (Theora fails every skipped frame) is run again decoding every frame
 * and keeping the keyframes.
 */
export async function extractKeyframeThumbnails(
  file: string,
  outDir: string,
  options: KeyframeThumbnailOptions = {},
): Promise<Thumbnail[]> {
  await mkdir(outDir, { recursive: true });
  await removeThumbnails(outDir);
  const info = options.info ?? (await probe(file, options));
  let times: number[];
  try {
    times = await keyframePass(file, outDir, info, options, true);
  } catch (error) {
    if (!(error instanceof FfmpegError) || error.timedOut) throw error;
    await removeThumbnails(outDir);
    times = await keyframePass(file, outDir, info, options, false);
  }
  const files = (await readdir(outDir)).filter((name) => THUMBNAIL_NAME.test(name)).sort();
  if (files.length !== times.length) throw new Error(`Expected ${times.length} thumbnails, found ${files.length}`);
  return files.map((name, i) => ({ time: Math.max(0, times[i] ?? 0), file: path.join(outDir, name) }));
}

/** One pass over the file's keyframes, decoding only those (`skip`) or every frame; answers their times. */
async function keyframePass(file: string, outDir: string, info: MediaInfo, options: KeyframeThumbnailOptions, skip: boolean): Promise<number[]> {
  const width = options.width ?? THUMBNAIL_WIDTH;
  const times: number[] = [];
  const spaced = options.minIntervalSeconds ? `(isnan(prev_selected_t)+gte(t-prev_selected_t,${options.minIntervalSeconds}))` : "";
  const select = skip ? (spaced ? [`select='${spaced}'`] : []) : [`select='eq(key,1)${spaced ? `*${spaced}` : ""}'`];
  const filters = [...select, `scale='min(${width},iw)':-2`, "showinfo"];
  await runFfmpeg(
    {
      inputs: [mediaInput(file, info, skip ? ["-skip_frame", "nokey"] : [])],
      outputOptions: ["-map", "0:v:0", "-an", "-sn", "-dn", "-vf", filters.join(","), "-fps_mode", "passthrough", "-q:v", String(JPEG_QUALITY), "-f", "image2"],
      output: path.join(outDir, THUMBNAIL_PATTERN),
    },
    {
      ...options,
      logLevel: "info",
      durationSeconds: info.durationSeconds,
      onStderrLine: (line) => {
        const match = SHOWINFO_TIME.exec(line);
        if (match) times.push(Number(match[1]));
      },
    },
  );
  return times;
}

/** A re-run must not mix stale files into the new list. */
async function removeThumbnails(dir: string): Promise<void> {
  const stale = (await readdir(dir)).filter((name) => THUMBNAIL_NAME.test(name));
  await Promise.all(stale.map((name) => rm(path.join(dir, name), { force: true })));
}

/** The thumbnail whose time is nearest to `time` (thumbnails sorted by time, as extracted). */
export function nearestThumbnail(thumbnails: readonly Thumbnail[], time: number): Thumbnail | undefined {
  let lo = 0;
  let hi = thumbnails.length - 1;
  if (hi < 0) return undefined;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((thumbnails[mid]?.time ?? 0) < time) lo = mid + 1;
    else hi = mid;
  }
  const after = thumbnails[lo];
  const before = thumbnails[lo - 1];
  if (!before || !after) return after ?? before;
  return time - before.time <= after.time - time ? before : after;
}

export interface PosterOptions extends RunLimits {
  width?: number;
  /** Where to take a video's poster; default 10 % in, at most 3 s. */
  atSeconds?: number;
  info?: MediaInfo;
}

/** One JPEG poster: a frame of a video, the image itself (scaled), or a waveform for audio. */
export async function extractPoster(file: string, outFile: string, options: PosterOptions = {}): Promise<string> {
  const info = options.info ?? (await probe(file, options));
  const width = options.width ?? POSTER_WIDTH;
  await mkdir(path.dirname(outFile), { recursive: true });
  const quality = ["-q:v", String(POSTER_JPEG_QUALITY), "-frames:v", "1", "-update", "1", "-f", "image2"];
  if (info.kind === "audio") {
    await runFfmpeg(
      {
        inputs: [mediaInput(file, info)],
        outputOptions: ["-filter_complex", `[0:a:0]showwavespic=s=${AUDIO_POSTER_SIZE}:colors=${WAVE_COLOUR}:split_channels=0`, ...quality],
        output: outFile,
      },
      options,
    );
    return outFile;
  }
  const at = info.kind === "video" ? (options.atSeconds ?? Math.min(info.durationSeconds * POSTER_AT_SHARE, POSTER_MAX_SECONDS)) : 0;
  await runFfmpeg(
    {
      inputs: [mediaInput(file, info, at > 0 ? ["-ss", at.toFixed(3)] : [])],
      outputOptions: ["-map", "0:v:0", "-vf", `scale='min(${width},iw)':-2`, ...quality],
      output: outFile,
    },
    options,
  );
  return outFile;
}
