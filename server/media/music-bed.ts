import { open, rm } from "node:fs/promises";
import path from "node:path";
import {
  BED,
  duckGain,
  duckSettings,
  duckWeights,
  levelTrack,
  loopPoints,
  sceneLevels,
  sceneSpans,
  sourceAt,
  type BedSettings,
  type SceneMusic,
} from "../domain/music";
import { ANALYSIS_SAMPLE_RATE, DEFAULT_ANALYSIS_SETTINGS, detectSpeech, FrameMeter, MIN_LEVEL_DB, type TimeRange } from "./analyze";
import { runFfmpeg, streamFfmpeg } from "./ffmpeg";
import { mediaInput, probe } from "./probe";
import type { MusicBedFactory } from "./render";

/** The song a bed is made of: its file and where it loops (catalogue songs have loop points). */
export interface BedSong {
  file: string;
  durationMs: number;
  loopStartMs: number | null;
  loopEndMs: number | null;
}

/** What the bed did, for the Highlights: `mixed` once a bed was handed to the render. */
export interface BedOutcome {
  mixed: boolean;
  ducked: boolean;
  /** Measured levels (dB RMS) and the speech found, for logs and tests. */
  voiceDb?: number;
  songDb?: number;
  speech?: TimeRange[];
}

export interface MusicBedInput {
  song: BedSong;
  /** The edit's scenes in render order, one per edit-list segment. */
  scenes: readonly SceneMusic[];
  settings: BedSettings;
  /** Filled in when the render asks for the bed. */
  outcome?: BedOutcome;
}

const CHANNELS = 2;
const BYTES_PER_FLOAT = 4;
/** Samples (per channel) generated and written at a time. */
const CHUNK_SAMPLES = 48_000;
/** The presence band the music gives up under speech: 2–4 kHz, one octave around 2.8 kHz. */
const PRESENCE_HZ = Math.SQRT2 * 2000;
const PRESENCE_Q = Math.SQRT2;
/** A frame quieter than this is not part of a song's level (its silent ends). */
const SONG_SILENCE_DB = -60;

/**
 * Issue 15: the render's music bed (render.ts MusicBedFactory). The speech is analysed as rendered (so
 * any edit ducks right); the song is looped or played once and faded, levelled per scene against the
 * voice, ducked under speech with its presence band cut, and written as FLAC exactly as long as the edit.
 */
export function musicBed(input: MusicBedInput): MusicBedFactory {
  return async ({ speech, totalSamples, sampleRate, plan, scratch, signal }) => {
    const levels = sceneLevels(input.scenes, input.settings);
    if (levels.every((l) => l.levelDb === null) || totalSamples <= 0) return null;
    const planned = sceneSpans(
      input.scenes.map((s) => s.seconds),
      plan.fps,
      sampleRate,
    );
    // The plan's own rounding gives the same total; should it ever differ, the scenes are stretched to the sound.
    const end = planned.at(-1)?.to ?? 0;
    const spans = end === totalSamples || end <= 0 ? planned : planned.map((s) => ({ from: Math.round((s.from * totalSamples) / end), to: Math.round((s.to * totalSamples) / end) }));
    const voice = await voiceOf(speech, signal);
    const song = await decodeSong(input.song.file, totalSamples, sampleRate, input.song, signal);
    const songDb = levelOf(song);
    const track = levelTrack(spans, levels, { totalSamples, sampleRate, voiceDb: voice.levelDb, songDb });
    const duck = duckSettings(input.settings.style);
    const weights = duckWeights(voice.speech, track.gain.length, BED.frameSeconds, duck);
    const frameGain = new Float32Array(track.gain.length);
    const frameCut = new Float32Array(track.gain.length);
    let ducked = false;
    for (let f = 0; f < frameGain.length; f++) {
      const w = (weights[f] ?? 0) * (track.duck[f] ?? 0);
      if (w > 0.5 && (track.gain[f] ?? 0) > 0) ducked = true;
      frameGain[f] = (track.gain[f] ?? 0) * duckGain(w, duck);
      frameCut[f] = w * (1 - 10 ** (-duck.presenceCutDb / 20));
    }
    const points = loopPoints(input.song, sampleRate, song.length / CHANNELS);
    const raw = path.join(scratch, "music-bed.f32");
    const file = path.join(scratch, "music-bed.flac");
    await writeBed(raw, { song, points, loop: totalSamples > points.songSamples, totalSamples, sampleRate, frameGain, frameCut, frameSamples: track.frameSamples });
    try {
      await runFfmpeg(
        {
          inputs: [{ file: raw, format: "f32le", internal: true, options: ["-ar", String(sampleRate), "-ac", String(CHANNELS)] }],
          outputOptions: ["-map", "0:a:0", "-c:a", "flac", "-ar", String(sampleRate), "-ac", String(CHANNELS), "-f", "flac"],
          output: file,
        },
        { signal },
      );
    } finally {
      await rm(raw, { force: true });
    }
    if (input.outcome) Object.assign(input.outcome, { mixed: true, ducked, voiceDb: voice.levelDb, songDb, speech: voice.speech });
    return { file };
  };
}

/** The voice's level is measured above this (Hz): below a voice's fundamental, like loudness meters' own high-pass. */
const VOICE_LEVEL_HIGHPASS_HZ = 60;

/**
 * The speech stretches of the rendered sound (the project's own speech analysis, analyze.ts) and the
 * voice's level over them, from one decode: the analysis filters out everything under 200 Hz to find
 * speech, which would hide a low voice's fundamental from its level.
 */
async function voiceOf(file: string, signal?: AbortSignal): Promise<{ speech: TimeRange[]; levelDb: number }> {
  const frameSamples = Math.round(ANALYSIS_SAMPLE_RATE * DEFAULT_ANALYSIS_SETTINGS.frameSeconds);
  const detector = new FrameMeter(frameSamples, { highpassHz: DEFAULT_ANALYSIS_SETTINGS.highpassHz, sampleRate: ANALYSIS_SAMPLE_RATE });
  const meter = new FrameMeter(frameSamples, { highpassHz: VOICE_LEVEL_HIGHPASS_HZ, sampleRate: ANALYSIS_SAMPLE_RATE });
  const decoder = streamFfmpeg(
    {
      inputs: [{ file, format: "flac", internal: true }],
      // The mean of the two channels, as the song's level is measured (-ac 1 would add 3 dB to a centred voice).
      outputOptions: ["-map", "0:a:0", "-af", `pan=mono|c0=0.5*c0+0.5*c1,aresample=${ANALYSIS_SAMPLE_RATE}`, "-c:a", "pcm_s16le", "-flush_packets", "0", "-f", "s16le"],
      output: "-",
    },
    { signal },
  );
  const done = decoder.done.catch((error: unknown) => error);
  for await (const chunk of decoder.stdout as AsyncIterable<Buffer>) {
    detector.push(chunk);
    meter.push(chunk);
  }
  const failure = await done;
  if (failure) throw failure;
  const durationSeconds = detector.samples / ANALYSIS_SAMPLE_RATE;
  const analysis = detectSpeech(detector.finish(), {}, durationSeconds);
  const levels = meter.finish();
  const frameSeconds = DEFAULT_ANALYSIS_SETTINGS.frameSeconds;
  let power = 0;
  let count = 0;
  for (const range of analysis.speech) {
    const to = Math.min(levels.length, Math.ceil(range.end / frameSeconds));
    for (let f = Math.max(0, Math.floor(range.start / frameSeconds)); f < to; f++) {
      const db = levels[f] ?? MIN_LEVEL_DB;
      if (db <= MIN_LEVEL_DB) continue;
      power += 10 ** (db / 10);
      count++;
    }
  }
  return { speech: analysis.speech, levelDb: count > 0 ? 10 * Math.log10(power / count) : BED.referenceVoiceDb };
}

/** The song as interleaved stereo floats at the render's rate: all of it when it loops, else as much as the edit plays. */
async function decodeSong(file: string, totalSamples: number, sampleRate: number, song: BedSong, signal?: AbortSignal): Promise<Float32Array> {
  const info = await probe(file, { signal });
  const needSeconds = totalSamples / sampleRate + 1;
  const whole = song.durationMs / 1000 <= needSeconds;
  const decoder = streamFfmpeg(
    {
      inputs: [mediaInput(file, info)],
      outputOptions: ["-map", "0:a:0", "-vn", "-ac", String(CHANNELS), "-ar", String(sampleRate), ...(whole ? [] : ["-t", needSeconds.toFixed(3)]), "-c:a", "pcm_f32le", "-f", "f32le"],
      output: "-",
    },
    { signal },
  );
  const chunks: Buffer[] = [];
  let bytes = 0;
  const done = decoder.done.catch((error: unknown) => error);
  for await (const chunk of decoder.stdout as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    bytes += chunk.length;
  }
  const failure = await done;
  if (failure) throw failure;
  const joined = Buffer.concat(chunks, bytes);
  const frames = Math.floor(joined.length / (BYTES_PER_FLOAT * CHANNELS));
  const out = new Float32Array(frames * CHANNELS);
  for (let i = 0; i < out.length; i++) out[i] = joined.readFloatLE(i * BYTES_PER_FLOAT);
  return out;
}

/** The song's level (dB RMS of its mono mix), over its 10 ms frames that are not silent. */
function levelOf(song: Float32Array): number {
  const frame = 480;
  let power = 0;
  let count = 0;
  for (let start = 0; start + frame * CHANNELS <= song.length; start += frame * CHANNELS) {
    let sum = 0;
    for (let i = start; i < start + frame * CHANNELS; i += CHANNELS) {
      const m = ((song[i] ?? 0) + (song[i + 1] ?? 0)) / 2;
      sum += m * m;
    }
    const mean = sum / frame;
    if (mean <= 10 ** (SONG_SILENCE_DB / 10)) continue;
    power += mean;
    count++;
  }
  return count > 0 ? 10 * Math.log10(power / count) : BED.referenceVoiceDb;
}

interface BedPlan {
  song: Float32Array;
  points: ReturnType<typeof loopPoints>;
  loop: boolean;
  totalSamples: number;
  sampleRate: number;
  /** Per 10 ms frame: the gain (level × fades × duck) and how much of the presence band to take out. */
  frameGain: Float32Array;
  frameCut: Float32Array;
  frameSamples: number;
}

/**
 * Writes the bed as raw stereo floats: the song read through its loop, a band-pass of it (RBJ, 0 dB
 * peak, 2–4 kHz) subtracted in proportion to the duck (a presence cut with no crossfade between two
 * filtered versions), times the gain interpolated per sample between frames.
 */
async function writeBed(file: string, bed: BedPlan): Promise<void> {
  const w = (2 * Math.PI * PRESENCE_HZ) / bed.sampleRate;
  const alpha = Math.sin(w) / (2 * PRESENCE_Q);
  const a0 = 1 + alpha;
  const b0 = alpha / a0;
  const b2 = -alpha / a0;
  const a1 = (-2 * Math.cos(w)) / a0;
  const a2 = (1 - alpha) / a0;
  const state = new Float64Array(8); // per channel: x1, x2, y1, y2
  const handle = await open(file, "w");
  try {
    const buffer = new Float32Array(CHUNK_SAMPLES * CHANNELS);
    const { song } = bed;
    for (let from = 0; from < bed.totalSamples; from += CHUNK_SAMPLES) {
      const to = Math.min(bed.totalSamples, from + CHUNK_SAMPLES);
      for (let n = from; n < to; n++) {
        const at = sourceAt(n, bed.points, bed.loop);
        const f = Math.floor(n / bed.frameSamples);
        const t = (n - f * bed.frameSamples) / bed.frameSamples;
        const g0 = bed.frameGain[f] ?? 0;
        const gain = g0 + ((bed.frameGain[f + 1] ?? g0) - g0) * t;
        const c0 = bed.frameCut[f] ?? 0;
        const cut = c0 + ((bed.frameCut[f + 1] ?? c0) - c0) * t;
        for (let c = 0; c < CHANNELS; c++) {
          let x = 0;
          if (at.a >= 0) x += (song[at.a * CHANNELS + c] ?? 0) * at.wa;
          if (at.b >= 0) x += (song[at.b * CHANNELS + c] ?? 0) * at.wb;
          const s = c * 4;
          const y = b0 * x + b2 * state[s + 1]! - a1 * state[s + 2]! - a2 * state[s + 3]!;
          state[s + 1] = state[s]!;
          state[s] = x;
          state[s + 3] = state[s + 2]!;
          state[s + 2] = y;
          buffer[(n - from) * CHANNELS + c] = (x - cut * y) * gain;
        }
      }
      const length = (to - from) * CHANNELS;
      await handle.write(new Uint8Array(buffer.buffer, 0, length * BYTES_PER_FLOAT));
    }
  } finally {
    await handle.close();
  }
}
