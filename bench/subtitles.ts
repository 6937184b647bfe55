/**
 * `npm run bench:subtitles` — the local speech engine (pocketsphinx) on talks spoken by espeak-ng
 * from a known script, in rooms of different noise, voices and speeds.
 *
 * Prints, all measured in this run, per talk: word error rate against the script; caption timing
 * error (each sentence's first caption start and last caption end against where the sentence was
 * put in the talk: median and worst); transcription speed as a multiple of real time, beside a plain
 * ffmpeg decode of the same file. Targets (issue 14, 2 cores): every caption within 0.3 s of its
 * speech, WER ≤ 35 % in the quiet rooms, transcription ≥ 2× real time.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { linesFromWords } from "../server/speech/lines";
import { pocketsphinx } from "../server/speech/pocketsphinx";
import { generateTalk, requireTool, wordErrorRate, type TalkOptions } from "../tests/integration/spoken-talk";

const BENCH_DIR = path.resolve(".tmp/bench-subtitles");
const TARGETS = { captionSeconds: 0.3, quietWer: 0.35, realTime: 2 };
const PERCENT = 100;

const SCRIPT = [
  "Good morning and welcome to this short talk about video editing.",
  "Today I want to show you how to remove the silence from a recording.",
  "First we find the parts where nobody is speaking.",
  "Then we cut them out and keep the rest of the story.",
  "The result is a shorter video that is easier to watch.",
  "My name is Anna and I make videos about cooking at home.",
  "Every week I record a new recipe in my kitchen.",
  "Sometimes the phone rings while the camera is still running.",
  "It takes a long time to cut those moments by hand.",
  "With this tool the first draft is ready in a few minutes.",
  "You can still change every scene before you share it.",
  "Thank you for listening and have a nice day.",
];

const TALKS: { name: string; quiet: boolean; options: TalkOptions }[] = [
  { name: "studio (digital silence)", quiet: true, options: { gaps: [0.8, 1.2, 0.6, 1.5] } },
  { name: "quiet room (-60 dBFS)", quiet: true, options: { gaps: [0.9, 0.7, 1.3], roomToneDb: -60 } },
  { name: "quiet room, other voice", quiet: true, options: { gaps: [1.0, 0.6, 1.4], roomToneDb: -60, voice: "en-us+f2", speed: 160 } },
  { name: "noisy room (-38 dBFS)", quiet: false, options: { gaps: [0.8, 1.1, 0.7], roomToneDb: -38 } },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
};

function decodeSeconds(file: string): number {
  const started = performance.now();
  execFileSync("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", file, "-ac", "1", "-ar", "16000", "-f", "null", "-"]);
  return (performance.now() - started) / 1000;
}

async function main() {
  requireTool("pocketsphinx_continuous", "pocketsphinx pocketsphinx-en-us");
  fs.rmSync(BENCH_DIR, { recursive: true, force: true });
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  const engine = pocketsphinx();
  const rows: string[][] = [];
  let allMet = true;
  for (const [i, spec] of TALKS.entries()) {
    const talk = generateTalk(BENCH_DIR, `talk-${i}`, SCRIPT, spec.options);
    const decode = decodeSeconds(talk.file);
    const started = performance.now();
    const transcript = await engine.transcribe(talk.file, { language: "en-US" });
    const seconds = (performance.now() - started) / 1000;
    const wer = wordErrorRate(SCRIPT.join(" "), transcript.words.map((w) => w.text).join(" "));
    const lines = linesFromWords(transcript.words);
    const errors: number[] = [];
    let missing = 0;
    for (const sentence of talk.sentences) {
      const its = lines.filter((l) => l.end > sentence.start - TARGETS.captionSeconds && l.start < sentence.end + TARGETS.captionSeconds);
      if (its.length === 0) {
        missing++;
        continue;
      }
      errors.push(Math.abs(its[0]!.start - sentence.start), Math.abs(its.at(-1)!.end - sentence.end));
    }
    const worst = Math.max(0, ...errors);
    const realTime = talk.durationSeconds / seconds;
    const met = worst <= TARGETS.captionSeconds && missing === 0 && (!spec.quiet || wer <= TARGETS.quietWer) && realTime >= TARGETS.realTime;
    allMet &&= met;
    rows.push([
      spec.name,
      `${talk.durationSeconds.toFixed(1)} s`,
      `${(wer * PERCENT).toFixed(1)} %`,
      `${median(errors).toFixed(2)} / ${worst.toFixed(2)} s${missing ? ` (${missing} missing)` : ""}`,
      `${realTime.toFixed(1)}×`,
      `${(talk.durationSeconds / decode).toFixed(0)}×`,
      met ? "met" : "MISSED",
    ]);
  }
  const header = ["talk", "length", "WER", "caption error median / worst", "transcription", "plain decode", "targets"];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const print = (r: string[]) => console.log(r.map((cell, c) => cell.padEnd(widths[c]!)).join("  "));
  print(header);
  for (const row of rows) print(row);
  console.log(
    `\nTargets: every caption within ${TARGETS.captionSeconds} s, WER ≤ ${TARGETS.quietWer * PERCENT} % in quiet rooms, transcription ≥ ${TARGETS.realTime}× real time. ${allMet ? "All met." : "Some missed."}`,
  );
  fs.rmSync(BENCH_DIR, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
