/**
 * `npm run bench:storyboard` — a storyboard of 2,000 scenes against one of 25, in Chromium, same run.
 *
 * Seeds a real server (SQLite, pipeline) with one processed talk and two copies of it (25 and 2,000
 * scenes, same thumbnail), signs in through the app and opens each storyboard several times, the
 * mirror emptied first ("cold") and then again with it full ("warm"). Prints medians of:
 *  - time to first cards: navigation start (a full page load) → the first screen of scene cards
 *    rendered: up to 25 cards, or as many as the virtual list mounts, or the screen full of cards;
 *  - time to fully loaded: navigation start → the mirror's storyboard meta says loaded = total;
 *  - frames while scrolling (a steady 3,000 px/s, and one sweep top → bottom in 5 s) and while dragging
 *    a card near the bottom edge: intervals > 1.5 frames count as dropped; p95 frame time;
 *  - the page's JS heap (after a forced GC) and DOM elements, after loading and after scrolling.
 * Targets: first cards ≤ 1 s with 2,000 scenes and ≤ 1.5× the 25-scene time; dropped frames ≤ 5 %;
 * heap ≤ 3× and DOM elements ≤ 2× the 25-scene project (the list is virtualised).
 * `--profile` also writes a CPU profile of the 2,000-scene load and scroll and prints its hottest functions;
 * `--no-build` uses the app already in .tmp/bench/dist (e.g. while someone's edit breaks the build);
 * `--repeats=N` runs each size N times (3 by default).
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { buildIfNeeded } from "../server/build";
import { BENCH_PASSWORD, copyProject, processedProject, startBenchServer, type BenchServer } from "./storyboard-seed";
import { installProbe, NAME_SHIM, type CardTimeline, type PageStats, type ScrollPlan } from "./storyboard-probe";
import { dragFrames, type DragResult } from "./storyboard-drag";
import { hottest, type CpuProfile } from "./storyboard-profile";

const BENCH_DIR = path.resolve(".tmp/bench");
const DIST_DIR = path.join(BENCH_DIR, "dist");
const DATA_DIR = path.join(BENCH_DIR, "storyboard-data");
const PROFILE_DIR = path.join(BENCH_DIR, "storyboard-profiles");
const ERROR_SHOT = path.join(BENCH_DIR, "storyboard-error.png");
const SIZES = { small: 25, large: 2_000 } as const;
type Size = keyof typeof SIZES;
/** Runs of each size, medians reported; `--repeats=N` asks for more on a busy machine. */
const REPEATS = Number(process.argv.find((a) => a.startsWith("--repeats="))?.slice("--repeats=".length) ?? 3);
/** The first screen: at most this many cards (the first batch of the loader). */
const FIRST_CARDS = 25;
const VIEWPORT = { width: 1280, height: 800 };
const CARD_NAME = "^Scene \\d+";
const FRAME_MS = 1000 / 60;
const DROPPED_FRAME_MS = 1.5 * FRAME_MS;
const LOAD_TIMEOUT_MS = 60_000;
/** After "loaded", let the list render its last batch before measuring. */
const SETTLE_MS = 750;
const IDLE_FRAMES_MS = 1_000;
const SCROLLS: Record<"steady" | "sweep", ScrollPlan> = {
  steady: { mode: "steady", durationMs: 5_000, pxPerSecond: 3_000 },
  sweep: { mode: "sweep", durationMs: 5_000, pxPerSecond: 0 },
};
/** What Lingui logs for a message that is not in the catalog. */
const UNCOMPILED_WARNING = "Uncompiled message detected";
const TARGETS = { firstCardsMs: 1_000, firstCardsRatio: 1.5, droppedShare: 0.05, heapRatio: 3, domRatio: 2 };
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // performance.memory in exact bytes instead of coarse buckets.
  "--enable-precise-memory-info",
];

interface FrameStats {
  frames: number;
  dropped: number;
  share: number;
  p95: number;
}

interface Run {
  firstCards: number;
  firstScreen: number;
  warmFirstCards: number;
  loaded: number;
  longTaskMs: number;
  idle: FrameStats;
  steady: FrameStats;
  sweep: FrameStats;
  scrollRange: number;
  scroller: string;
  drag: FrameStats | string;
  dragScrolledPx: number;
  afterLoad: PageStats;
  afterScroll: PageStats;
}

function frameStats(intervals: number[]): FrameStats {
  const sorted = [...intervals].sort((a, b) => a - b);
  const dropped = intervals.filter((ms) => ms > DROPPED_FRAME_MS).length;
  return {
    frames: intervals.length,
    dropped,
    share: intervals.length ? dropped / intervals.length : 0,
    p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The page's probe (installProbe), read from here. */
function probe(page: Page) {
  return {
    timeline: () => page.evaluate(() => window.__storyboardBench!.timeline()) as Promise<CardTimeline>,
    stats: () => page.evaluate(() => window.__storyboardBench!.stats()),
  };
}

async function collectGarbage(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.detach();
}

/** The moment the first screen of cards was there: `count` cards rendered, or the screen full, whichever came first. */
function firstCardsAt(timeline: CardTimeline, count: number): number {
  const reached = timeline.at[Math.max(0, count - 1)];
  const candidates = [reached, timeline.filledAt].filter((t): t is number => typeof t === "number");
  if (!candidates.length) throw new Error("no scene cards were rendered (cards are [data-scene-id] elements or named 'Scene n')");
  return Math.min(...candidates);
}

async function signIn(page: Page, base: string, email: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(BENCH_PASSWORD);
  await page.getByLabel("Password").press("Enter");
  await page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 30_000 });
}

/** Somewhere in the app that is not the storyboard, so the next visit is a fresh navigation. */
async function leaveStoryboard(page: Page, base: string) {
  await page.goto(`${base}/open`, { waitUntil: "load" });
  await page.waitForFunction(() => !!window.__storyboardBench);
}

async function openStoryboard(page: Page, base: string, projectId: number) {
  await page.goto(`${base}/projects/${projectId}/storyboard`, { waitUntil: "commit" });
  await page.waitForFunction(() => !!window.__storyboardBench);
}

async function measure(page: Page, context: BrowserContext, bench: BenchServer, projectId: number, scenes: number, profile: boolean): Promise<{ run: Run; cpu?: CpuProfile }> {
  const p = probe(page);
  await leaveStoryboard(page, bench.base);
  await page.evaluate((id) => window.__storyboardBench!.clearMirror(id), projectId);

  const cdp = profile ? await context.newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }

  // Cold: the mirror holds nothing of this project.
  await openStoryboard(page, bench.base, projectId);
  const loaded = await page.evaluate(({ id, timeout }) => window.__storyboardBench!.waitLoaded(id, timeout), { id: projectId, timeout: LOAD_TIMEOUT_MS });
  if (loaded.total !== scenes) throw new Error(`project ${projectId} loaded ${loaded.total} scenes, not ${scenes}`);
  await sleep(SETTLE_MS);
  const timeline = await p.timeline();
  await page.evaluate(() => window.__storyboardBench!.stopWatching());
  const firstScreen = Math.min(FIRST_CARDS, (await p.stats()).renderedCards);
  const firstCards = firstCardsAt(timeline, firstScreen);
  await collectGarbage(context, page);
  const afterLoad = await p.stats();

  const idle = frameStats(await page.evaluate((ms) => window.__storyboardBench!.frames(ms), IDLE_FRAMES_MS));
  const steady = await page.evaluate((plan) => window.__storyboardBench!.scroll(plan), SCROLLS.steady);
  const sweep = await page.evaluate((plan) => window.__storyboardBench!.scroll(plan), SCROLLS.sweep);
  const cpu = cdp ? ((await cdp.send("Profiler.stop")).profile as CpuProfile) : undefined;
  await cdp?.detach();
  const drag: DragResult = await dragFrames(page);
  await collectGarbage(context, page);
  const afterScroll = await p.stats();

  // Warm: the same storyboard again, every scene already in the mirror.
  await leaveStoryboard(page, bench.base);
  await openStoryboard(page, bench.base, projectId);
  await page.waitForFunction(
    (count) => {
      const t = window.__storyboardBench!.timeline();
      return t.at.length >= count || t.filledAt !== null;
    },
    firstScreen,
    { timeout: LOAD_TIMEOUT_MS },
  );
  const warmFirstCards = firstCardsAt(await p.timeline(), firstScreen);
  await page.evaluate(({ id, timeout }) => window.__storyboardBench!.waitLoaded(id, timeout), { id: projectId, timeout: LOAD_TIMEOUT_MS });

  return {
    run: {
      firstCards,
      firstScreen,
      warmFirstCards,
      loaded: loaded.at,
      longTaskMs: timeline.longTasks.totalMs,
      idle,
      steady: frameStats(steady.intervals),
      sweep: frameStats(sweep.intervals),
      scrollRange: steady.range,
      scroller: steady.scroller,
      drag: typeof drag === "string" ? drag : frameStats(drag.intervals),
      dragScrolledPx: typeof drag === "string" ? Number.NaN : drag.scrolledPx,
      afterLoad,
      afterScroll,
    },
    cpu,
  };
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const ms = (v: number) => `${v.toFixed(0)} ms`;
const mb = (v: number) => `${(v / 1024 / 1024).toFixed(1)} MB`;
const count = (v: number) => v.toFixed(0);
const frames = (s: FrameStats) => `${s.dropped}/${s.frames} (${(s.share * 100).toFixed(1)} %) p95 ${s.p95.toFixed(1)} ms`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");

interface Row {
  metric: string;
  small: string;
  large: string;
  ratio: string;
  target: string;
}

function report(runs: Record<Size, Run[]>, drag: string | undefined): Row[] {
  const pick = (size: Size, f: (r: Run) => number) => median(runs[size].map(f));
  const pickFrames = (size: Size, f: (r: Run) => FrameStats | string): FrameStats | undefined => {
    const all = runs[size].map(f).filter((s): s is FrameStats => typeof s !== "string");
    if (!all.length) return undefined;
    // The run with the median share of dropped frames stands for all of them.
    return [...all].sort((a, b) => a.share - b.share)[Math.floor(all.length / 2)];
  };
  const rows: Row[] = [];
  const numeric = (metric: string, f: (r: Run) => number, format: (v: number) => string, target?: { text: string; ok: (large: number, ratio: number) => boolean }) => {
    const small = pick("small", f);
    const large = pick("large", f);
    const ratio = large / small;
    rows.push({
      metric,
      small: format(small),
      large: format(large),
      ratio: Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : "—",
      target: target ? `${target.text} ${mark(target.ok(large, ratio))}` : "",
    });
  };
  const framed = (metric: string, f: (r: Run) => FrameStats | string, targeted: boolean) => {
    const small = pickFrames("small", f);
    const large = pickFrames("large", f);
    if (!small || !large) return;
    rows.push({
      metric,
      small: frames(small),
      large: frames(large),
      ratio: small.p95 > 0 ? `p95 ${(large.p95 / small.p95).toFixed(2)}×` : "—",
      target: targeted ? `≤ ${TARGETS.droppedShare * 100} % ${mark(large.share <= TARGETS.droppedShare && small.share <= TARGETS.droppedShare)}` : "",
    });
  };

  numeric("first cards (cold mirror)", (r) => r.firstCards, ms, {
    text: `≤ ${TARGETS.firstCardsMs} ms, ≤ ${TARGETS.firstCardsRatio}×`,
    ok: (large, ratio) => large <= TARGETS.firstCardsMs && ratio <= TARGETS.firstCardsRatio,
  });
  numeric("cards in the first screen", (r) => r.firstScreen, count);
  numeric("first cards (warm mirror)", (r) => r.warmFirstCards, ms, { text: `≤ ${TARGETS.firstCardsMs} ms`, ok: (large) => large <= TARGETS.firstCardsMs });
  numeric("fully loaded (cold mirror)", (r) => r.loaded, ms);
  numeric("long tasks while loading", (r) => r.longTaskMs, ms);
  framed("idle frames dropped (machine)", (r) => r.idle, false);
  framed(`scroll ${SCROLLS.steady.pxPerSecond} px/s, ${SCROLLS.steady.durationMs / 1000} s`, (r) => r.steady, true);
  framed(`scroll top→bottom in ${SCROLLS.sweep.durationMs / 1000} s`, (r) => r.sweep, true);
  if (!drag) {
    framed("drag near the bottom edge, 2 s", (r) => r.drag, true);
    numeric("  auto-scrolled while dragging", (r) => r.dragScrolledPx, (v) => `${v.toFixed(0)} px`);
  }
  numeric("scroll range", (r) => r.scrollRange, (v) => `${v.toFixed(0)} px`);
  numeric("JS heap after load", (r) => r.afterLoad.heapBytes ?? Number.NaN, mb, { text: `≤ ${TARGETS.heapRatio}×`, ok: (_, ratio) => ratio <= TARGETS.heapRatio });
  numeric("JS heap after scroll", (r) => r.afterScroll.heapBytes ?? Number.NaN, mb, { text: `≤ ${TARGETS.heapRatio}×`, ok: (_, ratio) => ratio <= TARGETS.heapRatio });
  numeric("DOM elements after load", (r) => r.afterLoad.domElements, count, { text: `≤ ${TARGETS.domRatio}×`, ok: (_, ratio) => ratio <= TARGETS.domRatio });
  numeric("DOM elements after scroll", (r) => r.afterScroll.domElements, count, { text: `≤ ${TARGETS.domRatio}×`, ok: (_, ratio) => ratio <= TARGETS.domRatio });
  numeric("cards rendered after scroll", (r) => r.afterScroll.renderedCards, count);
  return rows;
}

function printTable(rows: Row[]) {
  const header: Row = { metric: "metric", small: "25 scenes", large: "2,000 scenes", ratio: "2,000 / 25", target: "target" };
  const all = [header, ...rows];
  const width = (k: keyof Row) => Math.max(...all.map((r) => r[k].length));
  const line = (r: Row) => `| ${(["metric", "small", "large", "ratio", "target"] as const).map((k) => r[k].padEnd(width(k))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${(["metric", "small", "large", "ratio", "target"] as const).map((k) => "-".repeat(width(k) + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const profile = process.argv.includes("--profile");
  if (!process.argv.includes("--no-build")) {
    console.log("Building the app into .tmp/bench/dist (only when sources changed) …");
    buildIfNeeded(DIST_DIR);
  }
  if (!Number.isInteger(REPEATS) || REPEATS < 1) throw new Error("--repeats wants a whole number ≥ 1");
  await rm(DATA_DIR, { recursive: true, force: true });
  await rm(ERROR_SHOT, { force: true });
  await mkdir(DATA_DIR, { recursive: true });

  let bench: BenchServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  try {
    console.log("Seeding: the talk through the real pipeline, then 25- and 2,000-scene copies …");
    const seeding = performance.now();
    bench = await startBenchServer(DATA_DIR, DIST_DIR);
    const source = await processedProject(bench);
    const projects: Record<Size, number> = {
      small: await copyProject(bench, source, SIZES.small, "Storyboard 25"),
      large: await copyProject(bench, source, SIZES.large, "Storyboard 2000"),
    };
    console.log(`Seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; measuring (${REPEATS} runs of each, interleaved) …`);

    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: VIEWPORT, locale: "en-US" });
    await context.addInitScript({ content: NAME_SHIM });
    await context.addInitScript(installProbe, { cardName: CARD_NAME, watchLimitMs: LOAD_TIMEOUT_MS });
    page = await context.newPage();
    // Strings missing from the catalog make Lingui warn on every render: the numbers then include that cost.
    let uncompiled = 0;
    page.on("console", (message) => {
      if (message.text().includes(UNCOMPILED_WARNING)) uncompiled += 1;
    });
    await signIn(page, bench.base, bench.email);

    // One unmeasured visit each: the service worker installs and the bundle is cached, as for a returning user.
    for (const size of ["small", "large"] as const) {
      await openStoryboard(page, bench.base, projects[size]);
      await page.evaluate(({ id, timeout }) => window.__storyboardBench!.waitLoaded(id, timeout), { id: projects[size], timeout: LOAD_TIMEOUT_MS });
    }

    const runs: Record<Size, Run[]> = { small: [], large: [] };
    let dragNote: string | undefined;
    for (let i = 0; i < REPEATS; i++) {
      // Interleaved, so drift on a busy machine touches both sizes alike.
      for (const size of ["small", "large"] as const) {
        const wantProfile = profile && size === "large" && i === 0;
        const { run, cpu } = await measure(page, context, bench, projects[size], SIZES[size], wantProfile);
        runs[size].push(run);
        if (typeof run.drag === "string") dragNote = run.drag;
        console.log(
          `  run ${i + 1} ${String(SIZES[size]).padStart(5)} scenes: first cards ${ms(run.firstCards)}, loaded ${ms(run.loaded)}, scroll dropped ${(run.sweep.share * 100).toFixed(1)} %, heap ${mb(run.afterLoad.heapBytes ?? Number.NaN)}`,
        );
        if (cpu) {
          await mkdir(PROFILE_DIR, { recursive: true });
          const file = path.join(PROFILE_DIR, "storyboard-2000.cpuprofile");
          await writeFile(file, JSON.stringify(cpu));
          console.log(`\nCPU profile of the 2,000-scene load and scroll: ${path.relative(process.cwd(), file)} (open it in Chrome DevTools). Hottest self time:`);
          const hot = await hottest(cpu, DIST_DIR);
          for (const f of hot.functions) console.log(`  ${f.selfMs.toFixed(0).padStart(6)} ms  ${f.name}  ${f.where}`);
          console.log("By source file (self time):");
          for (const f of hot.files) console.log(`  ${f.selfMs.toFixed(0).padStart(6)} ms  ${f.name}`);
          console.log("The app's functions by total time (callees included):");
          for (const f of hot.app) console.log(`  ${f.selfMs.toFixed(0).padStart(6)} ms  ${f.name}  ${f.where}`);
          console.log("");
        }
      }
    }

    const [load1 = 0] = os.loadavg();
    console.log(`\nStoryboard in Chromium (headless, ${VIEWPORT.width}×${VIEWPORT.height}); medians of ${REPEATS} runs. Cards are [data-scene-id] elements (or named /${CARD_NAME}/); the list scrolls in ${runs.small[0]?.scroller ?? "?"}.`);
    const cores = os.cpus().length;
    console.log(`Machine: ${cores} cores, load average ${load1.toFixed(2)} at the end. A frame is dropped when it takes > ${DROPPED_FRAME_MS.toFixed(1)} ms.`);
    if (load1 > cores) console.log("The machine is busy (load above its cores): the browser waits for CPU, so times and dropped frames are pessimistic.");
    console.log("");
    printTable(report(runs, dragNote));
    if (dragNote) console.log(`\nDrag: ${dragNote}`);
    if (uncompiled) {
      console.log(
        `\nNote: Lingui warned ${uncompiled} times about messages missing from the catalog (not extracted yet): every card render paid for a console warning, so these numbers are pessimistic. Extract the catalogs and run again.`,
      );
    }
  } catch (error) {
    // What the page showed when the harness failed, to see why.
    if (await page?.screenshot({ path: ERROR_SHOT }).catch(() => undefined)) console.error(`The page at the failure: ${path.relative(process.cwd(), ERROR_SHOT)} (${page?.url()})`);
    throw error;
  } finally {
    await browser?.close();
    await bench?.server.close();
    await rm(DATA_DIR, { recursive: true, force: true });
  }
}

try {
  await main();
  process.exitCode = 0;
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
}
