import { stat } from "node:fs/promises";
import path from "node:path";
import { FfmpegError, runFfmpeg, runFfprobe, type RunLimits } from "./ffmpeg";
import type { ProbeOutput } from "./probe";

/** An output that must not be moved into place: empty, missing a stream, of the wrong length, or undecodable. */
export class OutputCheckError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`Output ${file} failed its check: ${reason}`);
    this.name = "OutputCheckError";
  }
}

export interface ExpectedOutput {
  /** The demuxer it is read with: "mov" for our MP4s, "jpeg_pipe" for our JPEGs. */
  format: string;
  video?: boolean;
  audio?: boolean;
  /** The length it was asked to have. */
  durationSeconds?: number;
  /** Decode every frame and sample: a single decoder error fails the check (cheap at proxy size). */
  decode?: boolean;
}

/** How far an output's length may be from what was asked: the read cap's slack (probe.ts lengthCap) and half a second. */
export const outputDurationTolerance = (seconds: number) => Math.max(1, seconds * 0.05) + 0.5;

/**
 * Checks a freshly written output before it is renamed into place (issue 12 item 4): it has the
 * streams and about the length asked for, and, when `decode`, decodes without one error.
 */
export async function verifyOutput(file: string, expected: ExpectedOutput, limits: RunLimits = {}): Promise<void> {
  const size = await stat(file).then((s) => s.size, () => 0);
  if (size === 0) throw new OutputCheckError(file, "empty or missing");
  let output: ProbeOutput;
  try {
    output = JSON.parse(await runFfprobe(["-print_format", "json", "-show_format", "-show_streams", path.resolve(file)], { ...limits, format: expected.format })) as ProbeOutput;
  } catch (error) {
    if (error instanceof FfmpegError || error instanceof SyntaxError) throw new OutputCheckError(file, `unreadable: ${error.message}`);
    throw error;
  }
  const streams = output.streams ?? [];
  if (expected.video && !streams.some((s) => s.codec_type === "video" && (s.width ?? 0) > 0)) throw new OutputCheckError(file, "no picture");
  if (expected.audio && !streams.some((s) => s.codec_type === "audio")) throw new OutputCheckError(file, "no sound");
  if (expected.durationSeconds !== undefined) {
    const lengths = [Number(output.format?.duration), ...streams.map((s) => Number(s.duration))].filter((d) => Number.isFinite(d));
    const actual = lengths.length > 0 ? Math.max(...lengths) : Number.NaN;
    if (!(Math.abs(actual - expected.durationSeconds) <= outputDurationTolerance(expected.durationSeconds))) {
      throw new OutputCheckError(file, `lasts ${actual} s instead of ${expected.durationSeconds} s`);
    }
  }
  if (expected.decode) {
    const errors: string[] = [];
    try {
      await runFfmpeg(
        { inputs: [{ file, format: expected.format }], outputOptions: ["-map", "0:v?", "-map", "0:a?", "-f", "null"], output: null },
        { ...limits, logLevel: "error", onStderrLine: (line) => errors.push(line) },
      );
    } catch (error) {
      if (error instanceof FfmpegError) throw new OutputCheckError(file, `does not decode: ${error.message}`);
      throw error;
    }
    if (errors.length > 0) throw new OutputCheckError(file, `${errors.length} decoding errors, first: ${errors[0]}`);
  }
}
