import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for a LibreTranslate server, speaking its protocol for tests: `GET /languages`
 * ([{code, name, targets}]), `POST /translate` with JSON (or form) `q` as a string or an array,
 * `source`, `target`, `format`, `api_key`, answering `{translatedText}` in the same shape, and
 * LibreTranslate's refusals as `{error: "…"}`: 400 (missing field, unknown language, over the
 * character or batch limit), 403 (wrong key), 429 and 500 on demand, or no answer at all (a hang).
 *
 * It does not understand language: each word found in a tiny dictionary of the target language is
 * replaced ("house" → "casa"), the others are kept, and the line is prefixed with the target code
 * ("es: la casa"), so a test sees which line came back where and in which language.
 */

export interface TranslateRequestLog {
  method: string;
  path: string;
  q?: string | string[];
  source?: string;
  target?: string;
  format?: string;
  apiKey?: string;
  status: number;
}

export interface FakeTranslateOptions {
  /** When set, /translate requires this api_key (403 otherwise). */
  apiKey?: string;
  /** Most characters of q per request (LibreTranslate's --char-limit; 400 beyond). */
  charLimit?: number;
  /** Most lines per request (--batch-limit; 400 beyond). */
  batchLimit?: number;
  /** The codes listed by /languages (default: LibreTranslate's for the 13 subtitle languages, pt-BR as "pb", Filipino as "tl"). */
  codes?: string[];
}

const DEFAULT_CODES = ["ar", "de", "en", "es", "fa", "tl", "fr", "hi", "it", "ja", "ko", "nl", "pb", "pt"];

const DICTIONARY: Record<string, Record<string, string>> = {
  es: { house: "casa", the: "la", cat: "gato", hello: "hola" },
  pb: { house: "casa", the: "a", cat: "gato", hello: "olá" },
  fr: { house: "maison", the: "la", cat: "chat", hello: "bonjour" },
  ja: { house: "家", cat: "猫", hello: "こんにちは" },
  tl: { house: "bahay", cat: "pusa" },
};

export function fakeTranslation(text: string, target: string): string {
  const words = text.split(" ").map((word) => {
    const match = /^(\W*)(.*?)(\W*)$/u.exec(word)!;
    const replaced = DICTIONARY[target]?.[match[2]!.toLowerCase()];
    return replaced ? `${match[1]}${replaced}${match[3]}` : word;
  });
  return `${target}: ${words.join(" ")}`;
}

export async function startFakeTranslate(options: FakeTranslateOptions = {}) {
  const codes = options.codes ?? DEFAULT_CODES;
  const requests: TranslateRequestLog[] = [];
  /** Statuses answered to the next /translate (or /languages) requests, in order. */
  let failures: { status: number; retryAfter?: string; path?: string }[] = [];
  let hang = false;
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const log: TranslateRequestLog = { method: req.method ?? "", path: url.pathname, status: 0 };
      requests.push(log);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        log.status = status;
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(body));
      };
      if (hang) {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      const failure = failures.find((f) => !f.path || f.path === url.pathname);
      if (failure) {
        failures = failures.filter((f) => f !== failure);
        return send(failure.status, { error: failure.status === 429 ? "Slowdown: 1 per 1 minute" : "Internal error" }, failure.retryAfter ? { "retry-after": failure.retryAfter } : {});
      }
      if (req.method === "GET" && url.pathname === "/languages") {
        return send(
          200,
          codes.map((code) => ({ code, name: code, targets: codes.filter((c) => c !== code) })),
        );
      }
      if (req.method === "POST" && url.pathname === "/translate") {
        let body: Record<string, unknown>;
        const raw = Buffer.concat(chunks).toString("utf8");
        try {
          body = (req.headers["content-type"] ?? "").includes("application/json") ? (JSON.parse(raw) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(raw));
        } catch {
          return send(400, { error: "Invalid request: malformed JSON" });
        }
        const q = body.q as string | string[] | undefined;
        Object.assign(log, { q, source: body.source, target: body.target, format: body.format, apiKey: body.api_key });
        if (options.apiKey && body.api_key !== options.apiKey) return send(403, { error: "Invalid API key" });
        if (q === undefined || (typeof q !== "string" && !(Array.isArray(q) && q.every((l) => typeof l === "string")))) return send(400, { error: "Invalid request: missing q parameter" });
        for (const field of ["source", "target"] as const) {
          if (typeof body[field] !== "string") return send(400, { error: `Invalid request: missing ${field} parameter` });
          if (!codes.includes(body[field] as string) && !(field === "source" && body[field] === "auto")) return send(400, { error: `${body[field] as string} is not supported` });
        }
        const lines = typeof q === "string" ? [q] : q;
        if (options.batchLimit !== undefined && lines.length > options.batchLimit) {
          return send(400, { error: `Invalid request: request (${lines.length}) exceeds text limit (${options.batchLimit})` });
        }
        const chars = lines.reduce((sum, l) => sum + l.length, 0);
        if (options.charLimit !== undefined && chars > options.charLimit) {
          return send(400, { error: `Invalid request: request (${chars}) exceeds text limit (${options.charLimit})` });
        }
        const translated = lines.map((l) => fakeTranslation(l, body.target as string));
        return send(200, { translatedText: typeof q === "string" ? translated[0] : translated });
      }
      return send(404, { error: "Not Found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    /** The next requests (to `path`, or any) answer these statuses, in order. */
    fail(status: number, times = 1, extra: { retryAfter?: string; path?: string } = {}) {
      for (let i = 0; i < times; i++) failures.push({ status, ...extra });
    },
    /** Requests get no answer until `hang(false)`. */
    hang(on = true) {
      hang = on;
      if (!on) for (const res of hanging) res.destroy();
    },
    reset() {
      requests.length = 0;
      failures = [];
      hang = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
