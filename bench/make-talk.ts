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
import { mixRoom, readWavSamples, trimSilence, wavFile } from "./room-audio";

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
/** espeak speaks near full scale; −6 dB leaves headroom for the room. */
const SPEECH_GAIN = 0.5;
const SEED = 20_240_601;

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
    await writeFile(wav, wavFile(mixRoom(speech, speech.length, ROOMS[room], "pink", random), SAMPLE_RATE));
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
    out.push(trimSilence(readWavSamples(await readFile(file)), SPEECH_GAIN));
  }
  return out;
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
