/**
 * `npm run bench:sound` — issue 15's denoisers and finishing chain, measured.
 *
 * 1. Denoisers on generated talks where the clean speech and the room noise are known: each talk has
 *    its own seed (sentence order, gaps 0.3–2 s), espeak-ng voice and speed, length, and room (quiet:
 *    −62…−56 dBFS; noisy: −34…−27 dBFS white, pink or brown noise). The speech and the noise are
 *    summed at 48 kHz and given to each denoiser the way a render does (FLAC in, FLAC out); the
 *    result is scored by scale-invariant SDR against the clean speech (bench/sound-metrics.ts).
 *    Targets: ≥ 10 dB improvement on every noisy room, never worse than the input on any quiet one.
 *    The voice booster is measured on the RNNoise output: loudness range (LRA) and peak-to-loudness ratio.
 * 2. The whole finishing chain's cost: a 720p render of an edit of two generated talks (cut at their
 *    pauses, crossfades on) made bare (the joined sound encoded as is, in the picture's pass) and with
 *    the chain (joined sound → denoise → booster → two-pass loudness → one AAC encode beside the
 *    picture), alternately, in this run. Target: chain ≤ 1.2× the bare encode (CPU seconds decide on a
 *    shared machine; wall time printed too).
 *
 *   npm run bench:sound [-- --rounds 2]
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { NOISE_CANCELLING_FILTERS, VOICE_BOOSTER_FILTERS, LOUDNESS_TARGET, type Denoiser, type SoundOptions } from "../server/domain/audio";
import { measureRoom, rnnoiseFile, rnnoiseWet } from "../server/media/denoise";
import { runFfmpeg, streamFfmpeg } from "../server/media/ffmpeg";
import { renderPreview, type EditSegment } from "../server/media/render";
import { seededRandom } from "../tests/reliability";
import { childCpuSeconds } from "./cpu";
import { colouredNoise, readWavSamples, trimSilence, wavFile, type NoiseColour } from "./room-audio";
import { rmsDb, siSdr } from "./sound-metrics";

const run = promisify(execFile);
const DIR = path.resolve(".tmp/bench/sound");
/** Bump when the generated material changes, so cached files are rebuilt. */
const VERSION = 1;
const RATE = 48_000;
const ESPEAK_RATE = 22_050;
const GAP = { min: 0.3, max: 2 };
const TARGETS = { noisyImprovement: 10, quietImprovement: 0, chain: 1.2 };
/** "rnnoise" as a render runs it (its share chosen by the room, rnnoiseWet), "rnnoise-always" at full strength, "spectral". */
type Variant = Denoiser | "rnnoise-always";
const DENOISERS: readonly Variant[] = ["rnnoise", "rnnoise-always", "spectral"];

type Room = "quiet" | "noisy";
interface SoundTalk {
  name: string;
  seed: number;
  voice: string;
  speed: number;
  room: Room;
  colour: NoiseColour;
  /** Room noise RMS, dBFS. */
  roomDb: number;
  /** Voice level relative to espeak's own, dB. */
  voiceGainDb: number;
  seconds: number;
}

const TALKS: readonly SoundTalk[] = [
  { name: "studio", seed: 101, voice: "en-us", speed: 160, room: "quiet", colour: "white", roomDb: -62, voiceGainDb: -6, seconds: 30 },
  { name: "bedroom", seed: 102, voice: "en+f3", speed: 140, room: "quiet", colour: "pink", roomDb: -58, voiceGainDb: -10, seconds: 45 },
  { name: "hum", seed: 103, voice: "en", speed: 155, room: "quiet", colour: "brown", roomDb: -56, voiceGainDb: -8, seconds: 20 },
  { name: "fan", seed: 104, voice: "en-us+m3", speed: 175, room: "noisy", colour: "brown", roomDb: -28, voiceGainDb: -6, seconds: 30 },
  { name: "cafe", seed: 105, voice: "en+f2", speed: 150, room: "noisy", colour: "pink", roomDb: -30, voiceGainDb: -8, seconds: 45 },
  { name: "street", seed: 106, voice: "en-us+f4", speed: 170, room: "noisy", colour: "white", roomDb: -32, voiceGainDb: -4, seconds: 60 },
  { name: "office", seed: 107, voice: "en-gb", speed: 165, room: "noisy", colour: "pink", roomDb: -34, voiceGainDb: -6, seconds: 40 },
  { name: "window", seed: 108, voice: "en+m5", speed: 145, room: "noisy", colour: "white", roomDb: -27, voiceGainDb: -10, seconds: 35 },
];

const SENTENCES = [
  "Welcome back to the channel.",
  "Today I want to show you how we edit a long recording.",
  "The first thing you notice is all the waiting.",
  "Nobody wants to watch me think.",
  "So the editor listens for the pauses.",
  "It measures how loud the room is when nobody speaks.",
  "Anything clearly louder than that is speech.",
  "Short breaths stay in, because they sound natural.",
  "Long gaps become jump cuts.",
  "Now, what about noisy rooms?",
  "A fan or an open window raises the floor.",
  "Shh, she sleeps; fifty six thin sheets.",
  "See you in the next one.",
];

interface Made {
  talk: SoundTalk;
  clean: Float32Array;
  /** Speech + room, FLAC 48 kHz stereo (the joined sound a render hands the chain). */
  mix: string;
  /** Seconds of each gap between utterances (for the edit of part 2). */
  gaps: { start: number; end: number }[];
}

function roundsArg(): number {
  const i = process.argv.indexOf("--rounds");
  const value = i >= 0 ? Number(process.argv[i + 1]) : 2;
  return Number.isInteger(value) && value > 0 ? value : 2;
}

async function decodeMono(file: string, format: string): Promise<Float32Array> {
  const stream = streamFfmpeg({ inputs: [{ file, format, internal: true }], outputOptions: ["-map", "0:a:0", "-ac", "1", "-ar", String(RATE), "-f", "f32le"], output: "-" });
  const chunks: Buffer[] = [];
  for await (const chunk of stream.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await stream.done;
  const bytes = Buffer.concat(chunks);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

async function writeFloatFlac(samples: Float32Array, file: string): Promise<void> {
  const raw = `${file}.f32`;
  await writeFile(raw, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
  await runFfmpeg({ inputs: [{ file: raw, format: "f32le", internal: true, options: ["-ar", String(RATE), "-ac", "1"] }], outputOptions: ["-ac", "2", "-c:a", "flac", "-f", "flac"], output: file });
  await rm(raw, { force: true });
}

/** A talk's clean speech (in memory) and speech + room (a FLAC), built once and cached. */
async function makeTalk(talk: SoundTalk): Promise<Made> {
  const folder = path.join(DIR, `v${VERSION}`, talk.name);
  await mkdir(folder, { recursive: true });
  const cleanFile = path.join(folder, "clean.flac");
  const mix = path.join(folder, "mix.flac");
  const gapsFile = path.join(folder, "gaps.json");
  if (existsSync(cleanFile) && existsSync(mix) && existsSync(gapsFile)) {
    return { talk, clean: await decodeMono(cleanFile, "flac"), mix, gaps: JSON.parse(await readFile(gapsFile, "utf8")) as Made["gaps"] };
  }
  const random = seededRandom(talk.seed).next;
  const utterances: Int16Array[] = [];
  for (const [i, sentence] of SENTENCES.entries()) {
    const wav = path.join(folder, `utt${i}.wav`);
    await run("espeak-ng", ["-v", talk.voice, "-s", String(talk.speed), "-w", wav, sentence]);
    utterances.push(trimSilence(readWavSamples(await readFile(wav)), 10 ** (talk.voiceGainDb / 20)));
    await rm(wav, { force: true });
  }
  const total = Math.round(talk.seconds * ESPEAK_RATE);
  const track = new Int16Array(total);
  const gaps: Made["gaps"] = [];
  let at = Math.round(0.5 * ESPEAK_RATE);
  for (;;) {
    const utterance = utterances[Math.floor(random() * utterances.length)] ?? new Int16Array();
    if (at + utterance.length > total - ESPEAK_RATE) break;
    track.set(utterance, at);
    const gap = Math.round((GAP.min + random() * (GAP.max - GAP.min)) * ESPEAK_RATE);
    gaps.push({ start: (at + utterance.length) / ESPEAK_RATE, end: (at + utterance.length + gap) / ESPEAK_RATE });
    at += utterance.length + gap;
  }
  const dry = path.join(folder, "dry.wav");
  await writeFile(dry, wavFile(track, ESPEAK_RATE));
  await runFfmpeg({ inputs: [{ file: dry, format: "wav", internal: true }], outputOptions: ["-ar", String(RATE), "-ac", "2", "-c:a", "flac", "-f", "flac"], output: cleanFile });
  await rm(dry, { force: true });
  const clean = await decodeMono(cleanFile, "flac");
  const noise = colouredNoise(clean.length, talk.colour, random);
  const gain = 10 ** (talk.roomDb / 20) / 10 ** (rmsDb(noise) / 20);
  await writeFloatFlac(clean.map((v, i) => v + (noise[i] ?? 0) * gain), mix);
  await writeFile(gapsFile, JSON.stringify(gaps));
  return { talk, clean, mix, gaps };
}

/** Wall and CPU seconds (ffmpeg children and this process, where RNNoise runs) of `work`. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const children0 = childCpuSeconds() ?? 0;
  const start = performance.now();
  const value = await work();
  const wall = (performance.now() - start) / 1000;
  const own = process.cpuUsage(cpu0);
  return { value, wall, cpu: (childCpuSeconds() ?? 0) - children0 + (own.user + own.system) / 1e6 };
}

async function denoised(made: Made, denoiser: Variant, booster = false): Promise<{ file: string; wall: number; cpu: number; wet?: number; snr?: number }> {
  const file = path.join(DIR, `v${VERSION}`, made.talk.name, `${denoiser}${booster ? "-boosted" : ""}.flac`);
  const after = booster ? VOICE_BOOSTER_FILTERS : [];
  const ffmpeg = (filters: readonly string[]) =>
    runFfmpeg({ inputs: [{ file: made.mix, format: "flac", internal: true }], outputOptions: [...(filters.length ? ["-af", filters.join(",")] : []), "-c:a", "flac", "-f", "flac"], output: file });
  let wet: number | undefined;
  let snr: number | undefined;
  const { wall, cpu } = await timed(async () => {
    if (denoiser === "spectral") return ffmpeg([...NOISE_CANCELLING_FILTERS, ...after]);
    if (denoiser === "rnnoise-always") return rnnoiseFile(made.mix, file, { scratch: path.dirname(file), after });
    // As sound.ts runs it: the room measured first; a quiet room is left as it is.
    const room = await measureRoom(made.mix);
    snr = room.snrDb;
    wet = rnnoiseWet(room.snrDb);
    return wet === 0 ? ffmpeg(after) : rnnoiseFile(made.mix, file, { scratch: path.dirname(file), after, wet, mono: room.dualMono });
  });
  return { file, wall, cpu, ...(wet === undefined ? {} : { wet }), ...(snr === undefined ? {} : { snr }) };
}

/** LRA (LU) and peak-to-loudness ratio (true peak − integrated, dB) by ebur128. */
async function dynamics(file: string): Promise<{ lra: number; plr: number }> {
  const lines: string[] = [];
  await runFfmpeg({ inputs: [{ file, format: "flac", internal: true }], outputOptions: ["-af", "ebur128=peak=true", "-f", "null"], output: null }, { logLevel: "info", onStderrLine: (l) => lines.push(l) });
  const summary = lines.slice(lines.findLastIndex((l) => l.includes("Summary:")));
  const value = (label: RegExp) => Number(summary.find((l) => label.test(l))?.match(/(-?[\d.]+)/)?.[1] ?? NaN);
  return { lra: value(/^LRA:/), plr: value(/^Peak:/) - value(/^I:/) };
}

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : String(n));
const pad = (s: string, n: number) => s.padEnd(n);

async function denoiserTable(talks: Made[]) {
  console.log("\n1. Denoisers: SI-SDR against the clean speech (dB), and the improvement over the input");
  console.log("   rnnoise: as a render runs it (room SNR measured; all of RNNoise's output at ≤ 20 dB, none at ≥ 30 dB); rnnoise-always: full strength");
  console.log(`${pad("talk", 9)}${pad("room", 7)}${pad("voice", 10)}${pad("noise", 14)}${pad("len", 6)}${pad("SNR/wet", 11)}${pad("input", 7)}${DENOISERS.map((d) => pad(`${d} (Δ)`, 21)).join("")}${pad("× realtime (rnnoise-always)", 28)}booster LRA / PLR`);
  const improvements = Object.fromEntries(DENOISERS.map((d) => [d, { quiet: [] as number[], noisy: [] as number[] }])) as Record<Variant, Record<Room, number[]>>;
  for (const made of talks) {
    const mix = await decodeMono(made.mix, "flac");
    const input = siSdr(mix, made.clean);
    const cells: string[] = [];
    let speed = "";
    let wet = "";
    for (const denoiser of DENOISERS) {
      const out = await denoised(made, denoiser);
      const score = siSdr(await decodeMono(out.file, "flac"), made.clean);
      improvements[denoiser][made.talk.room].push(score - input);
      cells.push(pad(`${f1(score)} (${score - input >= 0 ? "+" : ""}${f1(score - input)})`, 21));
      if (denoiser === "rnnoise-always") speed = `${f1(made.talk.seconds / out.cpu)}× cpu, ${f1(made.talk.seconds / out.wall)}× wall`;
      if (out.wet !== undefined) wet = `${f1(out.snr ?? NaN)}/${out.wet.toFixed(2)}`;
    }
    const plain = await dynamics(path.join(path.dirname(made.mix), "rnnoise.flac"));
    const boosted = await dynamics((await denoised(made, "rnnoise", true)).file);
    const t = made.talk;
    console.log(
      `${pad(t.name, 9)}${pad(t.room, 7)}${pad(t.voice, 10)}${pad(`${t.colour} ${t.roomDb}`, 14)}${pad(`${t.seconds}s`, 6)}${pad(wet, 11)}${pad(f1(input), 7)}${cells.join("")}${pad(speed, 22)}${f1(plain.lra)}→${f1(boosted.lra)} LU / ${f1(plain.plr)}→${f1(boosted.plr)} dB`,
    );
  }
  console.log(`\n${pad("mean improvement (dB)", 24)}${pad("quiet rooms", 22)}${pad("noisy rooms", 22)}targets (every talk): quiet ≥ 0 (never worse), noisy ≥ 10`);
  for (const denoiser of DENOISERS) {
    const { quiet, noisy } = improvements[denoiser];
    const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / Math.max(1, xs.length);
    // Every talk, not the mean: a denoiser that is good on one noise colour and poor on another misses.
    const ok = Math.min(...quiet) >= TARGETS.quietImprovement && Math.min(...noisy) >= TARGETS.noisyImprovement;
    console.log(`${pad(denoiser, 24)}${pad(`${f1(mean(quiet))} (worst ${f1(Math.min(...quiet))})`, 22)}${pad(`${f1(mean(noisy))} (worst ${f1(Math.min(...noisy))})`, 22)}${ok ? "meets both" : "misses"}`);
  }
}

/** A 720p30 clip of a talk's mix (speech + room) under a moving test picture. */
async function makeClip(made: Made): Promise<string> {
  const file = path.join(DIR, `v${VERSION}`, `${made.talk.name}-720p.mp4`);
  if (existsSync(file)) return file;
  await runFfmpeg({
    inputs: [
      { file: `testsrc2=size=1280x720:rate=30`, lavfi: true, options: ["-t", String(made.talk.seconds)] },
      { file: made.mix, format: "flac", internal: true },
    ],
    outputOptions: ["-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "160k", "-t", String(made.talk.seconds)],
    output: file,
  });
  return file;
}

/** Stretches between the talk's longer gaps (cut in the middle of each gap over 0.8 s), seeded. */
function editOf(made: Made, file: string): EditSegment[] {
  const cuts = made.gaps.filter((g) => g.end - g.start > 0.8).map((g) => (g.start + g.end) / 2);
  const segments: EditSegment[] = [];
  let start = 0.2;
  for (const cut of cuts) {
    if (cut - start < 2) continue;
    segments.push({ file, kind: "video", start, end: cut - 0.3 });
    start = cut + 0.3;
  }
  segments.push({ file, kind: "video", start, end: made.talk.seconds - 0.5 });
  return segments;
}

async function chainCost(talks: Made[], rounds: number) {
  // Two noisy rooms, so RNNoise runs at full strength (a quiet room would skip it and cost less).
  const sources = [talks.find((t) => t.talk.name === "street"), talks.find((t) => t.talk.name === "cafe")].filter((t): t is Made => !!t);
  const segments: EditSegment[] = [];
  for (const made of sources) segments.push(...editOf(made, await makeClip(made)));
  const seconds = segments.reduce((s, seg) => s + (seg.end - seg.start), 0);
  console.log(`\n2. The finishing chain's cost: a 720p30 preview render of ${segments.length} stretches (${f1(seconds)} s) from 2 talks, crossfades on, ${rounds} round(s), alternating`);
  const chains: { name: string; sound: SoundOptions | undefined }[] = [
    { name: "bare encode (no chain)", sound: undefined },
    { name: "chain: rnnoise + booster + loudness", sound: { denoise: "rnnoise", booster: true, loudness: { ...LOUDNESS_TARGET } } },
    { name: "chain: spectral + booster + loudness", sound: { denoise: "spectral", booster: true, loudness: { ...LOUDNESS_TARGET } } },
    { name: "chain: loudness only (enhancer off)", sound: { denoise: null, booster: false, loudness: { ...LOUDNESS_TARGET } } },
  ];
  const totals = chains.map(() => ({ wall: [] as number[], cpu: [] as number[], note: "" }));
  for (let r = 0; r < rounds; r++) {
    for (const [k, chain] of chains.entries()) {
      const output = path.join(DIR, `chain-${k}.mp4`);
      const { value, wall, cpu } = await timed(() => renderPreview(segments, output, { smoothCuts: true, ...(chain.sound ? { sound: chain.sound } : {}) }));
      const total = totals[k];
      if (!total) continue;
      total.wall.push(wall);
      total.cpu.push(cpu);
      const room = value.sound?.room;
      const loudness = value.sound?.loudness;
      total.note = `${room ? `room SNR ${f1(room.snrDb)} dB, RNNoise share ${room.wet.toFixed(2)}${room.dualMono ? ", mono" : ""}; ` : ""}${loudness ? `measured ${f1(loudness.measuredI)} LUFS, gain ${f1(loudness.gainDb)} dB${loudness.limited ? ", limited" : ""}` : ""}`;
    }
  }
  const best = (xs: number[]) => Math.min(...xs);
  const base = totals[0] ?? { wall: [1], cpu: [1], note: "" };
  console.log(`${pad("render", 40)}${pad("cpu s", 9)}${pad("wall s", 9)}${pad("cpu ×", 8)}${pad("wall ×", 8)}${pad(`≤ ${TARGETS.chain}× cpu`, 12)}what the chain did`);
  for (const [k, chain] of chains.entries()) {
    const t = totals[k] ?? base;
    const cpuRatio = best(t.cpu) / best(base.cpu);
    const wallRatio = best(t.wall) / best(base.wall);
    console.log(`${pad(chain.name, 40)}${pad(f1(best(t.cpu)), 9)}${pad(f1(best(t.wall)), 9)}${pad(cpuRatio.toFixed(2), 8)}${pad(wallRatio.toFixed(2), 8)}${pad(k === 0 ? "baseline" : cpuRatio <= TARGETS.chain ? "ok" : "over", 12)}${t.note}`);
  }
}

async function main() {
  await mkdir(DIR, { recursive: true });
  console.log("making the talks (espeak-ng voices, seeded gaps, known room noise; cached in .tmp/bench/sound)…");
  const talks: Made[] = [];
  for (const talk of TALKS) talks.push(await makeTalk(talk));
  await denoiserTable(talks);
  await chainCost(talks, roundsArg());
}

await main();
