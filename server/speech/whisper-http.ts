/**
 * A Whisper-compatible speech service an operator hosts (STT_URL): OpenAI's
 * `POST /v1/audio/transcriptions` (multipart: file, model, language, response_format=verbose_json,
 * timestamp_granularities[]=word), as OpenAI, self-hosted faster-whisper servers and whisper.cpp's
 * server speak it.
 *
 * The audio goes as Opus (mono, 24 kbit/s: about 11 MB an hour) in pieces under the request limit
 * (25 MB at OpenAI), cut in the silences nearest each limit; each piece's words come back shifted by
 * where the piece starts. A piece refused as too large (413) is cut in two and sent again. 429, 5xx,
 * timeouts and lost connections are retried with exponential back-off (Retry-After honoured); other
 * refusals fail at once with a clear code. The key goes in the Authorization header only, and no
 * message carries the key or the service's address.
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { analyzeFile, type TimeRange } from "../media/analyze";
import { MediaAbortedError, runFfmpeg } from "../media/ffmpeg";
import { networkCode, retryAfterMs, serviceMessage, sleep } from "../net/service-calls";
import { mediaInput, probe, type MediaInfo } from "../media/probe";
import { SpeechError, type SpeechAvailability, type SpeechEngine, type Transcript, type TranscribeOptions } from "./stt";
import { baseLanguage, normaliseWords, type SpokenWord } from "./words";

export interface WhisperHttpSettings {
  /** The service: its base (http://host:8000, …/v1) or the full …/audio/transcriptions address. */
  url: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey: string | null;
  /** The `model` field (OpenAI: whisper-1; faster-whisper servers: a model name such as Systran/faster-whisper-small). */
  model: string;
  /** Languages the service is used for (upload tags: en-US, pt-BR, …). */
  languages: readonly string[];
  /** Longest wait for one request's answer. */
  timeoutMs: number;
  /** Largest request body the service takes (OpenAI: 25 MB). */
  maxRequestBytes: number;
  /** Further attempts after a failed one (429, 5xx, timeout, lost connection). */
  retries: number;
  /** First back-off; doubles with each retry. */
  backoffMs: number;
  /** Opus bitrate in kbit/s. */
  bitrateKbps: number;
}

export const DEFAULT_WHISPER_HTTP = Object.freeze({
  model: "whisper-1",
  timeoutMs: 10 * 60_000,
  maxRequestBytes: 25 * 1024 * 1024,
  retries: 4,
  backoffMs: 1_000,
  bitrateKbps: 24,
});

/** Room kept in a request for the multipart framing and the other fields. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;
/** Ogg framing on top of the Opus bitrate, with room for the encoder's variable rate. */
const CONTAINER_SLACK = 1.15;
/** Pieces are never longer than this, whatever the size limit: a long request risks its timeout and reports no progress. */
const MAX_PIECE_SECONDS = 20 * 60;
/** A piece refused as too large is not cut below this. */
const MIN_PIECE_SECONDS = 2;
/** Back-off never waits longer than this, Retry-After included. */
const MAX_BACKOFF_MS = 60_000;
const PROGRESS_TICK_MS = 5_000;
/** How much of the service's own error message an error keeps. */

/** Where requests go: `…/v1/audio/transcriptions` from a base address, or the address itself when it is the full one. */
export function transcriptionsUrl(url: string): string {
  const u = new URL(url);
  const trimmed = u.pathname.replace(/\/+$/, "");
  if (!/\/audio\/transcriptions$/.test(trimmed)) u.pathname = /\/v1$/.test(trimmed) ? `${trimmed}/audio/transcriptions` : `${trimmed}/v1/audio/transcriptions`;
  return u.toString();
}

/** Whisper's language codes are ISO 639-1 ("pt", "de"); Filipino is Tagalog ("tl") to Whisper. */
export function whisperLanguage(language: string): string {
  const base = baseLanguage(language);
  return base === "fil" ? "tl" : base;
}

/**
 * Pieces of at most `maxSeconds` covering [0, duration], each cut in the middle of the latest silence
 * that leaves the piece at least half the maximum; where there is none, cut at the maximum. Pure.
 */
export function planPieces(duration: number, silences: readonly TimeRange[], maxSeconds: number): TimeRange[] {
  const pieces: TimeRange[] = [];
  let start = 0;
  while (duration - start > maxSeconds) {
    const limit = start + maxSeconds;
    let cut = limit;
    for (const silence of silences) {
      const middle = (silence.start + silence.end) / 2;
      if (middle > start + maxSeconds / 2 && middle <= limit) cut = middle;
    }
    pieces.push({ start, end: cut });
    start = cut;
  }
  pieces.push({ start, end: duration });
  return pieces;
}

const WordSchema = z.object({
  word: z.string(),
  start: z.number(),
  end: z.number(),
  probability: z.number().optional(),
});
const SegmentSchema = z.object({
  start: z.number(),
  end: z.number(),
  text: z.string().default(""),
  avg_logprob: z.number().optional(),
  words: z.array(WordSchema).optional(),
});
const VerboseJsonSchema = z.object({
  text: z.string().optional(),
  words: z.array(WordSchema).optional(),
  segments: z.array(SegmentSchema).optional(),
});
type VerboseJson = z.infer<typeof VerboseJsonSchema>;

/** A word compared without case, spaces or punctuation. */
const bare = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}']+/gu, "");
/** Tokens this far ahead are searched for a word's match; past them the text has diverged. */
const ALIGN_WINDOW = 4;

/**
 * OpenAI's `words` carry no punctuation, which the transcript's text has: each word takes the
 * punctuation of its match in the text ("world" → "world."), so lines can end at sentence ends.
 * Words already punctuated (faster-whisper's) and words with no match keep their own text.
 */
export function punctuated(words: readonly string[], text: string): string[] {
  const tokens = text.split(/\s+/).filter((t) => bare(t) !== "");
  let cursor = 0;
  return words.map((word) => {
    const key = bare(word);
    if (!key) return word;
    for (let i = cursor; i < Math.min(tokens.length, cursor + ALIGN_WINDOW); i++) {
      if (bare(tokens[i]!) !== key) continue;
      cursor = i + 1;
      const ownPunctuation = /[^\p{L}\p{N}'\s]/u.test(word);
      return ownPunctuation ? word : tokens[i]!;
    }
    return word;
  });
}

/**
 * verbose_json → words in the piece's time. Word timings from `words` (OpenAI, faster-whisper
 * servers) or `segments[].words` (whisper.cpp); a service that gives only segments has each segment's
 * time shared out among its words by length. Words past the piece's end are the model's inventions.
 */
export function wordsFromVerboseJson(body: VerboseJson, pieceSeconds: number): SpokenWord[] {
  const segments = body.segments ?? [];
  const segmentConfidence = (t: number) => {
    const segment = segments.find((s) => t >= s.start && t < s.end);
    return segment?.avg_logprob !== undefined ? Math.exp(segment.avg_logprob) : 1;
  };
  let words: SpokenWord[];
  if (body.words && body.words.length > 0) {
    const texts = punctuated(body.words.map((w) => w.word), segments.length > 0 ? segments.map((s) => s.text).join(" ") : (body.text ?? ""));
    words = body.words.map((w, i) => ({ start: w.start, end: w.end, text: texts[i]!, confidence: w.probability ?? segmentConfidence(w.start) }));
  } else if (segments.some((s) => s.words && s.words.length > 0)) {
    words = segments.flatMap((s) => (s.words ?? []).map((w) => ({ start: w.start, end: w.end, text: w.word, confidence: w.probability ?? segmentConfidence(w.start) })));
  } else {
    words = segments.flatMap((s) => {
      const texts = s.text.trim().split(/\s+/).filter(Boolean);
      const letters = texts.reduce((sum, t) => sum + [...t].length, 0);
      let at = s.start;
      return texts.map((text) => {
        const span = ((s.end - s.start) * [...text].length) / Math.max(1, letters);
        const word = { start: at, end: at + span, text, confidence: s.avg_logprob !== undefined ? Math.exp(s.avg_logprob) : 1 };
        at += span;
        return word;
      });
    });
  }
  return words
    .filter((w) => w.start < pieceSeconds)
    .map((w) => ({ ...w, start: round3(Math.max(0, w.start)), end: round3(Math.min(w.end, pieceSeconds)) }));
}

const round3 = (t: number) => Math.round(t * 1000) / 1000;

class PieceTooLarge extends Error {}

export function whisperHttp(settings: WhisperHttpSettings): SpeechEngine {
  const endpoint = transcriptionsUrl(settings.url);
  const wanted = new Set(settings.languages.map((l) => l.toLowerCase()));
  const serves = (language: string) => wanted.has(language.toLowerCase()) || wanted.has(baseLanguage(language));
  const bytesPerSecond = ((settings.bitrateKbps * 1000) / 8) * CONTAINER_SLACK;
  const budgetBytes = settings.maxRequestBytes - MULTIPART_OVERHEAD_BYTES;

  async function availability(language: string): Promise<SpeechAvailability> {
    if (serves(language)) return { available: true, engine: "whisper-http", draft: false };
    return {
      available: false,
      reason: "no_engine_for_language",
      missing: `speech recognition for ${language}`,
      remedy: `Add ${language} to STT_LANGUAGES if the service at STT_URL knows it.`,
    };
  }

  /** One request with retries; answers the piece's words, or throws PieceTooLarge on 413. */
  async function send(audio: Buffer, pieceSeconds: number, language: string, signal: AbortSignal | undefined): Promise<SpokenWord[]> {
    let last: SpeechError | undefined;
    const file = new Blob([new Uint8Array(audio)], { type: "audio/ogg" });
    for (let attempt = 0; attempt <= settings.retries; attempt++) {
      let wait = settings.backoffMs * 2 ** attempt * (0.8 + Math.random() * 0.4);
      const form = new FormData();
      form.append("file", file, "audio.ogg");
      form.append("model", settings.model);
      form.append("language", whisperLanguage(language));
      form.append("response_format", "verbose_json");
      form.append("timestamp_granularities[]", "word");
      form.append("timestamp_granularities[]", "segment");
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const requestSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        const response = await fetch(endpoint, {
          method: "POST",
          body: form,
          headers: { accept: "application/json", ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
          signal: requestSignal,
        });
        if (response.ok) {
          let body: unknown;
          try {
            body = await response.json();
          } catch (error) {
            if (requestSignal.aborted) throw error;
            throw new SpeechError("speech_bad_response", "The speech service answered with something that is not JSON", false, response.status);
          }
          const parsed = VerboseJsonSchema.safeParse(body);
          if (!parsed.success || (!parsed.data.words && !parsed.data.segments)) {
            throw new SpeechError("speech_bad_response", "The speech service answered without word or segment timings (is response_format=verbose_json supported?)", false, response.status);
          }
          return wordsFromVerboseJson(parsed.data, pieceSeconds);
        }
        const message = await serviceMessage(response);
        const said = message ? `: ${message}` : "";
        if (response.status === 413) throw new PieceTooLarge();
        if (response.status === 401 || response.status === 403) {
          throw new SpeechError("speech_unauthorized", `The speech service refused the key (${response.status})${said}`, false, response.status);
        }
        if (response.status === 429 || response.status >= 500) {
          last =
            response.status === 429
              ? new SpeechError("speech_rate_limited", `The speech service is busy (429)${said}`, true, 429)
              : new SpeechError("speech_service_error", `The speech service failed (${response.status})${said}`, true, response.status);
          wait = Math.min(MAX_BACKOFF_MS, retryAfterMs(response.headers.get("retry-after")) ?? wait);
        } else {
          throw new SpeechError("speech_rejected", `The speech service refused the request (${response.status})${said}`, false, response.status);
        }
      } catch (error) {
        if (error instanceof SpeechError && !error.retryable) throw error;
        if (error instanceof PieceTooLarge) throw error;
        if (signal?.aborted) throw new MediaAbortedError();
        if (!(error instanceof SpeechError)) {
          last = timeout.aborted
            ? new SpeechError("speech_timeout", `The speech service did not answer within ${Math.round(settings.timeoutMs / 1000)} s`, true)
            : new SpeechError("speech_unreachable", `The speech service could not be reached (${networkCode(error)})`, true);
        }
      }
      if (attempt < settings.retries) await sleep(Math.min(MAX_BACKOFF_MS, wait), signal);
    }
    throw last ?? new SpeechError("speech_service_error", "The speech service failed", true);
  }

  async function transcribe(file: string, options: TranscribeOptions): Promise<Transcript> {
    const { signal, language } = options;
    if (!serves(language)) throw new SpeechError("speech_unavailable", `STT_LANGUAGES does not list ${language}`, false);
    if (signal?.aborted) throw new MediaAbortedError();
    const info = options.info ?? (await probe(file, { signal }));
    const transcript: Transcript = { words: [], engine: "whisper-http", draft: false, language };
    if (!info.hasAudio || !(info.durationSeconds > 0)) return transcript;

    let silences: TimeRange[] | undefined;
    const silencesOf = async () => (silences ??= (await analyzeFile(file, { info, signal })).silences);
    const maxSeconds = Math.max(MIN_PIECE_SECONDS, Math.min(MAX_PIECE_SECONDS, budgetBytes / bytesPerSecond));
    const pending =
      info.durationSeconds > maxSeconds ? planPieces(info.durationSeconds, await silencesOf(), maxSeconds) : [{ start: 0, end: info.durationSeconds }];

    const work = await mkdtemp(path.join(os.tmpdir(), "cutroom-stt-"));
    let doneSeconds = 0;
    const report = () => options.onProgress?.(Math.min(0.99, doneSeconds / info.durationSeconds));
    const ticker = setInterval(report, PROGRESS_TICK_MS);
    const words: SpokenWord[] = [];
    try {
      let index = 0;
      while (pending.length > 0) {
        const piece = pending.shift()!;
        const audio = await encodePiece(file, info, piece, settings.bitrateKbps, path.join(work, `piece-${index++}.ogg`), signal);
        try {
          if (audio.length > budgetBytes) throw new PieceTooLarge();
          const heard = await send(audio, piece.end - piece.start, language, signal);
          words.push(...normaliseWords(heard, language, piece.start));
          doneSeconds += piece.end - piece.start;
          report();
        } catch (error) {
          if (!(error instanceof PieceTooLarge)) throw error;
          const length = piece.end - piece.start;
          if (length / 2 < MIN_PIECE_SECONDS) {
            throw new SpeechError("speech_too_large", `The speech service refused even ${length.toFixed(1)} s of audio as too large (413)`, false, 413);
          }
          const inside = (await silencesOf()).filter((s) => s.start > piece.start && s.end < piece.end).map((s) => ({ start: s.start - piece.start, end: s.end - piece.start }));
          const halves = planPieces(length, inside, Math.ceil((length / 2) * 1000) / 1000 + 1e-6).map((h) => ({ start: piece.start + h.start, end: piece.start + h.end }));
          pending.unshift(...halves);
        }
      }
    } finally {
      clearInterval(ticker);
      await rm(work, { recursive: true, force: true });
    }
    transcript.words = words.sort((a, b) => a.start - b.start);
    options.onProgress?.(1);
    return transcript;
  }

  return { name: "whisper-http", serves, availability, transcribe };
}

/** One piece of the file's first audio track as Ogg Opus, mono, at the service's bitrate. */
async function encodePiece(file: string, info: MediaInfo, piece: TimeRange, bitrateKbps: number, output: string, signal: AbortSignal | undefined): Promise<Buffer> {
  await runFfmpeg(
    {
      inputs: [mediaInput(file, info, ["-ss", piece.start.toFixed(3), "-t", (piece.end - piece.start).toFixed(3)])],
      outputOptions: ["-map", "0:a:0", "-vn", "-sn", "-dn", "-ac", "1", "-ar", "16000", "-c:a", "libopus", "-b:a", `${bitrateKbps}k`, "-application", "voip", "-f", "ogg"],
      output,
    },
    { signal, threads: 1 },
  );
  if ((await stat(output)).size === 0) throw new SpeechError("speech_engine_failed", "The audio could not be encoded for the speech service", false);
  return readFile(output);
}
