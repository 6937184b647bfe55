import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveChildren } from "../../server/media/children";
import { MediaAbortedError } from "../../server/media/ffmpeg";
import { linesFromWords } from "../../server/speech/lines";
import { DEFAULT_POCKETSPHINX, parsePocketsphinxOutput, pocketsphinx, splitAtSilences } from "../../server/speech/pocketsphinx";
import { SpeechError } from "../../server/speech/stt";
import { generateTalk, requireTool, SAMPLE_RATE, wavFile, wordErrorRate, type Talk } from "./spoken-talk";

/** Issue 14: the local engine on a talk spoken by espeak-ng from a known script. */

const SCRIPT = [
  "Good morning and welcome to this short talk about video editing.",
  "Today I want to show you how to remove the silence from a recording.",
  "First we find the parts where nobody is speaking.",
  "Then we cut them out and keep the rest of the story.",
  "The result is a shorter video that is easier to watch.",
  "Thank you for listening and have a nice day.",
];
/** Silences between sentences, all above the 0.5 s that ends a caption line. */
const GAPS = [0.8, 1.2, 0.7, 1.0, 0.9];
/** Every caption within this of its sentence (issue 14). */
const TIMING_TOLERANCE = 0.3;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-sphinx-"));
const engine = pocketsphinx();
let talk: Talk;

beforeAll(() => {
  // CI installs these (.ci/run); a machine without them fails here with the line that adds them
  requireTool(DEFAULT_POCKETSPHINX.binary, "pocketsphinx pocketsphinx-en-us");
  requireTool("espeak-ng", "espeak-ng");
  talk = generateTalk(dir, "talk", SCRIPT, { gaps: GAPS });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("pocketsphinx (local, en-US, draft)", () => {
  it("is available for US English and says what to install for other languages", async () => {
    expect(await engine.availability("en-US")).toEqual({ available: true, engine: "pocketsphinx", draft: true });
    const german = await engine.availability("de-DE");
    expect(german).toMatchObject({ available: false, reason: "no_engine_for_language" });
    expect(!german.available && german.remedy).toMatch(/STT_URL/);
  });

  it("says which package to install when the engine or its model is missing", async () => {
    const noBinary = await pocketsphinx({ ...DEFAULT_POCKETSPHINX, binary: "pocketsphinx_not_here" }).availability("en-US");
    expect(noBinary).toMatchObject({ available: false, reason: "engine_not_installed" });
    expect(!noBinary.available && noBinary.remedy).toMatch(/apt-get install -y pocketsphinx pocketsphinx-en-us/);
    const noModel = await pocketsphinx({ ...DEFAULT_POCKETSPHINX, modelDir: path.join(dir, "no-model") }).availability("en-US");
    expect(noModel).toMatchObject({ available: false, reason: "engine_not_installed" });
    await expect(pocketsphinx({ ...DEFAULT_POCKETSPHINX, modelDir: path.join(dir, "no-model") }).transcribe(talk.file, { language: "en-US" })).rejects.toMatchObject({
      code: "speech_unavailable",
      retryable: false,
    });
  });

  it("transcribes the talk with word timings; every caption falls within 0.3 s of its spoken sentence", async () => {
    const progress: number[] = [];
    const started = Date.now();
    const transcript = await engine.transcribe(talk.file, { language: "en-US", onProgress: (f) => progress.push(f) });
    const seconds = (Date.now() - started) / 1000;
    expect(transcript.engine).toBe("pocketsphinx");
    expect(transcript.draft).toBe(true);
    expect(progress.at(-1)).toBe(1);
    expect(liveChildren()).toBe(0);

    const words = transcript.words;
    expect(words.length).toBeGreaterThan(30);
    for (const word of words) {
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      expect(word.confidence).toBeGreaterThanOrEqual(0);
      expect(word.confidence).toBeLessThanOrEqual(1);
      expect(word.text).not.toMatch(/\(\d+\)|<\/?s>|<sil>|\[|\+\+/);
    }
    const heard = words.map((w) => w.text).join(" ");
    const wer = wordErrorRate(SCRIPT.join(" "), heard);
    console.log(`pocketsphinx: WER ${(wer * 100).toFixed(1)} % on ${SCRIPT.join(" ").split(" ").length} words, ${(seconds / talk.durationSeconds).toFixed(2)}× real time\n  heard: ${heard}`);
    // a draft engine: measured 22 % here; far above half means the decoding itself broke
    expect(wer).toBeLessThan(0.5);

    expectCaptionsOnSentences(words);
  }, 180_000);

  it("cuts a long file at silences into pieces recognised side by side, with the same captions", async () => {
    const progress: number[] = [];
    const parallel = pocketsphinx({ ...DEFAULT_POCKETSPHINX, processes: 2, minPieceSeconds: 8 });
    const transcript = await parallel.transcribe(talk.file, { language: "en-US", onProgress: (f) => progress.push(f) });
    expect(progress.at(-1)).toBe(1);
    const heard = transcript.words.map((w) => w.text).join(" ");
    const wer = wordErrorRate(SCRIPT.join(" "), heard);
    console.log(`pocketsphinx in 2 pieces: WER ${(wer * 100).toFixed(1)} %`);
    expect(wer).toBeLessThan(0.5);
    expectCaptionsOnSentences(transcript.words);
    expect(liveChildren()).toBe(0);
  }, 180_000);

  it("plans pieces cut in the silence nearest each even share", () => {
    const speech = [
      { start: 0.5, end: 4.5 },
      { start: 5.3, end: 9.1 },
      { start: 10.3, end: 13.5 },
    ];
    expect(splitAtSilences(speech, 14, 2)).toEqual([
      { start: 0, end: 4.9 },
      { start: 4.9, end: 14 },
    ]);
    expect(splitAtSilences(speech, 14, 1)).toEqual([{ start: 0, end: 14 }]);
    // no silence near the share: cut at the share
    expect(splitAtSilences([{ start: 0, end: 30 }], 30, 3)).toEqual([
      { start: 0, end: 10 },
      { start: 10, end: 20 },
      { start: 20, end: 30 },
    ]);
  });

  function expectCaptionsOnSentences(words: { start: number; end: number; text: string; confidence: number }[]) {
    const lines = linesFromWords(words);
    for (const line of lines) expect([...line.text].length).toBeLessThanOrEqual(35);
    // each sentence: the lines that fall in it start and end with it
    for (const sentence of talk.sentences) {
      const its = lines.filter((l) => l.end > sentence.start - TIMING_TOLERANCE && l.start < sentence.end + TIMING_TOLERANCE);
      expect(its.length, `no caption for "${sentence.text}"`).toBeGreaterThan(0);
      expect(Math.abs(its[0]!.start - sentence.start), `start of "${sentence.text}"`).toBeLessThanOrEqual(TIMING_TOLERANCE);
      expect(Math.abs(its.at(-1)!.end - sentence.end), `end of "${sentence.text}"`).toBeLessThanOrEqual(TIMING_TOLERANCE);
      // no caption runs across the silence into another sentence
      for (const line of its) {
        expect(line.start).toBeGreaterThanOrEqual(sentence.start - TIMING_TOLERANCE);
        expect(line.end).toBeLessThanOrEqual(sentence.end + TIMING_TOLERANCE);
      }
    }
  }

  it("gives no words for a file without sound, and stops when the job is cancelled", async () => {
    const quiet = path.join(dir, "quiet.wav");
    fs.writeFileSync(quiet, wavFile(new Int16Array(2 * SAMPLE_RATE)));
    expect((await engine.transcribe(quiet, { language: "en-US" })).words).toEqual([]);

    const controller = new AbortController();
    const running = engine.transcribe(talk.file, { language: "en-US", signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(running).rejects.toBeInstanceOf(MediaAbortedError);
    expect(liveChildren()).toBe(0);
  }, 60_000);

  it("refuses a language it does not know with a clear, final error", async () => {
    const error = await engine.transcribe(talk.file, { language: "pt-BR" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechError);
    expect(error).toMatchObject({ code: "speech_unavailable", retryable: false });
  });
});

describe("pocketsphinx output", () => {
  it("keeps words with times, drops markers and noise, strips pronunciation variants", () => {
    const output = [
      "we probably got",
      "<s> 0.000 0.230 0.999500",
      "we 0.240 0.410 0.458456",
      "<sil> 0.420 0.520 0.998601",
      "probably(2) 0.530 0.860 0.085061",
      "[NOISE] 0.870 0.900 0.5",
      "i'm 0.910 1.260 0.997004",
      "</s> 2.960 3.520 1.000000",
      "i think",
      "<s> 4.530 4.960 0.999700",
      "++BREATH++ 4.970 5.000 0.4",
      "i 5.010 5.160 0.406243",
      "think 5.170 5.380 0.128859",
    ].join("\n");
    expect(parsePocketsphinxOutput(output)).toEqual([
      { start: 0.24, end: 0.42, text: "We", confidence: 0.458456 },
      { start: 0.53, end: 0.87, text: "probably", confidence: 0.085061 },
      { start: 0.91, end: 1.27, text: "I'm", confidence: 0.997004 },
      { start: 5.01, end: 5.17, text: "I", confidence: 0.406243 },
      { start: 5.17, end: 5.39, text: "think", confidence: 0.128859 },
    ]);
  });
});
