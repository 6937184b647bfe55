/**
 * The local speech engine: Debian's pocketsphinx (0.8+5prealpha, `pocketsphinx_continuous`) with the
 * pocketsphinx-en-us model, as a child process. US English only, draft quality: on espeak-ng talks it
 * gets a quarter to a half of the words wrong, but places words within a few hundredths of a second.
 *
 * ffmpeg decodes the file's first audio track to a raw 16 kHz mono s16le file for pocketsphinx (it
 * reads WAV headers wrongly and skips 44 bytes of any input, so 44 bytes of zeros go first). A faint seeded noise (-50 dBFS) is added: stretches of pure digital silence (a
 * gated microphone, a synthetic voice) upset its noise and cepstral-mean estimates, and measured
 * on the espeak-ng talk of `npm run bench:subtitles` the noise took its word error rate from 60 % to 29 %.
 *
 * The first word of an utterance sometimes swallows the silence before it (0.5 s on a talk's first
 * word): each word is fitted inside the speech the silence analysis measures on the same samples.
 */
import { accessSync, createReadStream, createWriteStream, constants as fsConstants, existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { complement, DEFAULT_ANALYSIS_SETTINGS, detectSpeech, FrameMeter, type TimeRange } from "../media/analyze";
import { spawnChild } from "../media/children";
import { MediaAbortedError, streamFfmpeg } from "../media/ffmpeg";
import { mediaInput, probe, type MediaInfo } from "../media/probe";
import { SpeechError, type SpeechAvailability, type SpeechEngine, type Transcript, type TranscribeOptions } from "./stt";
import { baseLanguage, fitWordsToSpeech, normaliseWords, type SpokenWord } from "./words";

export interface PocketsphinxSettings {
  /** The binary: a path, or a name looked up on PATH (default pocketsphinx_continuous). */
  binary: string;
  /** The pocketsphinx-en-us model folder (holds en-us/, en-us.lm.bin, cmudict-en-us.dict). */
  modelDir: string;
  /** pocketsphinx uses one core: a long file is cut at silences into this many pieces run side by side (default: 2 where there are 2 cores). */
  processes?: number;
  /** …each at least this long (shorter files run whole). */
  minPieceSeconds?: number;
}

export const DEFAULT_POCKETSPHINX: Readonly<PocketsphinxSettings> = Object.freeze({
  binary: "pocketsphinx_continuous",
  modelDir: "/usr/share/pocketsphinx/model/en-us",
});

const SAMPLE_RATE = 16_000;
/** pocketsphinx skips this many bytes of any input as a WAV header. */
const SKIPPED_HEADER_BYTES = 44;
/** Level of the added noise, in dBFS RMS (see the file comment). */
const NOISE_DB = -50;
/** pocketsphinx's frame: a word's end time is the start of its last 10 ms frame. */
const FRAME_SECONDS = 0.01;
const STDERR_TAIL_LINES = 20;
const KILL_GRACE_MS = 2_000;
/** pocketsphinx runs at about a quarter of real time on one core; a run beyond this is stuck. */
const TIMEOUT_BASE_MS = 60_000;
const TIMEOUT_PER_SECOND_MS = 4_000;
/** Share of the progress taken by decoding the audio (recognition is the long part). */
const DECODE_SHARE = 0.05;
/** Pieces run side by side are at least this long: each process loads the model (~1 s) and warms up on its first words. */
const MIN_PIECE_SECONDS = 60;
/** Progress is reported at least this often while pocketsphinx works through a silent stretch. */
const PROGRESS_TICK_MS = 5_000;

/**
 * Decoder settings (the package's defaults otherwise), tried with `npm run bench:subtitles`: a
 * language weight of 8 instead of 6.5 lost 4–10 points of WER; wider beams gained 1–2 points at half
 * the speed; dither with a fixed seed keeps runs identical.
 */
const DECODER_SETTINGS = ["-dither", "yes", "-seed", "1"];

/** Tokens that are not words: sentence marks, silence, noise and ++FILLER++ classes. */
const NOT_A_WORD = /^(<s>|<\/s>|<sil>|\[[A-Z_]+\]|\+\+[A-Z_]+\+\+|\+[A-Z_]+\+)$/;

/** The model's files that must be there. */
const modelFiles = (modelDir: string) => ({
  hmm: path.join(modelDir, "en-us"),
  lm: path.join(modelDir, "en-us.lm.bin"),
  dict: path.join(modelDir, "cmudict-en-us.dict"),
});

function locate(binary: string): string | undefined {
  const executable = (file: string) => {
    try {
      accessSync(file, fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (binary.includes("/")) return executable(binary) ? path.resolve(binary) : undefined;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).concat(["/usr/bin"])) {
    if (dir && executable(path.join(dir, binary))) return path.join(dir, binary);
  }
  return undefined;
}

const round3 = (t: number) => Math.round(t * 1000) / 1000;
const INSTALL = "apt-get install -y pocketsphinx pocketsphinx-en-us (Debian/Ubuntu)";

/**
 * pocketsphinx's `-time yes` output → words. Each utterance is a hypothesis line, then one line per
 * token: `word start end posterior`, times in seconds from the start of the input. Alternative
 * pronunciations come as `word(2)`; `<s>` opens an utterance, so its first word is capitalised.
 */
export function parsePocketsphinxOutput(output: string, offsetSeconds = 0): SpokenWord[] {
  const words: SpokenWord[] = [];
  let utteranceStart = true;
  for (const line of output.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields.length !== 4) continue;
    const [token = "", startText = "", endText = "", posterior = ""] = fields;
    const start = Number(startText);
    const end = Number(endText);
    const confidence = Number(posterior);
    if (![start, end, confidence].every(Number.isFinite) || !/^\d/.test(startText)) continue;
    if (token === "<s>") utteranceStart = true;
    if (NOT_A_WORD.test(token)) continue;
    let text = token.replace(/\(\d+\)$/, "");
    // the dictionary is lower case: "i" and its contractions are always capitals in English
    text = text.replace(/^i(?=$|')/, "I");
    if (utteranceStart) text = text.charAt(0).toUpperCase() + text.slice(1);
    utteranceStart = false;
    words.push({ start: round3(start + offsetSeconds), end: round3(end + FRAME_SECONDS + offsetSeconds), text, confidence });
  }
  return words;
}

/** A seeded white noise added to s16le samples as they pass (mulberry32: the same noise every run). */
function noiseAdder(levelDb: number): (chunk: Buffer) => Buffer {
  let state = 0x5eed;
  const amplitude = 32768 * 10 ** (levelDb / 20) * Math.sqrt(3);
  let odd: number | undefined; // a sample split across two chunks
  return (chunk) => {
    let input = chunk;
    if (odd !== undefined) input = Buffer.concat([Buffer.from([odd]), chunk]);
    odd = input.length % 2 === 1 ? input[input.length - 1] : undefined;
    const usable = input.length - (input.length % 2);
    const out = Buffer.allocUnsafe(usable);
    for (let i = 0; i < usable; i += 2) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const random = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      const sample = input.readInt16LE(i) + Math.round((random * 2 - 1) * amplitude);
      out.writeInt16LE(Math.max(-32768, Math.min(32767, sample)), i);
    }
    return out;
  };
}

export function pocketsphinx(settings: PocketsphinxSettings = DEFAULT_POCKETSPHINX): SpeechEngine {
  const files = modelFiles(settings.modelDir);

  async function availability(language: string): Promise<SpeechAvailability> {
    if (baseLanguage(language) !== "en") {
      return {
        available: false,
        reason: "no_engine_for_language",
        missing: `speech recognition for ${language}`,
        remedy: "The local engine (pocketsphinx) knows US English only. Set STT_URL to a Whisper-compatible service for other languages.",
      };
    }
    if (!locate(settings.binary)) {
      return { available: false, reason: "engine_not_installed", missing: `the speech engine ${settings.binary}`, remedy: INSTALL };
    }
    const absent = Object.values(files).filter((file) => !existsSync(file));
    if (absent.length > 0) {
      return { available: false, reason: "engine_not_installed", missing: `the US English speech model (${absent.join(", ")})`, remedy: INSTALL };
    }
    return { available: true, engine: "pocketsphinx", draft: true };
  }

  async function transcribe(file: string, options: TranscribeOptions): Promise<Transcript> {
    const ready = await availability(options.language);
    if (!ready.available) throw new SpeechError("speech_unavailable", `${ready.missing} is missing: ${ready.remedy}`, false);
    if (options.signal?.aborted) throw new MediaAbortedError();
    const info = options.info ?? (await probe(file, { signal: options.signal }));
    const done: Transcript = { words: [], engine: "pocketsphinx", draft: true, language: options.language };
    if (!info.hasAudio) return done;

    const work = await mkdtemp(path.join(os.tmpdir(), "cutroom-sphinx-"));
    const ticker = setInterval(() => report(), PROGRESS_TICK_MS);
    const heard: number[] = [];
    let seconds = info.durationSeconds;
    const report = () => options.onProgress?.(DECODE_SHARE + (1 - DECODE_SHARE) * Math.min(0.99, heard.reduce((a, b) => a + b, 0) / Math.max(seconds, 1e-3)));
    // one failing piece stops the others
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const raw = path.join(work, "audio.raw");
      const decoded = await decodeForRecognition(file, info, raw, options.signal);
      seconds = decoded.seconds;
      options.onProgress?.(DECODE_SHARE);
      const count = Math.max(1, Math.min(settings.processes ?? Math.min(2, os.availableParallelism()), Math.floor(seconds / (settings.minPieceSeconds ?? MIN_PIECE_SECONDS))));
      const pieces = splitAtSilences(decoded.speech, seconds, count);
      const binary = locate(settings.binary)!;
      const runs = await Promise.allSettled(
        pieces.map(async (piece, i) => {
          const input = pieces.length === 1 ? raw : await cutRaw(raw, piece, path.join(work, `piece-${i}.raw`));
          const args = ["-infile", input, "-time", "yes", "-hmm", files.hmm, "-lm", files.lm, "-dict", files.dict, ...DECODER_SETTINGS];
          try {
            const output = await recognise(binary, args, piece.end - piece.start, stop.signal, (t) => {
              heard[i] = t;
            });
            return parsePocketsphinxOutput(output, piece.start);
          } catch (error) {
            stop.abort();
            throw error;
          }
        }),
      );
      if (options.signal?.aborted) throw new MediaAbortedError();
      const failed = runs.find((r): r is PromiseRejectedResult => r.status === "rejected" && !(r.reason instanceof MediaAbortedError)) ?? runs.find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
      const words = runs.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
      done.words = fitWordsToSpeech(normaliseWords(words, options.language), decoded.speech);
    } finally {
      clearInterval(ticker);
      options.signal?.removeEventListener("abort", onAbort);
      await rm(work, { recursive: true, force: true });
    }
    options.onProgress?.(1);
    return done;
  }

  return { name: "pocketsphinx", serves: (language) => baseLanguage(language) === "en", availability, transcribe };
}

/**
 * The file's first audio track as the raw input pocketsphinx reads: 44 bytes it skips, then 16 kHz
 * mono s16le with the faint noise added; answers where there is speech, measured on the way. A
 * file, not a pipe: pocketsphinx opens its input by name, and a child's stdin from Node is a socket,
 * which it cannot open.
 */
async function decodeForRecognition(file: string, info: MediaInfo, raw: string, signal: AbortSignal | undefined): Promise<{ speech: TimeRange[]; seconds: number }> {
  const decoder = streamFfmpeg(
    {
      inputs: [mediaInput(file, info)],
      outputOptions: ["-map", "0:a:0", "-vn", "-sn", "-dn", "-ac", "1", "-ar", String(SAMPLE_RATE), "-c:a", "pcm_s16le", "-flush_packets", "0", "-f", "s16le"],
      output: "-",
    },
    { signal, threads: 1 },
  );
  const addNoise = noiseAdder(NOISE_DB);
  const meter = new FrameMeter(Math.round(SAMPLE_RATE * DEFAULT_ANALYSIS_SETTINGS.frameSeconds));
  const output = createWriteStream(raw);
  output.write(Buffer.alloc(SKIPPED_HEADER_BYTES));
  const written = pipeline(
    decoder.stdout,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        const noisy = addNoise(chunk);
        meter.push(noisy);
        yield noisy;
      }
    },
    output,
  );
  const [decoded, copied] = await Promise.allSettled([decoder.done, written]);
  if (decoded.status === "rejected") throw decoded.reason;
  if (copied.status === "rejected") throw copied.reason;
  const seconds = meter.samples / SAMPLE_RATE;
  return { speech: detectSpeech(meter.finish(), {}, seconds).speech, seconds };
}

/**
 * `count` pieces covering [0, seconds], cut in the middle of the silence nearest each even share
 * (a cut inside a word would lose it). Pure.
 */
export function splitAtSilences(speech: readonly TimeRange[], seconds: number, count: number): TimeRange[] {
  const silences = complement(speech, seconds).map((s) => (s.start + s.end) / 2);
  const cuts: number[] = [];
  for (let k = 1; k < count; k++) {
    const ideal = (seconds * k) / count;
    const nearest = silences.reduce<number | undefined>((best, t) => (best === undefined || Math.abs(t - ideal) < Math.abs(best - ideal) ? t : best), undefined);
    const cut = nearest !== undefined && Math.abs(nearest - ideal) < seconds / count / 2 ? nearest : ideal;
    if (cut > (cuts.at(-1) ?? 0) && cut < seconds) cuts.push(cut);
  }
  const edges = [0, ...cuts, seconds];
  return edges.slice(1).map((end, i) => ({ start: edges[i]!, end }));
}

/** One piece of the raw input as its own raw input (44 skipped bytes, then the piece's samples). */
async function cutRaw(raw: string, piece: TimeRange, output: string): Promise<string> {
  const first = SKIPPED_HEADER_BYTES + 2 * Math.round(piece.start * SAMPLE_RATE);
  const last = SKIPPED_HEADER_BYTES + 2 * Math.round(piece.end * SAMPLE_RATE) - 1;
  const out = createWriteStream(output);
  out.write(Buffer.alloc(SKIPPED_HEADER_BYTES));
  await pipeline(createReadStream(raw, { start: first, end: last }), out);
  return output;
}

/** Runs pocketsphinx on a raw input and answers its stdout; killed on abort or when it takes far too long. */
async function recognise(binary: string, args: string[], durationSeconds: number, signal: AbortSignal, onHeard: (seconds: number) => void): Promise<string> {
  if (signal.aborted) throw new MediaAbortedError();
  const child = spawnChild(binary, args, { stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
  const stderr: string[] = [];
  const stdout: string[] = [];
  let aborted = false;
  let timedOut = false;
  const kill = () => {
    child.kill("SIGTERM");
    setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), KILL_GRACE_MS).unref();
  };
  const onAbort = () => {
    aborted = true;
    kill();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, TIMEOUT_BASE_MS + TIMEOUT_PER_SECOND_MS * durationSeconds);
  signal.addEventListener("abort", onAbort, { once: true });

  child.stdout!.setEncoding("utf8").on("data", (text: string) => {
    stdout.push(text);
    const last = /(\d+\.\d+) \d+\.\d+\s*$/.exec(text.trimEnd());
    if (last) onHeard(Number(last[1]));
  });
  child.stderr!.setEncoding("utf8").on("data", (text: string) => {
    for (const line of text.split("\n")) if (line.trim()) stderr.push(line.trim());
    stderr.splice(0, Math.max(0, stderr.length - STDERR_TAIL_LINES));
  });
  try {
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code, how) => resolve({ code, signal: how }));
    }).catch((error: unknown) => {
      throw new SpeechError("speech_engine_failed", `pocketsphinx did not start: ${String(error)}`, false);
    });
    if (aborted) throw new MediaAbortedError();
    if (timedOut) throw new SpeechError("speech_timeout", "pocketsphinx took too long", true);
    if (exit.code !== 0) {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      throw new SpeechError("speech_engine_failed", `pocketsphinx ${how}: ${stderr.filter((l) => !l.startsWith("INFO:")).slice(-5).join(" | ")}`, true);
    }
    return stdout.join("");
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}
