/**
 * A LibreTranslate-compatible service an operator hosts (TRANSLATE_URL): `GET /languages` (each
 * language's code and the codes it translates into) and `POST /translate` with JSON
 * `{q: [lines], source, target, format: "text", api_key}` answering `{translatedText: [lines]}`.
 *
 * The language list is read once and kept (a failed read is tried again on the next call). Our
 * codes are mapped to the service's: its own spelling of the full code when it lists it, else
 * Brazilian Portuguese as "pb" (LibreTranslate's code since 2025) or "pt", Filipino as "tl"
 * (Argos/LibreTranslate name it Tagalog), else the base code (fa, ja, …).
 *
 * Lines go in batches under a size limit (characters and lines per request: LibreTranslate's
 * --char-limit and --batch-limit refuse larger ones); a batch the service still refuses as over its
 * limit is cut in halves and sent again. 429, 5xx, timeouts and lost connections are
 * retried with exponential back-off (Retry-After honoured); other refusals fail at once with a clear
 * code. The key goes in the request body only, and no message carries the key or the address.
 */
import { z } from "zod";
import { MediaAbortedError } from "../media/ffmpeg";
import { networkCode, retryAfterMs, serviceMessage, sleep } from "../net/service-calls";
import { baseLanguage, splitForTranslation, TranslateError, type TranslateAvailability, type TranslateOptions, type TranslationEngine } from "./port";

export interface LibreTranslateSettings {
  /** The service's base address (http://host:5000); /languages and /translate are under it. */
  url: string;
  /** Sent as `api_key` in the body when set. */
  apiKey: string | null;
  /** Longest wait for one request's answer. */
  timeoutMs: number;
  /** Most characters of text in one request. */
  maxRequestChars: number;
  /** Most lines in one request. */
  maxRequestLines: number;
  /** Further attempts after a failed one (429, 5xx, timeout, lost connection). */
  retries: number;
  /** First back-off; doubles with each retry. */
  backoffMs: number;
}

export const DEFAULT_LIBRETRANSLATE = Object.freeze({
  timeoutMs: 60_000,
  maxRequestChars: 2_000,
  maxRequestLines: 100,
  retries: 4,
  backoffMs: 1_000,
});

/** Back-off never waits longer than this, Retry-After included. */
const MAX_BACKOFF_MS = 60_000;
/** LibreTranslate's refusal of a request over its --char-limit or --batch-limit. */
const OVER_LIMIT = /exceeds (text|batch|character)? ?limit/i;
/** How much of the service's own error message an error keeps. */

const LanguagesSchema = z.array(
  z.object({
    code: z.string().min(1),
    name: z.string().optional(),
    /** Codes this language translates into; older servers leave it out (any listed language). */
    targets: z.array(z.string()).optional(),
  }),
);
export type ServiceLanguages = z.infer<typeof LanguagesSchema>;

const TranslatedSchema = z.object({ translatedText: z.array(z.string()) });

/** The codes a service may use for one of ours, most specific first. */
export function candidateCodes(language: string): string[] {
  const base = baseLanguage(language);
  const full = language.toLowerCase();
  if (full === "pt-br") return ["pt-br", "pb", "pt"];
  if (base === "fil") return [full, "fil", "tl"];
  if (base === "zh") return [full, "zh-hans", "zh"];
  return [full, base];
}

/** Our code → the code the service lists for it (in its own spelling), or undefined. */
export function serviceCode(language: string, listed: readonly string[]): string | undefined {
  const byLower = new Map(listed.map((code) => [code.toLowerCase(), code]));
  for (const candidate of candidateCodes(language)) {
    const code = byLower.get(candidate);
    if (code) return code;
  }
  return undefined;
}

/** The service's codes for a pair, or undefined when its list lacks one side or the direction. */
export function servicePair(from: string, to: string, languages: ServiceLanguages): { source: string; target: string } | undefined {
  const codes = languages.map((l) => l.code);
  const source = serviceCode(from, codes);
  const target = serviceCode(to, codes);
  if (!source || !target || source === target) return undefined;
  const entry = languages.find((l) => l.code === source)!;
  if (entry.targets && !entry.targets.includes(target)) return undefined;
  return { source, target };
}

/** Lines → batches of at most `maxChars` characters and `maxLines` lines, in order; a longer line goes alone. */
export function batches(lines: readonly string[], maxChars: number, maxLines: number): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (current.length > 0 && (chars + line.length > maxChars || current.length >= maxLines)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(line);
    chars += line.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export function libreTranslate(settings: LibreTranslateSettings): TranslationEngine {
  const base = settings.url.replace(/\/+$/, "");
  let languages: Promise<ServiceLanguages> | undefined;

  /**
   * One request with retries: the parsed JSON of a 2xx answer. 401/403 and other 4xx fail at once;
   * 429, 5xx, timeouts and lost connections are tried again after a growing pause.
   */
  async function request(path: string, init: { method: "GET" | "POST"; body?: unknown }, signal: AbortSignal | undefined): Promise<unknown> {
    let last: TranslateError | undefined;
    for (let attempt = 0; attempt <= settings.retries; attempt++) {
      let wait = settings.backoffMs * 2 ** attempt * (0.8 + Math.random() * 0.4);
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const requestSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        const response = await fetch(`${base}${path}`, {
          method: init.method,
          headers: { accept: "application/json", ...(init.body !== undefined ? { "content-type": "application/json" } : {}) },
          body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
          signal: requestSignal,
        });
        if (response.ok) {
          try {
            return await response.json();
          } catch (error) {
            if (requestSignal.aborted) throw error;
            throw new TranslateError("translate_bad_response", "The translation service answered with something that is not JSON", false, response.status);
          }
        }
        const message = await serviceMessage(response);
        const said = message ? `: ${message}` : "";
        if (response.status === 401 || response.status === 403) {
          throw new TranslateError("translate_unauthorized", `The translation service refused the key (${response.status})${said}`, false, response.status);
        }
        if (response.status === 429 || response.status >= 500) {
          last =
            response.status === 429
              ? new TranslateError("translate_rate_limited", `The translation service is busy (429)${said}`, true, 429)
              : new TranslateError("translate_service_error", `The translation service failed (${response.status})${said}`, true, response.status);
          wait = Math.min(MAX_BACKOFF_MS, retryAfterMs(response.headers.get("retry-after")) ?? wait);
        } else {
          throw new TranslateError("translate_rejected", `The translation service refused the request (${response.status})${said}`, false, response.status);
        }
      } catch (error) {
        if (error instanceof TranslateError && !error.retryable) throw error;
        if (signal?.aborted) throw new MediaAbortedError();
        if (!(error instanceof TranslateError)) {
          last = timeout.aborted
            ? new TranslateError("translate_timeout", `The translation service did not answer within ${Math.round(settings.timeoutMs / 1000)} s`, true)
            : new TranslateError("translate_unreachable", `The translation service could not be reached (${networkCode(error)})`, true);
        }
      }
      if (attempt < settings.retries) await sleep(Math.min(MAX_BACKOFF_MS, wait), signal);
    }
    throw last ?? new TranslateError("translate_service_error", "The translation service failed", true);
  }

  /** The service's languages, read once; a failed read is not kept. */
  function listLanguages(signal?: AbortSignal): Promise<ServiceLanguages> {
    languages ??= request("/languages", { method: "GET" }, signal).then((body) => {
      const parsed = LanguagesSchema.safeParse(body);
      if (!parsed.success) throw new TranslateError("translate_bad_response", "The translation service's /languages is not a list of languages", false);
      return parsed.data;
    });
    const pending = languages;
    pending.catch(() => {
      if (languages === pending) languages = undefined;
    });
    return pending;
  }

  async function serves(from: string, to: string): Promise<boolean> {
    return servicePair(from, to, await listLanguages()) !== undefined;
  }

  async function availability(from: string, to: string): Promise<TranslateAvailability> {
    if (servicePair(from, to, await listLanguages())) return { available: true, engine: "libretranslate", draft: false };
    return {
      available: false,
      reason: "no_engine_for_pair",
      missing: `translation from ${from} to ${to}`,
      remedy: "The service at TRANSLATE_URL does not list this pair in GET /languages: install its language model there (LibreTranslate: --load-only or argospm).",
    };
  }

  async function translateLines(lines: readonly string[], options: TranslateOptions): Promise<string[]> {
    const { signal } = options;
    if (signal?.aborted) throw new MediaAbortedError();
    const pair = servicePair(options.from, options.to, await listLanguages(signal));
    if (!pair) throw new TranslateError("translate_unavailable", `The translation service does not list ${options.from} → ${options.to}`, false);
    const { pieces, rebuild } = splitForTranslation(lines);
    const translated: string[] = [];
    const pending = batches(pieces, settings.maxRequestChars, settings.maxRequestLines);
    while (pending.length > 0) {
      const batch = pending.shift()!;
      let body: unknown;
      try {
        body = await request(
          "/translate",
          { method: "POST", body: { q: batch, source: pair.source, target: pair.target, format: "text", ...(settings.apiKey ? { api_key: settings.apiKey } : {}) } },
          signal,
        );
      } catch (error) {
        // over the service's own limit (LibreTranslate: "request (N) exceeds text limit (M)"): halves, sent again
        if (error instanceof TranslateError && error.status === 400 && OVER_LIMIT.test(error.message) && batch.length > 1) {
          const middle = Math.ceil(batch.length / 2);
          pending.unshift(batch.slice(0, middle), batch.slice(middle));
          continue;
        }
        throw error;
      }
      const parsed = TranslatedSchema.safeParse(body);
      if (!parsed.success || parsed.data.translatedText.length !== batch.length) {
        throw new TranslateError("translate_bad_response", `The translation service did not answer one translation per line (${batch.length} sent)`, false);
      }
      translated.push(...parsed.data.translatedText.map((t) => t.replace(/\s+/g, " ").trim()));
    }
    return rebuild(translated);
  }

  return { name: "libretranslate", serves, availability, translateLines };
}
