/**
 * `npm run bench:pipeline` — the media layer on a generated 10-minute 720p talk with known speech.
 *
 * Prints, all measured in this run:
 *  - analysis speed (media s per wall s) and its ratio to a plain `ffmpeg -i f -vn -f null -` decode;
 *  - media-layer wall time probe → proxy → analysis → preview render, as a share of the footage length;
 *  - when `auto-editor` is on the PATH, our pipeline's time against its default run;
 *  - cut accuracy per room against the truth: speech kept, silence removed, gaps ≥ 0.5 s cut.
 * Targets (2 cores): analysis ≥ 0.5× decode speed; preview < 1/3 of footage; speech kept ≥ 99.5 %;
 * every gap ≥ 0.5 s cut and silence removed ≥ 85 % in both rooms.
 * Then the cut on several other generated talks (bench/talks.ts: seeds, voices, speeds, white, pink
 * and brown room tones at several levels, some reverberation), each beside its own plain decode.
 */
import { execFile } from "node:child_process";
import { accessSync, constants as fsConstants } from "node:fs";
import os from "node:os";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { analyzeFile, type SilenceAnalysis, type TimeRange } from "../server/media/analyze";
import { DEFAULT_THREADS, runFfmpeg } from "../server/media/ffmpeg";
import { probe } from "../server/media/probe";
import { loadConfig } from "../server/config";
import { createServer } from "../server/main";
import type { Mail } from "../server/notify/mail";
import { tusUpload } from "../tests/integration/tus";
import { ensureBenchTalk, ROOMS, type Room, type TalkTruth } from "./make-talk";
import { ensureTalks, type GeneratedTalk } from "./talks";
import { childCpuSeconds } from "./cpu";

const BENCH_DIR = path.resolve(".tmp/bench");
const OUT_DIR = path.join(BENCH_DIR, "out");
/** Short steps are timed this many times; the median is reported. */
const REPEATS = 3;
const POLL_PROJECT_MS = 250;
const GAP_MUST_CUT_SECONDS = 0.5;
const TARGETS = { analysisVsDecode: 0.5, previewShare: 1 / 3, speechKept: 0.995, silenceRemoved: 0.85 };
const PERCENT = 100;

interface Accuracy {
  speechKept: number;
  silenceRemoved: number;
  gapsToCut: number;
  gapsCut: number;
  wordsClipped: number;
}


interface Timed<T> {
  value: T;
  seconds: number;
  /** ffmpeg CPU seconds (user + system), when the platform tells. */
  cpuSeconds?: number;
}

async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  const value = await work();
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = childCpuSeconds();
  return { value, seconds, cpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore };
}

async function median<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const runs: Timed<T>[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await timed(work));
  runs.sort((a, b) => a.seconds - b.seconds);
  const middle = runs[Math.floor(runs.length / 2)];
  if (!middle) throw new Error("no runs");
  return middle;
}

function plainDecode(file: string): Promise<void> {
  return runFfmpeg({ inputs: [{ file }], outputOptions: ["-vn"], output: null });
}

// ---------------------------------------------------------------------------------------------
// Accuracy
// ---------------------------------------------------------------------------------------------

function overlap(a: readonly TimeRange[], b: readonly TimeRange[]): number {
  let total = 0;
  let j = 0;
  for (const x of a) {
    while (j < b.length && (b[j]?.end ?? 0) <= x.start) j++;
    for (let k = j; k < b.length && (b[k]?.start ?? 0) < x.end; k++) {
      const y = b[k];
      if (y) total += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
    }
  }
  return total;
}

function length(ranges: readonly TimeRange[]): number {
  return ranges.reduce((sum, r) => sum + r.end - r.start, 0);
}

function gaps(truth: TalkTruth): TimeRange[] {
  const out: TimeRange[] = [];
  let cursor = 0;
  for (const range of truth.speech) {
    if (range.start > cursor) out.push({ start: cursor, end: range.start });
    cursor = range.end;
  }
  if (truth.duration > cursor) out.push({ start: cursor, end: truth.duration });
  return out;
}

/** A word is clipped when more than 5 ms of it falls in a cut (rounding to ms is not clipping). */
const CLIP_TOLERANCE_SECONDS = 0.005;

function accuracy(truth: TalkTruth, analysis: SilenceAnalysis): Accuracy {
  const silence = gaps(truth);
  const interior = silence.slice(1, -1).filter((g) => g.end - g.start >= GAP_MUST_CUT_SECONDS);
  return {
    speechKept: overlap(truth.speech, analysis.speech) / length(truth.speech),
    silenceRemoved: overlap(silence, analysis.silences) / length(silence),
    gapsToCut: interior.length,
    gapsCut: interior.filter((g) => overlap([g], analysis.silences) > 0).length,
    wordsClipped: truth.speech.filter((u) => u.end - u.start - overlap([u], analysis.speech) > CLIP_TOLERANCE_SECONDS).length,
  };
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

interface RoomResult {
  room: Room;
  decodeSeconds: number;
  analysisSeconds: number;
  noiseFloorDb: number;
  accuracy: Accuracy;
}

async function measureRoom(room: Room, file: string, truth: TalkTruth): Promise<RoomResult> {
  const info = await probe(file);
  const decode = await median(() => plainDecode(file));
  const analysis = await median(() => analyzeFile(file, { info }));
  return {
    room,
    decodeSeconds: decode.seconds,
    analysisSeconds: analysis.seconds,
    noiseFloorDb: analysis.value.noiseFloorDb,
    accuracy: accuracy(truth, analysis.value),
  };
}

interface PipelineResult {
  steps: { name: string; seconds: number }[];
  total: number;
  /** ffmpeg's CPU time over the whole run (children of this process). */
  cpuSeconds?: number;
  outputSeconds: number;
  segments: number;
}

/**
 * The real thing: a Cutroom server in this process (SQLite, job queue, pipeline), the talk uploaded
 * over tus, then the clock runs from "upload complete" (POST /library) to Preview Ready.
 */
async function measurePipeline(file: string): Promise<PipelineResult> {
  const dataDir = path.join(OUT_DIR, "server");
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", CAPTCHA: "off", STATIC_DIR: path.join(dataDir, "no-app") });
  const mails: Mail[] = [];
  const server = await createServer(config, { mailer: { send: async (mail) => void mails.push(mail) } });
  try {
    const base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    const call = async (method: string, url: string, body?: unknown, token?: string) => {
      const res = await fetch(`${base}/api/v1${url}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json() as Promise<any>;
    };
    const email = "bench@example.com";
    const password = "bench-password";
    await call("POST", "/register", { locale: "en", first_name: "Bench", last_name: "Mark", email, password, password_confirmation: password, terms: true });
    await fetch(new URL(new URL(mails[0]!.links![0]!).pathname + new URL(mails[0]!.links![0]!).search, base), { redirect: "manual" });
    // A plan whose limits take a 10-minute file.
    await server.db.updateTable("users").set({ plan_id: "professional_month" }).where("email", "=", email).execute();
    const token = (await call("POST", "/user/login", { email, password })).api_token as string;
    const uploaded = await tusUpload(base, token, file, { name: "talk.mp4", chunkSize: 8 * 1024 * 1024 });

    const steps: PipelineResult["steps"] = [];
    const cpuAtStart = childCpuSeconds();
    const started = performance.now();
    const media = await call("POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 }, token);
    const project = await call("POST", "/createproject", { name: "Bench", locale: "en-US", style: "video", media: [media.media_file.id] }, token);
    let rawDoneAt: number | undefined;
    for (;;) {
      const p = await call("GET", `/projects/${project.id}`, undefined, token);
      if (p.status === "Failed") throw new Error(`the pipeline failed: ${p.failure}`);
      if (rawDoneAt === undefined && p.working_progress_raw >= 100) {
        rawDoneAt = performance.now();
        steps.push({ name: "ingest", seconds: (rawDoneAt - started) / 1000 });
      }
      if (p.status === "Preview Ready") {
        const now = performance.now();
        steps.push({ name: "scenes + render", seconds: (now - (rawDoneAt ?? started)) / 1000 });
        const cpuAtEnd = childCpuSeconds();
        const total = (now - started) / 1000;
        const cpuSeconds = cpuAtStart === undefined || cpuAtEnd === undefined ? undefined : cpuAtEnd - cpuAtStart;
        return { steps, total, cpuSeconds, outputSeconds: p.duration_out_seconds, segments: p.scenes_count };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_PROJECT_MS));
    }
  } finally {
    await server.close();
  }
}

function onPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, binary);
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function measureAutoEditor(file: string): Promise<number | undefined> {
  const binary = onPath("auto-editor");
  if (!binary) return undefined;
  const output = path.join(OUT_DIR, "auto-editor.mp4");
  const { seconds } = await timed(() => promisify(execFile)(binary, [file, "--no-open", "-o", output], { maxBuffer: 64 * 1024 * 1024 }));
  return seconds;
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const pct = (share: number) => `${(share * PERCENT).toFixed(2)} %`;
const mark = (ok: boolean) => (ok ? "ok" : "MISSED");

function report(duration: number, rooms: RoomResult[], pipeline: PipelineResult, autoEditor: number | undefined): boolean {
  let allOk = true;
  const [load1 = 0] = os.loadavg();
  console.log(`\nFootage: ${duration.toFixed(0)} s, 1280x720 30 fps, AAC 48 kHz stereo; ${rooms.length} rooms. Medians of ${REPEATS} runs.`);
  console.log(`Machine: ${os.cpus().length} cores, load average ${load1.toFixed(2)} at the end (other work on the machine slows every wall time).\n`);
  console.log("Analysis speed");
  for (const r of rooms) {
    const decodeSpeed = duration / r.decodeSeconds;
    const analysisSpeed = duration / r.analysisSeconds;
    const ratio = analysisSpeed / decodeSpeed;
    allOk &&= ratio >= TARGETS.analysisVsDecode;
    console.log(
      `  ${r.room.padEnd(6)} plain decode ${decodeSpeed.toFixed(0)}× realtime (${r.decodeSeconds.toFixed(2)} s) · analysis ${analysisSpeed.toFixed(0)}× realtime (${r.analysisSeconds.toFixed(2)} s) · ratio ${ratio.toFixed(2)} (target ≥ ${TARGETS.analysisVsDecode}) ${mark(ratio >= TARGETS.analysisVsDecode)}`,
    );
  }
  console.log("\nJob pipeline (quiet room): upload complete (POST /library) → Preview Ready, through the queue");
  for (const s of pipeline.steps) console.log(`  ${s.name.padEnd(15)} ${s.seconds.toFixed(2)} s`);
  const share = pipeline.total / duration;
  allOk &&= share < TARGETS.previewShare;
  console.log(
    `  total           ${pipeline.total.toFixed(2)} s = ${share.toFixed(3)} of footage length (target < ${TARGETS.previewShare.toFixed(3)}) ${mark(share < TARGETS.previewShare)}; preview ${pipeline.outputSeconds.toFixed(1)} s from ${pipeline.segments} segments`,
  );
  const cpu = pipeline.cpuSeconds ?? Number.NaN;
  if (Number.isFinite(cpu)) {
    const cores = Math.min(os.cpus().length, DEFAULT_THREADS);
    console.log(`  ffmpeg CPU      ${cpu.toFixed(1)} s = ${(cpu / (cores * duration)).toFixed(3)} of footage length on ${cores} fully free cores (the bound when nothing else runs)`);
  }
  console.log(
    autoEditor === undefined
      ? "  auto-editor     not on PATH — comparison skipped"
      : `  auto-editor     ${autoEditor.toFixed(2)} s (default run) · ours / auto-editor = ${(pipeline.total / autoEditor).toFixed(2)}`,
  );
  console.log("\nCut accuracy (default settings)");
  for (const r of rooms) {
    const a = r.accuracy;
    const ok = {
      kept: a.speechKept >= TARGETS.speechKept,
      removed: a.silenceRemoved >= TARGETS.silenceRemoved,
      gaps: a.gapsCut === a.gapsToCut,
    };
    allOk &&= ok.kept && ok.removed && ok.gaps;
    console.log(
      `  ${r.room.padEnd(6)} room ${ROOMS[r.room]} dBFS (floor measured ${r.noiseFloorDb.toFixed(1)} dBFS) · speech kept ${pct(a.speechKept)} ${mark(ok.kept)}, words clipped ${a.wordsClipped} · silence removed ${pct(a.silenceRemoved)} ${mark(ok.removed)} · gaps ≥ ${GAP_MUST_CUT_SECONDS} s cut ${a.gapsCut}/${a.gapsToCut} ${mark(ok.gaps)}`,
    );
  }
  console.log(`\n${allOk ? "All targets met." : "Some targets missed."}`);
  return allOk;
}

interface TalkResult {
  talk: GeneratedTalk;
  decodeSeconds: number;
  analysisSeconds: number;
  noiseFloorDb: number;
  accuracy: Accuracy;
}

async function measureTalk(talk: GeneratedTalk): Promise<TalkResult> {
  const info = await probe(talk.file);
  const decode = await timed(() => plainDecode(talk.file));
  const analysis = await timed(() => analyzeFile(talk.file, { info }));
  const truth: TalkTruth = { version: 0, duration: talk.duration, speech: talk.speech };
  return { talk, decodeSeconds: decode.seconds, analysisSeconds: analysis.seconds, noiseFloorDb: analysis.value.noiseFloorDb, accuracy: accuracy(truth, analysis.value) };
}

function reportTalks(results: TalkResult[]): boolean {
  let allOk = true;
  console.log(`\nCut accuracy on ${results.length} other generated talks (targets: speech kept ≥ ${pct(TARGETS.speechKept)}, silence removed ≥ ${pct(TARGETS.silenceRemoved)}, every gap ≥ ${GAP_MUST_CUT_SECONDS} s cut)`);
  for (const r of results) {
    const { spec } = r.talk;
    const a = r.accuracy;
    const ok = { kept: a.speechKept >= TARGETS.speechKept, removed: a.silenceRemoved >= TARGETS.silenceRemoved, gaps: a.gapsCut === a.gapsToCut };
    allOk &&= ok.kept && ok.removed && ok.gaps;
    const room = `${spec.colour} ${spec.roomDb} dBFS, voice ${spec.voice} ${spec.speed} wpm ${spec.voiceGainDb} dB${spec.reverb ? ", reverb" : ""}`;
    const speed = r.decodeSeconds / r.analysisSeconds;
    console.log(
      `  ${spec.name.padEnd(9)} (${room}; floor ${r.noiseFloorDb.toFixed(1)} dBFS; analysis ${speed.toFixed(2)}× plain decode)\n` +
        `            speech kept ${pct(a.speechKept)} ${mark(ok.kept)} · silence removed ${pct(a.silenceRemoved)} ${mark(ok.removed)} · gaps ≥ ${GAP_MUST_CUT_SECONDS} s cut ${a.gapsCut}/${a.gapsToCut} ${mark(ok.gaps)} · words clipped ${a.wordsClipped}`,
    );
  }
  return allOk;
}

async function main(): Promise<void> {
  console.log("Preparing the talk (cached in .tmp/bench/) …");
  const talk = await ensureBenchTalk(BENCH_DIR);
  await rm(OUT_DIR, { recursive: true, force: true });
  await mkdir(OUT_DIR, { recursive: true });
  const rooms: RoomResult[] = [];
  for (const room of Object.keys(ROOMS) as Room[]) rooms.push(await measureRoom(room, talk.files[room], talk.truth));
  const pipeline = await measurePipeline(talk.files.quiet);
  const autoEditor = await measureAutoEditor(talk.files.quiet);
  const ok = report(talk.truth.duration, rooms, pipeline, autoEditor);
  console.log("\nPreparing the other talks (cached in .tmp/bench/talks/) …");
  const talks: TalkResult[] = [];
  for (const other of await ensureTalks(BENCH_DIR)) talks.push(await measureTalk(other));
  const talksOk = reportTalks(talks);
  console.log(`\n${ok && talksOk ? "All targets met on every talk." : "Some targets missed."}`);
  process.exitCode = ok && talksOk ? 0 : 1;
}

await main();
