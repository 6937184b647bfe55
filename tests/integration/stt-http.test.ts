import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSpeechToText, SpeechError } from "../../server/speech";
import { DEFAULT_POCKETSPHINX } from "../../server/speech/pocketsphinx";
import { DEFAULT_WHISPER_HTTP, planPieces, punctuated, transcriptionsUrl, whisperHttp, whisperLanguage, wordsFromVerboseJson, type WhisperHttpSettings } from "../../server/speech/whisper-http";
import { generateTalk, type Talk } from "./spoken-talk";
import { startFakeStt } from "./stt-server";

/** Issue 14: the Whisper-compatible HTTP engine against a local server speaking the same protocol. */

const SCRIPT = [
  "Welcome back to the channel.",
  "Today we are baking bread at home.",
  "You need flour, water, salt and yeast.",
  "Mix everything in a large bowl.",
  "Let the dough rest for one hour.",
  "Then shape it and put it in the oven.",
  "Bake it until the crust is golden.",
  "Let it cool before you cut it.",
  "That is all for today.",
  "See you next week.",
];
const KEY = "sk-test-0123456789abcdef";
/** The fake service reports each sentence as one burst of sound; its edges come through within this. */
const TOLERANCE = 0.15;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-stt-http-"));
let talk: Talk;
let stt: Awaited<ReturnType<typeof startFakeStt>>;

const settings = (over: Partial<WhisperHttpSettings> = {}): WhisperHttpSettings => ({
  ...DEFAULT_WHISPER_HTTP,
  url: stt.url,
  apiKey: KEY,
  languages: ["en-US", "pt-BR", "fil-PH"],
  backoffMs: 20,
  ...over,
});

/** Each spoken sentence is matched by exactly one word whose start and end are the sentence's. */
function expectSentences(words: { start: number; end: number }[]) {
  expect(words).toHaveLength(talk.sentences.length);
  talk.sentences.forEach((sentence, i) => {
    expect(Math.abs(words[i]!.start - sentence.start), `start of "${sentence.text}"`).toBeLessThanOrEqual(TOLERANCE);
    expect(Math.abs(words[i]!.end - sentence.end), `end of "${sentence.text}"`).toBeLessThanOrEqual(TOLERANCE);
  });
}

beforeAll(async () => {
  talk = generateTalk(dir, "bread", SCRIPT, { gaps: [0.9, 1.3, 0.8, 1.1], roomToneDb: -65 });
  stt = await startFakeStt({ apiKey: KEY, say: (i) => `burst${i}` });
});
beforeEach(() => stt.reset());
afterAll(async () => {
  await stt.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("Whisper-compatible service", () => {
  it("sends Opus with model, language and word timestamps, and brings the word timings back", async () => {
    const progress: number[] = [];
    const transcript = await whisperHttp(settings({ model: "Systran/faster-whisper-small" })).transcribe(talk.file, { language: "en-US", onProgress: (f) => progress.push(f) });
    expect(transcript).toMatchObject({ engine: "whisper-http", draft: false, language: "en-US" });
    expect(stt.requests).toHaveLength(1);
    expect(stt.requests[0]).toMatchObject({
      status: 200,
      model: "Systran/faster-whisper-small",
      language: "en",
      responseFormat: "verbose_json",
      fileType: "audio/ogg",
      oggOpus: true,
      authorization: `Bearer ${KEY}`,
    });
    expect(stt.requests[0]!.granularities).toContain("word");
    // mono Opus at 24 kbit/s: about 3 KB a second
    expect(stt.requests[0]!.bytes / talk.durationSeconds).toBeLessThan(4500);
    expect(stt.requests[0]!.audioSeconds).toBeCloseTo(talk.durationSeconds, 1);
    expect(transcript.words.map((w) => w.text)).toEqual(SCRIPT.map((_, i) => `burst${i}`));
    expectSentences(transcript.words);
    expect(progress.at(-1)).toBe(1);
  });

  it("splits a file over the request limit at silences and adds each piece's offset back", async () => {
    const limit = 60 * 1024;
    const transcript = await whisperHttp(settings({ maxRequestBytes: limit })).transcribe(talk.file, { language: "en-US" });
    const sent = stt.requests;
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const request of sent) {
      expect(request.status).toBe(200);
      expect(request.bytes).toBeLessThanOrEqual(limit);
    }
    // the pieces cover the talk once
    expect(sent.reduce((sum, r) => sum + r.audioSeconds!, 0)).toBeCloseTo(talk.durationSeconds, 0);
    // cut in silences: no sentence is broken in two, every one comes back at its place in the whole talk
    expectSentences(transcript.words);
  });

  it("cuts a piece the service refuses as too large (413) in two and sends the halves", async () => {
    stt.setMaxRequestBytes(40 * 1024);
    const transcript = await whisperHttp(settings()).transcribe(talk.file, { language: "en-US" });
    expect(stt.requests[0]!.status).toBe(413);
    const accepted = stt.requests.filter((r) => r.status === 200);
    expect(accepted.length).toBeGreaterThanOrEqual(2);
    for (const request of accepted) expect(request.bytes).toBeLessThanOrEqual(40 * 1024);
    expectSentences(transcript.words);
  });

  it("fails with speech_too_large when even a couple of seconds are refused", async () => {
    stt.setMaxRequestBytes(1024);
    const error = await whisperHttp(settings()).transcribe(talk.file, { language: "en-US" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechError);
    expect(error).toMatchObject({ code: "speech_too_large", retryable: false, status: 413 });
  });

  it("retries 500s with back-off and succeeds", async () => {
    stt.failNext(500, 2);
    const transcript = await whisperHttp(settings({ retries: 3 })).transcribe(talk.file, { language: "en-US" });
    expect(stt.requests.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(transcript.words).toHaveLength(SCRIPT.length);
  });

  it("waits as long as a 429's Retry-After says before trying again", async () => {
    stt.failNext(429, 1, "1");
    const started = Date.now();
    await whisperHttp(settings()).transcribe(talk.file, { language: "en-US" });
    expect(stt.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("gives up after the retries with a clear, retryable code", async () => {
    stt.failNext(503, 3);
    const failed = await whisperHttp(settings({ retries: 2 })).transcribe(talk.file, { language: "en-US" }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: "speech_service_error", retryable: true, status: 503 });
    expect(stt.requests).toHaveLength(3);

    stt.reset();
    stt.failNext(429, 2);
    const busy = await whisperHttp(settings({ retries: 1 })).transcribe(talk.file, { language: "en-US" }).catch((e: unknown) => e);
    expect(busy).toMatchObject({ code: "speech_rate_limited", retryable: true });
  });

  it("times out a service that does not answer, retries, then fails with speech_timeout", async () => {
    stt.hangNext(2);
    const started = Date.now();
    const error = await whisperHttp(settings({ timeoutMs: 700, retries: 1 })).transcribe(talk.file, { language: "en-US" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "speech_timeout", retryable: true });
    expect(stt.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);

    stt.reset();
    stt.hangNext(1);
    // the retry's real answer must come within the timeout: 3 s leaves room for a loaded machine
    const recovered = await whisperHttp(settings({ timeoutMs: 3_000, retries: 1 })).transcribe(talk.file, { language: "en-US" });
    expect(recovered.words).toHaveLength(SCRIPT.length);
  });

  it("refuses a wrong key at once, without retrying and without the key in the message", async () => {
    const error = await whisperHttp(settings({ apiKey: "sk-wrong-key" })).transcribe(talk.file, { language: "en-US" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "speech_unauthorized", retryable: false, status: 401 });
    expect(stt.requests).toHaveLength(1);
    expect(String((error as Error).message)).not.toContain("sk-wrong-key");
  });

  it("maps other refusals and broken answers to their own codes", async () => {
    const wrongPath = await whisperHttp(settings({ url: `${stt.url}/v2/speech` })).transcribe(talk.file, { language: "en-US" }).catch((e: unknown) => e);
    expect(wrongPath).toMatchObject({ code: "speech_rejected", retryable: false, status: 404 });

    stt.answerWithoutTimings();
    const noTimings = await whisperHttp(settings()).transcribe(talk.file, { language: "en-US" }).catch((e: unknown) => e);
    expect(noTimings).toMatchObject({ code: "speech_bad_response", retryable: false });
  });

  it("reports a service it cannot reach as speech_unreachable, without its address", async () => {
    const closed = await startFakeStt();
    const url = closed.url;
    await closed.close();
    const error = await whisperHttp(settings({ url, retries: 1 })).transcribe(talk.file, { language: "en-US" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "speech_unreachable", retryable: true });
    expect((error as Error).message).not.toContain("127.0.0.1");
  });

  it("stops at once when the job is cancelled", async () => {
    stt.hangNext(1);
    const controller = new AbortController();
    const running = whisperHttp(settings()).transcribe(talk.file, { language: "en-US", signal: controller.signal });
    setTimeout(() => controller.abort(), 500);
    await expect(running).rejects.toMatchObject({ name: "AbortError" });
  });

  it("sends Whisper's language codes", async () => {
    await whisperHttp(settings()).transcribe(talk.file, { language: "fil-PH" });
    await whisperHttp(settings()).transcribe(talk.file, { language: "pt-BR" });
    expect(stt.requests.map((r) => r.language)).toEqual(["tl", "pt"]);
  });
});

describe("choosing the engine by configuration", () => {
  it("routes the service's languages to it, US English to pocketsphinx, and explains the rest", async () => {
    const port = createSpeechToText({ http: settings({ languages: ["pt-BR", "es-ES"] }), pocketsphinx: DEFAULT_POCKETSPHINX });
    expect(await port.availability("pt-BR")).toEqual({ available: true, engine: "whisper-http", draft: false });
    expect(await port.availability("en-US")).toMatchObject({ engine: "pocketsphinx", draft: true });
    const german = await port.availability("de-DE");
    expect(german).toMatchObject({ available: false, reason: "no_engine_for_language" });
    await expect(port.transcribe(talk.file, { language: "de-DE" })).rejects.toMatchObject({ code: "speech_unavailable", retryable: false });
    const viaService = await port.transcribe(talk.file, { language: "es-ES" });
    expect(viaService.engine).toBe("whisper-http");
  });

  it("without STT_URL, every language but English says to set STT_URL", async () => {
    const port = createSpeechToText({ http: null, pocketsphinx: DEFAULT_POCKETSPHINX });
    const hindi = await port.availability("hi-IN");
    expect(hindi).toMatchObject({ available: false, reason: "no_engine_for_language" });
    expect(!hindi.available && hindi.remedy).toMatch(/STT_URL/);
  });
});

describe("protocol details", () => {
  it("finds the transcriptions address from a base, a /v1 base or the full address", () => {
    expect(transcriptionsUrl("http://stt:8000")).toBe("http://stt:8000/v1/audio/transcriptions");
    expect(transcriptionsUrl("http://stt:8000/v1/")).toBe("http://stt:8000/v1/audio/transcriptions");
    expect(transcriptionsUrl("https://api.example.com/v1/audio/transcriptions")).toBe("https://api.example.com/v1/audio/transcriptions");
    expect(whisperLanguage("de-DE")).toBe("de");
  });

  it("plans pieces cut in the latest silence before each limit", () => {
    const silences = [
      { start: 3, end: 4 },
      { start: 8, end: 8.6 },
      { start: 14, end: 15 },
    ];
    expect(planPieces(20, silences, 10)).toEqual([
      { start: 0, end: 8.3 },
      { start: 8.3, end: 14.5 },
      { start: 14.5, end: 20 },
    ]);
    // no silence in reach: cut at the limit
    expect(planPieces(25, [], 10)).toEqual([
      { start: 0, end: 10 },
      { start: 10, end: 20 },
      { start: 20, end: 25 },
    ]);
    expect(planPieces(5, [], 10)).toEqual([{ start: 0, end: 5 }]);
  });

  it("gives OpenAI's unpunctuated words the punctuation of the transcript's text", () => {
    expect(punctuated(["Hello", "world", "How", "are", "you", "um", "today"], "Hello, world. How are you today?")).toEqual(["Hello,", "world.", "How", "are", "you", "um", "today?"]);
    // faster-whisper's words are punctuated already; a text that diverges changes nothing
    expect(punctuated([" Hello,", " world."], "Hello, world.")).toEqual([" Hello,", " world."]);
    expect(punctuated(["one", "two"], "completely different words here and more")).toEqual(["one", "two"]);
    const body = { words: [{ word: "It", start: 0, end: 0.2 }, { word: "works", start: 0.3, end: 0.6 }, { word: "Yes", start: 0.7, end: 0.9 }], segments: [{ start: 0, end: 1, text: " It works. Yes!" }] };
    expect(wordsFromVerboseJson(body, 10).map((w) => w.text)).toEqual(["It", "works.", "Yes!"]);
  });

  it("reads word timings from words, from segments' words (whisper.cpp), or spreads a segment over its words", () => {
    expect(wordsFromVerboseJson({ words: [{ word: " Hi", start: 0.1, end: 0.4, probability: 0.9 }] }, 10)).toEqual([{ start: 0.1, end: 0.4, text: " Hi", confidence: 0.9 }]);
    expect(wordsFromVerboseJson({ segments: [{ start: 0, end: 1, text: " Hi", words: [{ word: "Hi", start: 0.2, end: 0.5 }] }] }, 10)).toEqual([
      { start: 0.2, end: 0.5, text: "Hi", confidence: 1 },
    ]);
    expect(wordsFromVerboseJson({ segments: [{ start: 1, end: 2, text: " ab abc", avg_logprob: Math.log(0.5) }] }, 10)).toEqual([
      { start: 1, end: 1.4, text: "ab", confidence: 0.5 },
      { start: 1.4, end: 2, text: "abc", confidence: 0.5 },
    ]);
    // words the model invents past the end of the piece are dropped, a last word is cut at the end
    expect(wordsFromVerboseJson({ words: [{ word: "a", start: 9.5, end: 10.5 }, { word: "b", start: 10.2, end: 11 }] }, 10)).toEqual([
      { start: 9.5, end: 10, text: "a", confidence: 1 },
    ]);
  });
});
