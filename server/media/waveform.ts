import { streamFfmpeg, type RunLimits } from "./ffmpeg";
import { mediaInput, type MediaInfo } from "./probe";
import { NoAudioStreamError } from "./analyze";

/** The waveform's sample rate: enough for peaks at 50 a second, and a cheap decode. */
export const WAVEFORM_SAMPLE_RATE = 8000;
/** Peaks a second (one per 20 ms): fine enough to see a word's edges in the trim and split dialogs. */
export const WAVEFORM_PER_SECOND = 50;

const INT16_FULL_SCALE = 32768;

/**
 * Max-abs peaks of mono s16le PCM, one per `samplesPerPeak` samples, scaled to 0..1 of full scale
 * (rounded to 1/1000, which keeps the JSON small). Chunks may split a sample; the odd byte waits for the next one.
 */
export class PeakMeter {
  private readonly peaks: number[] = [];
  private current = 0;
  private inPeak = 0;
  private carry: number | null = null;
  samples = 0;

  constructor(private readonly samplesPerPeak: number) {
    if (!(samplesPerPeak >= 1)) throw new Error("samplesPerPeak must be at least 1");
  }

  push(chunk: Uint8Array): void {
    let i = 0;
    if (this.carry !== null && chunk.length > 0) {
      this.sample(((chunk[0]! << 8) | this.carry) << 16 >> 16);
      this.carry = null;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2) this.sample(((chunk[i + 1]! << 8) | chunk[i]!) << 16 >> 16);
    if (i < chunk.length) this.carry = chunk[i]!;
  }

  private sample(value: number) {
    const magnitude = Math.abs(value);
    if (magnitude > this.current) this.current = magnitude;
    this.samples += 1;
    if (++this.inPeak === this.samplesPerPeak) this.flush();
  }

  private flush() {
    this.peaks.push(scalePeak(this.current));
    this.current = 0;
    this.inPeak = 0;
  }

  /** The peaks so far, the last partial window included. */
  finish(): number[] {
    if (this.inPeak > 0) this.flush();
    return this.peaks;
  }
}

/** A max-abs sample value → 0..1 of full scale, to three decimals (−32768 is full scale too). */
export const scalePeak = (maxAbs: number) => Math.min(1, Math.round((maxAbs / INT16_FULL_SCALE) * 1000) / 1000);

/**
 * The waveform of a file's first audio track: decoded by ffmpeg to mono 8 kHz s16le through a pipe and
 * reduced to max-abs peaks, `WAVEFORM_PER_SECOND` a second. Throws NoAudioStreamError when there is no audio.
 */
export async function measureWaveform(file: string, info: MediaInfo, options: RunLimits = {}): Promise<{ peaks: number[]; durationSeconds: number }> {
  if (!info.hasAudio) throw new NoAudioStreamError(file);
  const meter = new PeakMeter(WAVEFORM_SAMPLE_RATE / WAVEFORM_PER_SECOND);
  const decoder = streamFfmpeg(
    {
      inputs: [mediaInput(file, info)],
      outputOptions: ["-map", "0:a:0", "-vn", "-sn", "-dn", "-ac", "1", "-ar", String(WAVEFORM_SAMPLE_RATE), "-c:a", "pcm_s16le", "-flush_packets", "0", "-f", "s16le"],
      output: "-",
    },
    options,
  );
  const done = decoder.done.catch((error: unknown) => error);
  for await (const chunk of decoder.stdout as AsyncIterable<Buffer>) meter.push(chunk);
  const failure = await done;
  if (failure) throw failure;
  const decoded = meter.samples / WAVEFORM_SAMPLE_RATE;
  const durationSeconds = info.durationSeconds > 0 ? Math.min(decoded, info.durationSeconds) : decoded;
  // Decoder end padding past the container's length is dropped.
  const peaks = meter.finish().slice(0, Math.ceil(durationSeconds * WAVEFORM_PER_SECOND));
  return { peaks, durationSeconds };
}
