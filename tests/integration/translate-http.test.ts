import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MediaAbortedError } from "../../server/media/ffmpeg";
import { createTranslator, DEFAULT_APERTIUM, DEFAULT_LIBRETRANSLATE, TranslateError, type LibreTranslateSettings } from "../../server/translate";
import { libreTranslate } from "../../server/translate/libretranslate";
import { startFakeTranslate } from "./translate-server";

/** Issue 14: the LibreTranslate-compatible adapter against a local server speaking the same protocol. */

const KEY = "lt-key-0123456789";
let lt: Awaited<ReturnType<typeof startFakeTranslate>>;

const settings = (over: Partial<LibreTranslateSettings> = {}): LibreTranslateSettings => ({
  ...DEFAULT_LIBRETRANSLATE,
  url: lt.url,
  apiKey: KEY,
  backoffMs: 10,
  ...over,
});
const translateCalls = () => lt.requests.filter((r) => r.path === "/translate");

beforeAll(async () => {
  lt = await startFakeTranslate({ apiKey: KEY, charLimit: 200, batchLimit: 10 });
});
beforeEach(() => lt.reset());
afterAll(() => lt.close());

describe("LibreTranslate adapter", () => {
  it("sends the lines as an array with the service's codes, format text and the key, and maps them back in order", async () => {
    const engine = libreTranslate(settings());
    const out = await engine.translateLines(["The house.", "", "Hello, cat!", "two\nlines"], { from: "en-US", to: "pt-BR" });
    expect(out).toEqual(["pb: a casa.", "", "pb: olá, gato!", "pb: two\npb: lines"]);
    const [call] = translateCalls();
    expect(call).toMatchObject({ q: ["The house.", "Hello, cat!", "two", "lines"], source: "en", target: "pb", format: "text", apiKey: KEY, status: 200 });
    expect(await engine.translateLines(["house"], { from: "en-US", to: "fil-PH" })).toEqual(["tl: bahay"]);
    expect(await engine.translateLines(["house"], { from: "en-US", to: "fa-IR" })).toEqual(["fa: house"]);
    // the language list is read once
    expect(lt.requests.filter((r) => r.path === "/languages")).toHaveLength(1);
  });

  it("answers availability from GET /languages: every listed pair, not a draft; the rest unavailable with the reason", async () => {
    const t = createTranslator({ http: settings(), apertium: DEFAULT_APERTIUM });
    for (const to of ["ar-SA", "de-DE", "es-ES", "fa-IR", "fil-PH", "fr-FR", "hi-IN", "it-IT", "ja-JP", "ko-KR", "nl-NL", "pt-BR"]) {
      expect(await t.availability("en-US", to), to).toEqual({ available: true, engine: "libretranslate", draft: false });
    }
    const narrow = await startFakeTranslate({ codes: ["en", "es"] });
    try {
      const t2 = createTranslator({ http: settings({ url: narrow.url, apiKey: null }), apertium: DEFAULT_APERTIUM });
      expect(await t2.availability("en-US", "es-ES")).toMatchObject({ engine: "libretranslate" });
      // not listed by the service: Apertium has it
      expect(await t2.availability("en-US", "fr-FR")).toEqual({ available: true, engine: "apertium", draft: true });
      expect(await t2.translateLines(["The house is big."], { from: "en-US", to: "fr-FR" })).toEqual(["La maison est grande."]);
      expect(await t2.availability("en-US", "ja-JP")).toMatchObject({ available: false, reason: "no_engine_for_pair" });
    } finally {
      await narrow.close();
    }
  });

  it("splits a long set into requests under the character and line limits", async () => {
    const lines = Array.from({ length: 95 }, (_, i) => `line ${i} about the house`);
    const out = await libreTranslate(settings({ maxRequestChars: 200, maxRequestLines: 10 })).translateLines(lines, { from: "en-US", to: "es-ES" });
    expect(out).toEqual(lines.map((l) => `es: ${l.replace("the house", "la casa")}`));
    const calls = translateCalls();
    expect(calls.length).toBeGreaterThanOrEqual(10);
    expect(calls.every((c) => c.status === 200 && Array.isArray(c.q) && c.q.length <= 10 && (c.q as string[]).join("").length <= 200)).toBe(true);
    expect(calls.flatMap((c) => c.q as string[])).toEqual(lines);
  });

  it("cuts a batch the service refuses as over its own limit in halves, and fails with translate_rejected on a single line over it", async () => {
    const lines = Array.from({ length: 8 }, (_, i) => `${i} ${"x".repeat(40)}`);
    const out = await libreTranslate(settings({ maxRequestChars: 10_000 })).translateLines(lines, { from: "en-US", to: "es-ES" });
    expect(out).toEqual(lines.map((l) => `es: ${l}`));
    const calls = translateCalls();
    expect(calls.map((c) => c.status)).toEqual([400, 200, 200]); // 8 × 42 characters over the 200 limit; 4 × 42 under it
    expect(calls.filter((c) => c.status === 200).flatMap((c) => c.q as string[])).toEqual(lines);

    lt.reset();
    const error = await libreTranslate(settings())
      .translateLines(["y".repeat(300)], { from: "en-US", to: "es-ES" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TranslateError);
    expect(error).toMatchObject({ code: "translate_rejected", status: 400, retryable: false });
    expect((error as Error).message).toContain("exceeds text limit");
    expect(translateCalls()).toHaveLength(1);
  });

  it("fails with translate_unauthorized on a wrong key, at once, without the key in the message", async () => {
    const error = await libreTranslate(settings({ apiKey: "wrong-key-zzz" }))
      .translateLines(["house"], { from: "en-US", to: "es-ES" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "translate_unauthorized", status: 403 });
    expect((error as Error).message).not.toContain("wrong-key-zzz");
    expect((error as Error).message).not.toContain(lt.url);
    expect(translateCalls()).toHaveLength(1);
  });

  it("retries 429 and 500 with back-off and succeeds", async () => {
    lt.fail(429, 1, { path: "/translate", retryAfter: "0" });
    lt.fail(500, 2, { path: "/translate" });
    const out = await libreTranslate(settings()).translateLines(["house"], { from: "en-US", to: "es-ES" });
    expect(out).toEqual(["es: casa"]);
    expect(translateCalls().map((c) => c.status)).toEqual([429, 500, 500, 200]);
  });

  it("gives up after the retries with a clear code", async () => {
    lt.fail(500, 10, { path: "/translate" });
    await expect(libreTranslate(settings({ retries: 2 })).translateLines(["house"], { from: "en-US", to: "es-ES" })).rejects.toMatchObject({
      code: "translate_service_error",
      retryable: true,
      status: 500,
    });
    lt.reset();
    lt.fail(429, 10, { path: "/translate" });
    await expect(libreTranslate(settings({ retries: 1 })).translateLines(["house"], { from: "en-US", to: "es-ES" })).rejects.toMatchObject({ code: "translate_rate_limited" });
  });

  it("times out a service that does not answer", async () => {
    const engine = libreTranslate(settings({ timeoutMs: 300, retries: 1 }));
    await engine.availability("en-US", "es-ES"); // the list is read before the service hangs
    lt.hang();
    const started = Date.now();
    await expect(engine.translateLines(["house"], { from: "en-US", to: "es-ES" })).rejects.toMatchObject({ code: "translate_timeout", retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
    lt.hang(false);
  });

  it("stops at once when aborted", async () => {
    const engine = libreTranslate(settings());
    await engine.availability("en-US", "es-ES");
    lt.hang();
    const controller = new AbortController();
    const pending = engine.translateLines(["house"], { from: "en-US", to: "es-ES", signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toBeInstanceOf(MediaAbortedError);
    lt.hang(false);
  });

  it("reports an unreachable service: Apertium keeps its pairs, the others say service_unreachable", async () => {
    const down = await startFakeTranslate();
    const url = down.url;
    await down.close();
    const t = createTranslator({ http: settings({ url, retries: 0 }), apertium: DEFAULT_APERTIUM });
    expect(await t.availability("en-US", "es-ES")).toMatchObject({ available: true, engine: "apertium" });
    const answer = await t.availability("en-US", "ja-JP");
    expect(answer).toMatchObject({ available: false, reason: "service_unreachable" });
    expect(answer.available || answer.missing).toContain("ECONNREFUSED");
    await expect(t.translateLines(["house"], { from: "en-US", to: "ja-JP" })).rejects.toMatchObject({ code: "translate_unreachable" });
  });

  it("refuses an answer that does not hold one translation per line", async () => {
    const broken = await startFakeTranslate({ codes: ["en", "es"] });
    try {
      // a server that answers a string for an array (an old LibreTranslate) is caught
      const engine = libreTranslate(settings({ url: broken.url, apiKey: null }));
      const original = globalThis.fetch;
      globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await original(input, init);
        if (String(input).endsWith("/translate")) return new Response(JSON.stringify({ translatedText: "one" }), { status: 200, headers: { "content-type": "application/json" } });
        return response;
      }) as typeof fetch;
      try {
        await expect(engine.translateLines(["a", "b"], { from: "en-US", to: "es-ES" })).rejects.toMatchObject({ code: "translate_bad_response" });
      } finally {
        globalThis.fetch = original;
      }
    } finally {
      await broken.close();
    }
  });
});
