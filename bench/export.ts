/**
 * `npm run bench:export` — the final 1080p render of a 10-minute edited talk (issue 13 Proof).
 *
 * The source is made here from the project's own material: tests/fixtures/talk.mp4 looped, scaled
 * to 1080p 30 fps with a slow colour drift and a moving test card in a corner (every frame differs),
 * encoded once as 2 minutes of H.264 (High profile, a keyframe every second as phones write) and
 * joined five times by stream copy. Cached in `.tmp/bench/export/`.
 *
 * The edit keeps stretches of 4–25 s and cuts gaps of 0.3–2 s (seeded). Measured in this run:
 *  - a bare ffmpeg x264 encode of the same edit (one input, split + trim + concat, same preset/crf);
 *  - our full render (smart render off), target ≤ 1.15× the bare encode;
 *  - our smart render, target ≤ 0.3× the bare encode;
 *  - frame-exactness of the smart render against the full one: frame count, SSIM on the frames
 *    around every cut, audio/video drift, a clean decode.
 *
 *   npm run bench:export [-- --minutes 2] [-- --check-only: the check alone, on the last run's renders]
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { runFfmpeg, runFfprobe } from "../server/media/ffmpeg";
import { fixed } from "../server/media/render-graph";
import { RENDER_DEFAULTS, type EditSegment } from "../server/media/render-plan";
import { renderPreview, type RenderPath } from "../server/media/render";
import { TIER_SIZES } from "../server/domain/export-tiers";
import { seededRandom } from "../tests/reliability";
import { childCpuSeconds } from "./cpu";

const DIR = path.resolve(".tmp/bench/export");
/** Bump when the generated material changes, so the cached source is rebuilt. */
const SOURCE_VERSION = 1;
const BASE_SECONDS = 120;
const FPS = 30;
const GOP = 30;
const SEED = 20_261_124;
const KEEP = { min: 4, max: 25 };
const GAP = { min: 0.3, max: 2 };
const TARGETS = { full: 1.15, smart: 0.3, ssim: 0.99 };
const TALK = path.resolve("tests/fixtures/talk.mp4");

function minutesArg(): number {
  const i = process.argv.indexOf("--minutes");
  const value = i >= 0 ? Number(process.argv[i + 1]) : 10;
  return Number.isFinite(value) && value > 0 ? value : 10;
}


async function ensureSource(seconds: number): Promise<string> {
  await mkdir(DIR, { recursive: true });
  const base = path.join(DIR, `base-v${SOURCE_VERSION}.mp4`);
  const file = path.join(DIR, `talk-1080p-v${SOURCE_VERSION}-${seconds}s.mp4`);
  if (existsSync(file)) return file;
  if (!existsSync(base)) {
    console.log(`making ${BASE_SECONDS} s of 1080p material from ${path.relative(process.cwd(), TALK)}…`);
    const graph = [
      `[0:v]fps=${FPS},scale=1440:1080:flags=bicubic,hue=h=t*3,pad=1920:1080:240:0:color=0x202028,setsar=1[bg]`,
      `[bg][1:v]overlay=x=1400:y=60:shortest=1,format=yuv420p[v]`,
      `[0:a]aresample=48000[a]`,
    ].join(";");
    await runFfmpeg({
      globalOptions: ["-filter_complex", graph],
      inputs: [
        { file: TALK, options: ["-stream_loop", "-1"] },
        { file: `testsrc2=size=480x270:rate=${FPS}`, lavfi: true },
      ],
      outputOptions: [
        "-map", "[v]", "-map", "[a]", "-t", String(BASE_SECONDS),
        "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-profile:v", "high", "-g", String(GOP), "-keyint_min", String(GOP), "-sc_threshold", "0",
        "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart",
      ],
      output: base,
    });
  }
  // Joined by stream copy; each copy ends exactly at its length, so the picture's times stay on the 30 fps grid.
  const copies = Math.ceil(seconds / BASE_SECONDS);
  const list = path.join(DIR, "loop.txt");
  await writeFile(list, `${Array.from({ length: copies }, () => `file '${path.basename(base)}'\nduration ${BASE_SECONDS}\noutpoint ${BASE_SECONDS}`).join("\n")}\n`);
  await runFfmpeg({
    inputs: [{ file: list, format: "concat", internal: true }],
    outputOptions: ["-map", "0:v:0", "-map", "0:a:0", "-c", "copy", "-t", String(seconds), "-movflags", "+faststart"],
    output: file,
  });
  return file;
}

/** Stretches of 4–25 s kept, gaps of 0.3–2 s cut, until the source ends. */
function makeEdit(file: string, seconds: number): EditSegment[] {
  const random = seededRandom(SEED).next;
  const segments: EditSegment[] = [];
  let t = 0.2 + random();
  while (t < seconds - 1) {
    const end = Math.min(seconds - 0.5, t + KEEP.min + random() * (KEEP.max - KEEP.min));
    segments.push({ file, kind: "video", start: t, end });
    t = end + GAP.min + random() * (GAP.max - GAP.min);
  }
  return segments;
}

/** The same edit as a plain ffmpeg graph: one decode, split into trims, concatenated. */
async function bareEncode(source: string, segments: readonly EditSegment[], output: string) {
  const n = segments.length;
  const labels = (p: string) => segments.map((_, i) => `[${p}${i}]`).join("");
  const graph = [
    `[0:v:0]split=${n}${labels("s")}`,
    `[0:a:0]asplit=${n}${labels("as")}`,
    ...segments.map((s, i) => `[s${i}]trim=start=${fixed(s.start)}:end=${fixed(s.end)},setpts=PTS-STARTPTS[v${i}]`),
    ...segments.map((s, i) => `[as${i}]atrim=start=${fixed(s.start)}:end=${fixed(s.end)},asetpts=PTS-STARTPTS[a${i}]`),
    `${segments.map((_, i) => `[v${i}][a${i}]`).join("")}concat=n=${n}:v=1:a=1[v][a]`,
  ].join(";\n");
  const script = path.join(DIR, "bare-graph.txt");
  await writeFile(script, graph);
  await runFfmpeg({
    globalOptions: ["-filter_complex_script", script],
    inputs: [{ file: source }],
    outputOptions: [
      "-map", "[v]", "-map", "[a]",
      "-c:v", "libx264", "-preset", RENDER_DEFAULTS.preset, "-crf", String(RENDER_DEFAULTS.crf), "-pix_fmt", "yuv420p",
      "-c:a", "aac", "-b:a", RENDER_DEFAULTS.audioBitrate, "-movflags", "+faststart",
    ],
    output,
  });
}


interface Timed<T> {
  value: T;
  seconds: number;
  /** ffmpeg's CPU seconds (user + system): steadier than wall time on a shared machine. */
  cpu?: number;
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<Timed<T>> {
  process.stdout.write(`${label}… `);
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  const value = await work();
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = childCpuSeconds();
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  console.log(`${seconds.toFixed(1)} s${cpu === undefined ? "" : ` (${cpu.toFixed(1)} CPU s)`}`);
  return { value, seconds, cpu };
}

/** "1.02× wall, 0.98× CPU" */
function ratio(a: Timed<unknown>, b: Timed<unknown>): { wall: number; cpu?: number; text: string } {
  const wall = a.seconds / b.seconds;
  const cpu = a.cpu !== undefined && b.cpu ? a.cpu / b.cpu : undefined;
  return { wall, cpu, text: `${wall.toFixed(2)}× wall${cpu === undefined ? "" : `, ${cpu.toFixed(2)}× CPU`}` };
}

async function streams(file: string) {
  const out = JSON.parse(await runFfprobe(["-count_packets", "-show_entries", "stream=codec_type,duration,nb_read_packets", "-of", "json", file], { format: "mov" })) as {
    streams: { codec_type: string; duration: string; nb_read_packets: string }[];
  };
  const video = out.streams.find((s) => s.codec_type === "video");
  const audio = out.streams.find((s) => s.codec_type === "audio");
  return { frames: Number(video?.nb_read_packets), video: Number(video?.duration), audio: Number(audio?.duration) };
}

/** Lowest SSIM between the two renders over the frames `radius` either side of each cut. */
async function lowestSsim(a: string, b: string, cuts: readonly number[], radius: number): Promise<{ lowest: number; compared: number }> {
  // One between() per cut: ffmpeg's expression parser gives up on a few hundred terms.
  const pick = `select='${cuts.map((c) => `between(n\\,${Math.max(0, c - radius)}\\,${c + radius})`).join("+")}',settb=1/${FPS},setpts=N`;
  const script = path.join(DIR, "ssim-graph.txt");
  const stats = path.join(DIR, "ssim.log");
  await writeFile(script, `[0:v]${pick}[a];\n[1:v]${pick}[b];\n[a][b]ssim=stats_file=${stats}`);
  await runFfmpeg({ globalOptions: ["-filter_complex_script", script], inputs: [{ file: a, format: "mov" }, { file: b, format: "mov" }], outputOptions: ["-an"], output: null });
  const values = (await readFile(stats, "utf8"))
    .trim()
    .split("\n")
    .map((line) => Number(/All:([0-9.]+)/.exec(line)?.[1]));
  return { lowest: Math.min(...values), compared: values.length };
}

async function decodeErrors(file: string): Promise<number> {
  let errors = 0;
  await runFfmpeg({ inputs: [{ file, format: "mov" }], outputOptions: [], output: null }, { logLevel: "error", onStderrLine: () => errors++ });
  return errors;
}

/** The smart render against the full one: frame count, SSIM around every cut, sync, a clean decode. */
async function check(segments: readonly EditSegment[], out: (name: string) => string) {
  process.stdout.write("checking the smart render against the full one… ");
  const [a, b] = await Promise.all([streams(out("full")), streams(out("smart"))]);
  // Output frame of each cut, by the plan's cumulative rounding.
  let total = 0;
  const cutFrames = segments.map((s) => {
    const at = Math.round(total * FPS);
    total += s.end - s.start;
    return at;
  });
  const ssim = await lowestSsim(out("full"), out("smart"), cutFrames, 2);
  const errors = await decodeErrors(out("smart"));
  console.log("done");

  const drift = Math.abs(b.video - b.audio);
  const mark = (ok: boolean) => (ok ? "ok" : "MISSED");
  console.log(`frame-exactness    frames ${b.frames} smart / ${a.frames} full ${mark(a.frames === b.frames)}; lowest SSIM at ${ssim.compared} frames around ${cutFrames.length} cuts ${ssim.lowest.toFixed(4)} (≥ ${TARGETS.ssim}) ${mark(ssim.lowest >= TARGETS.ssim)}`);
  console.log(`sync               audio/video drift ${(drift * 1000).toFixed(1)} ms (≤ 1 frame = ${(1000 / FPS).toFixed(1)} ms) ${mark(drift <= 1 / FPS)}; decoder errors ${errors} ${mark(errors === 0)}`);
}

async function main() {
  const seconds = Math.round(minutesArg() * 60);
  const source = await ensureSource(seconds);
  const segments = makeEdit(source, seconds);
  const kept = segments.reduce((sum, s) => sum + s.end - s.start, 0);
  console.log(`source: ${path.relative(process.cwd(), source)} (${seconds} s, 1080p30 H.264); edit: ${segments.length} stretches, ${kept.toFixed(0)} s kept`);
  const size = TIER_SIZES[2];
  const options = { ...size, smoothCuts: true };
  const out = (name: string) => path.join(DIR, `${name}.mp4`);
  if (process.argv.includes("--check-only")) return check(segments, out);

  const bare = await timed("bare ffmpeg x264 encode of the edit", () => bareEncode(source, segments, out("bare")));
  const full = await timed("our full render", () => renderPreview(segments, out("full"), { ...options, smart: false }));
  let chosen: RenderPath | undefined;
  const smart = await timed("our smart render", () => renderPreview(segments, out("smart"), { ...options, smart: true, onRenderPath: (p) => (chosen = p) }));

  const fullRatio = ratio(full, bare);
  const smartRatio = ratio(smart, bare);
  const mark = (ok: boolean) => (ok ? "ok" : "MISSED");
  // On a shared machine other work steals wall time unevenly; CPU seconds decide when they are known.
  const within = (r: { wall: number; cpu?: number }, target: number) => (r.cpu ?? r.wall) <= target;
  console.log("");
  console.log(`bare encode        ${bare.seconds.toFixed(1)} s${bare.cpu === undefined ? "" : ` (${bare.cpu.toFixed(1)} CPU s)`}`);
  console.log(`full render        ${full.seconds.toFixed(1)} s  ${fullRatio.text} the bare encode  (target ≤ ${TARGETS.full}×) ${mark(within(fullRatio, TARGETS.full))}`);
  console.log(`smart render       ${smart.seconds.toFixed(1)} s  ${smartRatio.text} the bare encode; ${ratio(smart, full).text} the full render  (target ≤ ${TARGETS.smart}×) ${mark(within(smartRatio, TARGETS.smart))}`);
  console.log(`  path: ${smart.value.path}${chosen?.reason ? ` (${chosen.reason})` : ""}${chosen?.smart ? `; ${chosen.smart.copiedFrames} frames copied in ${chosen.smart.copiedPieces} pieces, ${chosen.smart.encodedFrames} encoded in ${chosen.smart.encodedPieces}` : ""}`);
  await check(segments, out);
  await rm(out("bare"), { force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
