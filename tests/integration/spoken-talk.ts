import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { seededRandom } from "../reliability";

/**
 * A talk spoken by espeak-ng from a known script, for speech recognition tests: each sentence is
 * synthesised on its own, its leading and trailing silence cut off, and the sentences joined with
 * silences of known length, so where each sentence starts and ends is known to the sample.
 * espeak-ng is deterministic: the same script, voice and speed give the same file.
 */

export const SAMPLE_RATE = 16_000;

export interface SpokenSentence {
  text: string;
  /** Seconds in the talk where its first and last sound are. */
  start: number;
  end: number;
}

export interface TalkOptions {
  /** espeak-ng voice (default "en-us"). */
  voice?: string;
  /** Words per minute (default 150). */
  speed?: number;
  /** Silence before each sentence after the first, in seconds: one value, or one per gap (cycled). */
  gaps?: number | readonly number[];
  /** Silence before the first and after the last sentence. */
  edgeSeconds?: number;
  /** A quiet room instead of digital silence: white noise at this level in dBFS (seeded, deterministic). */
  roomToneDb?: number;
}

export interface Talk {
  /** A 16 kHz mono 16-bit WAV file. */
  file: string;
  durationSeconds: number;
  sentences: SpokenSentence[];
}

export class MissingToolError extends Error {}

/** Fails with the apt line when a tool the test needs is not installed. */
export function requireTool(binary: string, aptPackages: string): void {
  try {
    execFileSync("sh", ["-c", `command -v ${binary}`], { stdio: "ignore" });
  } catch {
    throw new MissingToolError(`${binary} is not installed: apt-get install -y ${aptPackages}`);
  }
}

/** Samples of one sentence as 16 kHz mono s16le, with espeak's own silence at both ends cut off. */
function sentenceSamples(text: string, voice: string, speed: number, dir: string, index: number): Int16Array {
  const wav = path.join(dir, `sentence-${index}.wav`);
  execFileSync("espeak-ng", ["-v", voice, "-s", String(speed), "-w", wav, text], { stdio: ["ignore", "ignore", "pipe"] });
  const pcm = execFileSync("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", wav, "-ac", "1", "-ar", String(SAMPLE_RATE), "-f", "s16le", "pipe:1"], {
    maxBuffer: 256 * 1024 * 1024,
  });
  fs.rmSync(wav, { force: true });
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2);
  // espeak's silence is digital zero; resampling leaves a little ringing, so anything under -50 dBFS is silence
  const threshold = 100;
  let first = 0;
  while (first < samples.length && Math.abs(samples[first]!) < threshold) first++;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last]!) < threshold) last--;
  return samples.slice(first, last + 1);
}


/** A 16 kHz mono 16-bit WAV file of these samples. */
export function wavFile(samples: Int16Array): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write("WAVE", 8);
  header.write("fmt ", 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(samples.byteLength, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}

/** Speaks `script` (one sentence per entry) into `<dir>/<name>.wav`. */
export function generateTalk(dir: string, name: string, script: readonly string[], options: TalkOptions = {}): Talk {
  requireTool("espeak-ng", "espeak-ng");
  requireTool("ffmpeg", "ffmpeg");
  const voice = options.voice ?? "en-us";
  const speed = options.speed ?? 150;
  const gaps = typeof options.gaps === "number" ? [options.gaps] : (options.gaps ?? [0.8]);
  const edge = options.edgeSeconds ?? 0.5;
  const parts: Int16Array[] = [];
  const sentences: SpokenSentence[] = [];
  let at = 0;
  const silence = (seconds: number) => {
    const n = Math.round(seconds * SAMPLE_RATE);
    parts.push(new Int16Array(n));
    at += n;
  };
  silence(edge);
  script.forEach((text, i) => {
    if (i > 0) silence(gaps[(i - 1) % gaps.length]!);
    const samples = sentenceSamples(text, voice, speed, dir, i);
    sentences.push({ text, start: at / SAMPLE_RATE, end: (at + samples.length) / SAMPLE_RATE });
    parts.push(samples);
    at += samples.length;
  });
  silence(edge);
  const all = new Int16Array(at);
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  if (options.roomToneDb !== undefined) {
    const random = seededRandom(0xc0ffee).next;
    const amplitude = 32768 * 10 ** (options.roomToneDb / 20) * Math.sqrt(3); // uniform noise with that RMS
    for (let i = 0; i < all.length; i++) all[i] = Math.max(-32768, Math.min(32767, Math.round(all[i]! + (random() * 2 - 1) * amplitude)));
  }
  const file = path.join(dir, `${name}.wav`);
  fs.writeFileSync(file, wavFile(all));
  return { file, durationSeconds: at / SAMPLE_RATE, sentences };
}

/** Word error rate: word-level edit distance between what was said and what was heard, over the words said. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}' ]+/gu, " ")
      .split(/\s+/)
      .filter(Boolean);
  const ref = words(reference);
  const hyp = words(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      row.push(Math.min(substitution, previous[j]! + 1, row[j - 1]! + 1));
    }
    previous = row;
  }
  return previous[hyp.length]! / ref.length;
}
