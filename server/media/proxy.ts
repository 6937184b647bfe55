import { mkdir } from "node:fs/promises";
import path from "node:path";
import { runFfmpeg, type ProgressCallback, type RunLimits } from "./ffmpeg";
import { lengthCap, mediaInput, probe, type MediaInfo } from "./probe";

/** What every browser plays: H.264 Main + AAC-LC in MP4, index first so playback starts at once. */
export const PROXY_DEFAULTS = Object.freeze({
  /** The short side (height of landscape video); never upscaled. */
  maxShortSide: 360,
  crf: 28,
  preset: "veryfast",
  profile: "main",
  /** Faster sources are brought down to this rate; a proxy is for scrubbing, not judging motion. */
  maxFps: 30,
  audioBitrate: "96k",
  /** Keyframe at least this often (seconds) so seeking in the proxy is quick. */
  keyframeSeconds: 2,
});

export interface ProxyOptions extends RunLimits {
  maxShortSide?: number;
  crf?: number;
  preset?: string;
  info?: MediaInfo;
  onProgress?: ProgressCallback;
}

/** Fits the short side into `maxShortSide` (even sizes, aspect kept, no upscaling). */
export function proxyScaleFilter(maxShortSide: number): string {
  const short = `trunc(min(${maxShortSide},min(iw,ih))/2)*2`;
  return `scale=w='if(gte(iw,ih),-2,${short})':h='if(gte(iw,ih),${short},-2)',setsar=1`;
}

/** A low-resolution, browser-playable copy of a video (or an AAC copy of an audio file). */
export async function makeProxy(input: string, output: string, options: ProxyOptions = {}): Promise<void> {
  const info = options.info ?? (await probe(input, options));
  if (info.kind === "image") throw new Error(`An image needs no proxy: ${input}`);
  await mkdir(path.dirname(output), { recursive: true });
  const audio = info.hasAudio
    ? ["-map", "0:a:0", "-c:a", "aac", "-b:a", PROXY_DEFAULTS.audioBitrate, "-ac", "2"]
    : [];
  const video =
    info.kind === "video"
      ? [
          "-map", "0:v:0",
          "-vf", proxyScaleFilter(options.maxShortSide ?? PROXY_DEFAULTS.maxShortSide),
          "-c:v", "libx264",
          "-preset", options.preset ?? PROXY_DEFAULTS.preset,
          "-crf", String(options.crf ?? PROXY_DEFAULTS.crf),
          "-profile:v", PROXY_DEFAULTS.profile,
          "-pix_fmt", "yuv420p",
          "-fpsmax", String(PROXY_DEFAULTS.maxFps),
          "-force_key_frames", `expr:gte(t,n_forced*${PROXY_DEFAULTS.keyframeSeconds})`,
        ]
      : [];
  await runFfmpeg(
    {
      inputs: [mediaInput(input, info)],
      // Capped on the output clock too: a file whose timestamps lie cannot make a longer proxy.
      outputOptions: [...video, ...audio, "-sn", "-dn", "-map_metadata", "-1", "-t", lengthCap(info.durationSeconds).toFixed(3), "-movflags", "+faststart", "-f", "mp4"],
      output,
    },
    { ...options, durationSeconds: info.durationSeconds },
  );
}
