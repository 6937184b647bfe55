/**
 * Translation of subtitle lines: one port, two engines chosen by configuration (issue 14).
 *
 * - `libretranslate`: a LibreTranslate-compatible service an operator hosts (TRANSLATE_URL), for
 *   every pair its GET /languages lists.
 * - `apertium`: Debian's Apertium with its language-pair data, run here as a child process: English,
 *   Spanish, Brazilian Portuguese, French and Italian, through Spanish where there is no direct pair.
 *   Rule-based, so its lines are drafts.
 *
 * `createTranslator` (index.ts) answers, before any work, which engine would translate a pair and
 * whether its lines are a draft, or why none can and what an operator installs or sets to fix that.
 * Nothing here knows about HTTP routes, users or the database.
 */

export { SUBTITLE_LANGUAGES, type SubtitleLanguage } from "../../api/locales";

export type TranslationEngineName = "apertium" | "libretranslate";

/** Why a pair cannot be translated; the UI words each in the user's language. */
export type TranslateMissingReason =
  /** No configured engine knows the pair (Apertium has five languages; TRANSLATE_URL is not set or does not list it). */
  | "no_engine_for_pair"
  /** The engine for the pair is known but not installed (the apertium binary, a language pair's data, a tool its mode needs). */
  | "engine_not_installed"
  /** TRANSLATE_URL is set but its language list cannot be read, and no local engine has the pair. */
  | "service_unreachable";

export type TranslateAvailability =
  | { available: true; engine: TranslationEngineName; draft: boolean }
  | {
      available: false;
      reason: TranslateMissingReason;
      /** What is missing, for the operator (English; logs and the README). */
      missing: string;
      /** How an operator adds it. */
      remedy: string;
    };

export interface TranslateOptions {
  /** The lines' language (en-US, pt-BR, …). */
  from: string;
  /** The language wanted (one of SUBTITLE_LANGUAGES). */
  to: string;
  signal?: AbortSignal;
}

export interface Translator {
  availability(from: string, to: string): Promise<TranslateAvailability>;
  /** The lines translated: as many as given, in the same order; an empty line stays empty. */
  translateLines(lines: readonly string[], options: TranslateOptions): Promise<string[]>;
}

/** One engine; `createTranslator` picks among them. */
export interface TranslationEngine extends Translator {
  readonly name: TranslationEngineName;
  /**
   * Whether this engine is meant for the pair at all (installed or not). May ask a service for its
   * languages, and throws a TranslateError when it cannot.
   */
  serves(from: string, to: string): Promise<boolean>;
}

export type TranslateErrorCode =
  /** No engine for the pair, or the engine is not installed: nothing to retry. */
  | "translate_unavailable"
  /** The service refused our key (401/403). */
  | "translate_unauthorized"
  /** The service refused the request itself (400: a language it lacks, text over its limit…). */
  | "translate_rejected"
  /** Still 429 after the retries. */
  | "translate_rate_limited"
  /** Still 5xx after the retries. */
  | "translate_service_error"
  /** No answer within TRANSLATE_TIMEOUT_SECONDS, after the retries. */
  | "translate_timeout"
  /** The service could not be reached (refused, DNS, reset), after the retries. */
  | "translate_unreachable"
  /** The service answered 200 with something that is not the translations asked for. */
  | "translate_bad_response"
  /** The local engine failed (crashed, killed, exited non-zero, timed out). */
  | "translate_engine_failed";

/** A failed translation. `retryable`: a later attempt of the job may succeed (a service down, busy or slow). */
export class TranslateError extends Error {
  override name = "TranslateError";
  constructor(
    readonly code: TranslateErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** "pt-BR" → "pt", "fil-PH" → "fil". */
export const baseLanguage = (language: string) => language.toLowerCase().split(/[-_]/)[0] ?? "";

/**
 * Lines → the pieces an engine translates: each line's own lines (a cue may hold two), trimmed,
 * with runs of spaces and tabs made one space; empty pieces are not sent. `rebuild` puts the
 * translations back in place, one line per line given.
 */
export function splitForTranslation(lines: readonly string[]): { pieces: string[]; rebuild(translated: readonly string[]): string[] } {
  const pieces: string[] = [];
  const layout = lines.map((line) =>
    line.split(/\r\n|\r|\n/).map((part) => {
      const clean = part.replace(/[\s\u00a0]+/g, " ").trim();
      if (!clean) return -1;
      pieces.push(clean);
      return pieces.length - 1;
    }),
  );
  return {
    pieces,
    rebuild(translated) {
      if (translated.length !== pieces.length) throw new Error(`expected ${pieces.length} translations, got ${translated.length}`);
      return layout.map((parts) => parts.map((index) => (index < 0 ? "" : translated[index]!)).join("\n"));
    },
  };
}
