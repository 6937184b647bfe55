/**
 * Several generated talks with KNOWN speech, for scoring the cut on material it was not tuned on:
 * each talk has its own seed (sentence order, gaps 0.3–3 s), espeak-ng voice and speed, room tone
 * colour (white, pink, brown) and level, and some a little reverberation (ffmpeg aecho on the voice).
 * Audio only (AAC 48 kHz stereo in .m4a, like a camera's track): the analysis reads nothing else.
 * The truth is where the dry utterances were placed (sample positions). Cached in `<dir>/talks/`.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { runFfmpeg } from "../server/media/ffmpeg";
import type { TimeRange } from "../server/media/analyze";
import { seededRandom } from "../tests/reliability";
import { mixRoom, readWavSamples, trimSilence, wavFile, type NoiseColour } from "./room-audio";

const run = promisify(execFile);

/** Bump when the generated material changes, so cached files are rebuilt. */
const TALKS_VERSION = 2;
/** Inside a sentence, a stretch this long whose 10 ms frames all stay this far below the sentence's loudest frame is a pause, not speech. */
const PAUSE_MIN_SECONDS = 0.25;
const PAUSE_BELOW_PEAK_DB = 45;
const SAMPLE_RATE = 22_050;
const GAP_MIN_SECONDS = 0.3;
const GAP_MAX_SECONDS = 3;
const LEAD_IN_SECONDS = 1;
const TAIL_SECONDS = 1.5;

export type { NoiseColour };

export interface TalkSpec {
  name: string;
  seed: number;
  voice: string;
  /** espeak-ng words per minute. */
  speed: number;
  colour: NoiseColour;
  /** Room tone RMS in dBFS. */
  roomDb: number;
  /** Voice level in dB relative to espeak's own (≤ 0). */
  voiceGainDb: number;
  /** ffmpeg aecho parameters for a little room reverberation, or undefined for a dry voice. */
  reverb?: string;
  seconds: number;
}

/** Different talkers in different rooms; none of them is the one the analysis was first tuned on. */
export const TALK_SPECS: readonly TalkSpec[] = [
  { name: "studio", seed: 11, voice: "en-us", speed: 165, colour: "white", roomDb: -66, voiceGainDb: -6, seconds: 150 },
  { name: "office", seed: 23, voice: "en+f3", speed: 140, colour: "pink", roomDb: -50, voiceGainDb: -8, reverb: "0.8:0.5:23|41:0.25|0.15", seconds: 150 },
  { name: "fan", seed: 37, voice: "en-us+m3", speed: 180, colour: "brown", roomDb: -36, voiceGainDb: -6, seconds: 150 },
  { name: "hall", seed: 41, voice: "en+f2", speed: 155, colour: "pink", roomDb: -44, voiceGainDb: -10, reverb: "0.8:0.6:37|61|89:0.3|0.2|0.12", seconds: 150 },
  { name: "street", seed: 53, voice: "en-us+f4", speed: 170, colour: "white", roomDb: -40, voiceGainDb: -4, seconds: 150 },
  { name: "quietmic", seed: 67, voice: "en", speed: 150, colour: "brown", roomDb: -62, voiceGainDb: -12, reverb: "0.8:0.4:29:0.2", seconds: 150 },
];

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
  "Fine.",
  "You can change all of this in the settings.",
  "Most people never need to.",
  "Now, what about noisy rooms?",
  "A fan or an open window raises the floor.",
  "Yes.",
  "Shh, she sleeps; fifty six thin sheets.",
  "Subtitles come from the same timeline.",
  "So they stay in sync after every cut.",
  "See you in the next one.",
];

export interface GeneratedTalk {
  spec: TalkSpec;
  file: string;
  duration: number;
  speech: TimeRange[];
}

/** The talks in `dir`/talks, built on first use (a few seconds each). */
export async function ensureTalks(dir: string, specs: readonly TalkSpec[] = TALK_SPECS): Promise<GeneratedTalk[]> {
  const folder = path.join(dir, "talks");
  await mkdir(folder, { recursive: true });
  const out: GeneratedTalk[] = [];
  for (const spec of specs) out.push(await ensureTalk(folder, spec));
  return out;
}

async function ensureTalk(folder: string, spec: TalkSpec): Promise<GeneratedTalk> {
  const file = path.join(folder, `${spec.name}.m4a`);
  const truthFile = path.join(folder, `${spec.name}.truth.json`);
  try {
    const cached = JSON.parse(await readFile(truthFile, "utf8")) as { version: number; spec: TalkSpec; duration: number; speech: TimeRange[] };
    if (cached.version === TALKS_VERSION && JSON.stringify(cached.spec) === JSON.stringify(spec) && existsSync(file)) {
      return { spec, file, duration: cached.duration, speech: cached.speech };
    }
  } catch {
    // not built yet
  }
  const work = path.join(folder, `${spec.name}.work`);
  await mkdir(work, { recursive: true });
  const random = seededRandom(spec.seed).next;
  const utterances: Int16Array[] = [];
  for (const [i, sentence] of SENTENCES.entries()) {
    const wav = path.join(work, `utt${i}.wav`);
    await run("espeak-ng", ["-v", spec.voice, "-s", String(spec.speed), "-w", wav, sentence]);
    utterances.push(trimSilence(readWavSamples(await readFile(wav)), 10 ** (spec.voiceGainDb / 20)));
  }
  const total = Math.round(spec.seconds * SAMPLE_RATE);
  const track = new Int16Array(total);
  const speech: TimeRange[] = [];
  let at = LEAD_IN_SECONDS * SAMPLE_RATE;
  for (;;) {
    const utterance = utterances[Math.floor(random() * utterances.length)] ?? new Int16Array();
    if (at + utterance.length > total - TAIL_SECONDS * SAMPLE_RATE) break;
    track.set(utterance, at);
    for (const [a, b] of sounding(utterance)) speech.push({ start: (at + a) / SAMPLE_RATE, end: (at + b) / SAMPLE_RATE });
    at += utterance.length + Math.round((GAP_MIN_SECONDS + random() * (GAP_MAX_SECONDS - GAP_MIN_SECONDS)) * SAMPLE_RATE);
  }
  const dry = path.join(work, "dry.wav");
  await writeFile(dry, wavFile(track, SAMPLE_RATE));
  let voice: Int16Array = track;
  if (spec.reverb) {
    const wet = path.join(work, "wet.wav");
    await runFfmpeg({ inputs: [{ file: dry }], outputOptions: ["-af", `aecho=${spec.reverb}`, "-c:a", "pcm_s16le", "-t", String(spec.seconds)], output: wet });
    voice = readWavSamples(await readFile(wet));
  }
  const mixed = path.join(work, "mixed.wav");
  await writeFile(mixed, wavFile(mixRoom(voice, total, spec.roomDb, spec.colour, random), SAMPLE_RATE));
  await runFfmpeg({ inputs: [{ file: mixed }], outputOptions: ["-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2", "-t", String(spec.seconds)], output: file });
  await writeFile(truthFile, JSON.stringify({ version: TALKS_VERSION, spec, duration: spec.seconds, speech }));
  await rm(work, { recursive: true, force: true });
  return { spec, file, duration: spec.seconds, speech };
}

/**
 * The sounding parts of a trimmed sentence, in samples: espeak pauses at commas and semicolons, and a
 * pause is silence to cut, not speech to keep.
 */
function sounding(samples: Int16Array): [number, number][] {
  const frame = Math.round(SAMPLE_RATE / 100);
  const levels: number[] = [];
  for (let i = 0; i < samples.length; i += frame) {
    let sum = 0;
    const end = Math.min(samples.length, i + frame);
    for (let j = i; j < end; j++) sum += (samples[j] ?? 0) ** 2;
    levels.push(10 * Math.log10(sum / Math.max(1, end - i) + 1e-9));
  }
  const quiet = Math.max(...levels) - PAUSE_BELOW_PEAK_DB;
  const out: [number, number][] = [[0, samples.length]];
  let run = -1;
  for (let k = 0; k <= levels.length; k++) {
    if (k < levels.length && (levels[k] ?? 0) < quiet) {
      if (run < 0) run = k;
      continue;
    }
    if (run >= 0 && run > 0 && k < levels.length && k - run >= PAUSE_MIN_SECONDS * 100) {
      const last = out.pop()!;
      out.push([last[0], run * frame], [k * frame, last[1]]);
    }
    run = -1;
  }
  return out;
}
