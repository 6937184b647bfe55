/**
 * Speech to text: one port, two engines chosen by configuration (issue 14).
 *
 * - `pocketsphinx`: Debian's pocketsphinx + pocketsphinx-en-us, run here as a child process. US
 *   English only; its words are a draft (good timings, many wrong words).
 * - `whisper-http`: a Whisper-compatible service an operator hosts (STT_URL; OpenAI-style
 *   POST /v1/audio/transcriptions with word timestamps), for quality and every other language.
 *
 * `createSpeechToText` (index.ts) routes each language to the service when STT_URL serves it, else to the local
 * engine when it knows the language. `availability(language)` says, before any work, whether a
 * language can be transcribed, and if not what is missing and how an operator adds it.
 */
import type { MediaInfo } from "../media/probe";
import type { SpokenWord } from "./words";

export type SpeechEngineName = "pocketsphinx" | "whisper-http";

export interface Transcript {
  words: SpokenWord[];
  engine: SpeechEngineName;
  /** Draft captions: the engine gets many words wrong; the UI says so. */
  draft: boolean;
  language: string;
}

export interface TranscribeOptions {
  /** The spoken language, as uploads tag it (en-US, pt-BR, …). */
  language: string;
  signal?: AbortSignal;
  /** The file's probe when the caller has it (saves one ffprobe run). */
  info?: MediaInfo;
  /** 0..1 as the work goes, and at least every few seconds while a long step runs (a job's heartbeat). */
  onProgress?: (fraction: number) => void;
}

/** Why a language cannot be transcribed; the UI words each in the user's language. */
export type SpeechMissingReason =
  /** No configured engine knows the language: the local one is English only and STT_URL is not set. */
  | "no_engine_for_language"
  /** The engine for the language is configured but not installed (pocketsphinx or its model). */
  | "engine_not_installed";

export type SpeechAvailability =
  | { available: true; engine: SpeechEngineName; draft: boolean }
  | {
      available: false;
      reason: SpeechMissingReason;
      /** What is missing, for the operator (English; logs and the admin's README). */
      missing: string;
      /** How an operator adds it. */
      remedy: string;
    };

export interface SpeechToText {
  availability(language: string): Promise<SpeechAvailability>;
  /** The words spoken in a media file's first audio track (none for a file without audio). */
  transcribe(file: string, options: TranscribeOptions): Promise<Transcript>;
}

/** One engine; `createSpeechToText` picks among them. */
export interface SpeechEngine extends SpeechToText {
  readonly name: SpeechEngineName;
  /** Whether this engine is meant for a language at all (installed or not). */
  serves(language: string): boolean;
}

export type SpeechErrorCode =
  /** No engine for the language, or the engine is not installed: nothing to retry. */
  | "speech_unavailable"
  /** The service refused our key (401/403). */
  | "speech_unauthorized"
  /** The service refused the request itself (400, 404 wrong URL or model, 415, 422). */
  | "speech_rejected"
  /** Even a short piece of audio was over the service's size limit (413). */
  | "speech_too_large"
  /** Still 429 after the retries. */
  | "speech_rate_limited"
  /** Still 5xx after the retries. */
  | "speech_service_error"
  /** No answer within STT_TIMEOUT_SECONDS, after the retries. */
  | "speech_timeout"
  /** The service could not be reached (refused, DNS, reset), after the retries. */
  | "speech_unreachable"
  /** The service answered 200 with something that is not a transcription with timings. */
  | "speech_bad_response"
  /** The local engine failed (crashed, killed, exited non-zero). */
  | "speech_engine_failed";

/** A failed transcription. `retryable`: a later attempt of the job may succeed (a service down, busy or slow). */
export class SpeechError extends Error {
  override name = "SpeechError";
  constructor(
    readonly code: SpeechErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Each language to the first engine that serves it: the service (when configured), then the local engine. */
export function speechToText(engines: readonly SpeechEngine[]): SpeechToText {
  const engineFor = (language: string) => engines.find((engine) => engine.serves(language));
  return {
    async availability(language) {
      const engine = engineFor(language);
      if (engine) return engine.availability(language);
      return {
        available: false,
        reason: "no_engine_for_language",
        missing: `speech recognition for ${language}`,
        remedy:
          "The local engine (pocketsphinx) knows US English only. Set STT_URL to a Whisper-compatible service " +
          "(POST /v1/audio/transcriptions, e.g. a self-hosted faster-whisper or whisper.cpp server) and, if it needs one, STT_API_KEY.",
      };
    },
    async transcribe(file, options) {
      const engine = engineFor(options.language);
      if (!engine) throw new SpeechError("speech_unavailable", `No speech engine for ${options.language}`, false);
      return engine.transcribe(file, options);
    },
  };
}
