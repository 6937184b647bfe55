/**
 * A 10-minute 1280x720 "talk" with KNOWN speech and silences, in two rooms:
 * espeak-ng sentences separated by random gaps (0.3–3 s), over a quiet room tone (≈ −60 dBFS)
 * or a noisy one (≈ −38 dBFS). The truth is measured from the trimmed utterances placed in the
 * track (sample positions), not guessed. Files are cached in `.tmp/bench/` and reused.
 *
 *   npx tsx bench/make-talk.ts [dir]
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { runFfmpeg } from "../server/media/ffmpeg";
import type { TimeRange } from "../server/media/analyze";
import { seededRandom } from "../tests/reliability";

const run = promisify(execFile);

/** Bump when the generated material changes, so cached files are rebuilt. */
const TALK_VERSION = 3;
export const TALK_SECONDS = 600;
const WIDTH = 1280;
const HEIGHT = 720;
const FPS = 30;
const GOP_FRAMES = 60;
const SAMPLE_RATE = 22_050;
const OUTPUT_AUDIO_RATE = 48_000;
const GAP_MIN_SECONDS = 0.3;
const GAP_MAX_SECONDS = 3;
const LEAD_IN_SECONDS = 1;
const TAIL_SECONDS = 1.5;
/** Where an utterance starts and ends: the first and last sample above ≈ −66 dBFS. */
const TRIM_THRESHOLD = 16;
/** espeak speaks near full scale; −6 dB leaves headroom for the room. */
const SPEECH_GAIN = 0.5;
const INT16_MAX = 32_767;
const SEED = 20_240_601;
const WAV_HEADER_BYTES = 44;

export const ROOMS = { quiet: -60, noisy: -38 } as const;
export type Room = keyof typeof ROOMS;

const SENTENCES = [
  "Welcome back to the channel.",
  "Today I want to show you how we edit a long recording.",
  "The first thing you notice is all the waiting.",
  "Nobody wants to watch me think.",
  "So the editor listens for the pauses.",
  "It measures how loud the room is when nobody speaks.",
  "Anything clearly louder than that is speech.",
  "Short breaths stay in, because they sound natural.",
  "Long gaps become jump cuts.",
  "Let me give you an example from last week.",
  "I recorded forty minutes and kept twenty eight.",
  "That is a lot of silence.",
  "The trick is to keep a little air around every word.",
  "Otherwise the cuts feel rushed.",
  "You can change all of this in the settings.",
  "Most people never need to.",
  "Now, what about noisy rooms?",
  "A fan or an open window raises the floor.",
  "A fixed threshold would cut nothing at all.",
  "Measuring the floor first solves that.",
  "Okay, one more thing before we finish.",
  "Subtitles come from the same timeline.",
  "So they stay in sync after every cut.",
  "If you liked this, you know what to do.",
  "See you in the next one.",
];
const VOICES = ["en", "en-us", "en+f3", "en-us+m3", "en+f2", "en-us+f4"];
const SPEED_MIN = 145;
const SPEED_SPAN = 40;

export interface TalkTruth {
  version: number;
  duration: number;
  speech: TimeRange[];
}

export interface BenchTalk {
  files: Record<Room, string>;
  truth: TalkTruth;
}


/** The generated talk in `dir`, built on first use. */
export async function ensureBenchTalk(dir = path.resolve(".tmp/bench")): Promise<BenchTalk> {
  const files = { quiet: path.join(dir, "talk-quiet.mp4"), noisy: path.join(dir, "talk-noisy.mp4") };
  const truthFile = path.join(dir, "talk.truth.json");
  const cached = await readTruth(truthFile);
  if (cached && existsSync(files.quiet) && existsSync(files.noisy)) return { files, truth: cached };

  await mkdir(dir, { recursive: true });
  const work = path.join(dir, "work");
  await mkdir(work, { recursive: true });
  const random = seededRandom(SEED).next;
  const utterances = await synthesize(work, random);
  const { speech, truth } = assemble(utterances, random);
  const video = path.join(work, "video.mp4");
  await encodeVideo(video);
  for (const room of Object.keys(ROOMS) as Room[]) {
    const wav = path.join(work, `${room}.wav`);
    await writeFile(wav, wavFile(mixRoom(speech, ROOMS[room], random)));
    await muxTalk(video, wav, files[room]);
  }
  await writeFile(truthFile, JSON.stringify(truth, null, 1));
  await rm(work, { recursive: true, force: true });
  return { files, truth };
}

async function readTruth(file: string): Promise<TalkTruth | undefined> {
  try {
    const truth = JSON.parse(await readFile(file, "utf8")) as TalkTruth;
    return truth.version === TALK_VERSION ? truth : undefined;
  } catch {
    return undefined;
  }
}

/** One trimmed Int16 utterance per sentence, with a random voice and speed. */
async function synthesize(work: string, random: () => number): Promise<Int16Array[]> {
  const out: Int16Array[] = [];
  for (const [i, sentence] of SENTENCES.entries()) {
    const file = path.join(work, `utt${i}.wav`);
    const voice = VOICES[Math.floor(random() * VOICES.length)] ?? "en";
    const speed = String(SPEED_MIN + Math.floor(random() * SPEED_SPAN));
    await run("espeak-ng", ["-v", voice, "-s", speed, "-w", file, sentence]);
    out.push(trim(readWavSamples(await readFile(file))));
  }
  return out;
}

function readWavSamples(bytes: Buffer): Int16Array {
  const dataAt = bytes.indexOf("data", 0, "latin1");
  const start = dataAt >= 0 ? dataAt + 8 : WAV_HEADER_BYTES;
  const copy = Buffer.from(bytes.subarray(start, start + ((bytes.length - start) & ~1)));
  return new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2);
}

function trim(samples: Int16Array): Int16Array {
  let first = 0;
  let last = samples.length - 1;
  while (first < last && Math.abs(samples[first] ?? 0) <= TRIM_THRESHOLD) first++;
  while (last > first && Math.abs(samples[last] ?? 0) <= TRIM_THRESHOLD) last--;
  return samples.map((s) => Math.round(s * SPEECH_GAIN)).subarray(first, last + 1);
}

/** Places utterances with random gaps until the talk is full; returns the dry track and the truth. */
function assemble(utterances: Int16Array[], random: () => number): { speech: Int16Array; truth: TalkTruth } {
  const total = TALK_SECONDS * SAMPLE_RATE;
  const track = new Int16Array(total);
  const speech: TimeRange[] = [];
  let at = LEAD_IN_SECONDS * SAMPLE_RATE;
  for (;;) {
    const utterance = utterances[Math.floor(random() * utterances.length)] ?? new Int16Array();
    if (at + utterance.length > total - TAIL_SECONDS * SAMPLE_RATE) break;
    track.set(utterance, at);
    speech.push({ start: at / SAMPLE_RATE, end: (at + utterance.length) / SAMPLE_RATE });
    const gap = GAP_MIN_SECONDS + random() * (GAP_MAX_SECONDS - GAP_MIN_SECONDS);
    at += utterance.length + Math.round(gap * SAMPLE_RATE);
  }
  return { speech: track, truth: { version: TALK_VERSION, duration: TALK_SECONDS, speech } };
}

/** Speech plus pink room noise at `roomDb` dBFS RMS. */
function mixRoom(speech: Int16Array, roomDb: number, random: () => number): Int16Array {
  const noise = pinkNoise(speech.length, random);
  const targetRms = INT16_MAX * 10 ** (roomDb / 20);
  const gain = targetRms / rms(noise);
  const out = new Int16Array(speech.length);
  for (let i = 0; i < out.length; i++) {
    const mixed = (speech[i] ?? 0) + (noise[i] ?? 0) * gain;
    out[i] = Math.max(-INT16_MAX, Math.min(INT16_MAX, Math.round(mixed)));
  }
  return out;
}

/** Paul Kellet's economy pink filter over seeded white noise: a room's hiss and rumble. */
function pinkNoise(length: number, random: () => number): Float32Array {
  const out = new Float32Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < length; i++) {
    const white = random() * 2 - 1;
    b0 = 0.99765 * b0 + white * 0.099046;
    b1 = 0.963 * b1 + white * 0.2965164;
    b2 = 0.57 * b2 + white * 1.0526913;
    out[i] = b0 + b1 + b2 + white * 0.1848;
  }
  return out;
}

function rms(values: Float32Array): number {
  let sum = 0;
  for (const v of values) sum += v * v;
  return Math.sqrt(sum / Math.max(1, values.length));
}

function wavFile(samples: Int16Array): Buffer {
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  const dataBytes = samples.length * 2;
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, dataBytes)]);
}

/** A moving test pattern at 720p30 with a 2 s GOP, like a camera file; encoded once for both rooms. */
async function encodeVideo(output: string): Promise<void> {
  await runFfmpeg(
    {
      inputs: [{ file: `testsrc2=size=${WIDTH}x${HEIGHT}:rate=${FPS}`, lavfi: true, options: ["-t", String(TALK_SECONDS)] }],
      outputOptions: ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-g", String(GOP_FRAMES), "-pix_fmt", "yuv420p"],
      output,
    },
    { timeoutMs: TALK_SECONDS * 10_000 },
  );
}

/** Camera-like audio: AAC 48 kHz stereo next to the H.264 video. */
async function muxTalk(video: string, wav: string, output: string): Promise<void> {
  await runFfmpeg({
    inputs: [{ file: video }, { file: wav }],
    outputOptions: [
      "-map", "0:v", "-map", "1:a", "-c:v", "copy",
      "-c:a", "aac", "-b:a", "128k", "-ar", String(OUTPUT_AUDIO_RATE), "-ac", "2",
      "-t", String(TALK_SECONDS), "-movflags", "+faststart",
    ],
    output,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const talk = await ensureBenchTalk(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`${talk.files.quiet}\n${talk.files.noisy}\n${talk.truth.speech.length} utterances`);
}
