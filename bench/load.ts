/**
 * `npm run bench:load` — first load of each main route in Chromium, throttled and not, in one run (issue 18).
 *
 * Builds the app into .tmp/bench/load-dist when its sources changed (precompressed like `npm run build`),
 * starts the real server on a free loopback port with one verified user, and opens every route in a fresh
 * page with the HTTP cache disabled and service workers blocked (a first visit): signed-out pages as a
 * stranger, the app's pages after signing in. Each route is loaded twice, with Chrome's network throttled
 * (1.6 Mbps down, 750 kbps up, 150 ms latency, via CDP Network.emulateNetworkConditions) and unthrottled as
 * the baseline. Prints per route: JS bytes on the wire (compressed) and decoded, scripts, all bytes on the
 * wire, first contentful paint (PerformanceObserver 'paint'), the throttled/unthrottled ratios, and the
 * budget (login ≤ 150 KB of JS compressed, FCP ≤ 2.0 s throttled) met or missed.
 * `--no-build` uses the app already in the output folder; `--dist=DIR` measures the app built in DIR;
 * `--routes=/login,/` measures only those routes; `--list` prints every script each route loads.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from "@playwright/test";
import { buildIfNeeded } from "../server/build";
import { BENCH_PASSWORD, startBenchServer, type BenchServer } from "./storyboard-seed";

const BENCH_DIR = path.resolve(".tmp/bench");
const distArg = process.argv.find((a) => a.startsWith("--dist="))?.slice("--dist=".length);
const DIST_DIR = distArg ? path.resolve(distArg) : path.join(BENCH_DIR, "load-dist");
const DATA_DIR = path.join(BENCH_DIR, "load-data");
/** `--list` prints every script each route loads (wire / decoded). */
const LIST = process.argv.includes("--list");
/** `--routes=/login,/` measures only these routes. */
const ONLY = process.argv.find((a) => a.startsWith("--routes="))?.slice("--routes=".length).split(",");
const VIEWPORT = { width: 1366, height: 800 };
/** Issue 18's slow connection: 1.6 Mbps down, 750 kbps up, 150 ms round trips. */
const THROTTLED = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 };
const UNTHROTTLED = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
const TARGETS = { loginJsBytes: 150 * 1024, throttledFcpMs: 2_000 };
/** The page is done loading once no request started for this long after the load event. */
const QUIET_MS = 1_500;
const LOAD_TIMEOUT_MS = 90_000;
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

interface Route {
  path: string;
  signedIn: boolean;
}
const ROUTES: Route[] = [
  { path: "/login", signedIn: false },
  { path: "/register", signedIn: false },
  { path: "/pricing", signedIn: false },
  { path: "/verify-email", signedIn: false },
  { path: "/forgot-password", signedIn: false },
  { path: "/", signedIn: true },
  { path: "/open", signedIn: true },
  { path: "/library", signedIn: true },
  { path: "/account", signedIn: true },
];

interface Measure {
  jsWire: number;
  jsDecoded: number;
  /** Of jsWire: the scripts fetched by a worker (the sync worker), not by the page. */
  workerWire: number;
  scripts: number;
  allWire: number;
  requests: number;
  fcpMs: number | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const seconds = (ms: number | null) => (ms === null ? "—" : `${(ms / 1000).toFixed(2)} s`);
const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? "—" : `${(a / b).toFixed(1)}×`);

/** Counts every response of the page through CDP: bytes on the wire (encoded) and decoded, scripts apart. */
async function loadOnce(context: BrowserContext, base: string, route: string, conditions: typeof THROTTLED): Promise<Measure> {
  const page = await context.newPage();
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", conditions);
  const requests = new Map<string, { url: string; script: boolean; worker: boolean; wire: number; decoded: number }>();
  let lastActivity = Date.now();
  cdp.on("Network.requestWillBeSent", (e: { requestId: string; type?: string; request: { url: string } }) => {
    lastActivity = Date.now();
    if (!requests.has(e.requestId)) requests.set(e.requestId, { url: e.request.url, script: e.type === "Script", worker: false, wire: 0, decoded: 0 });
  });
  cdp.on("Network.responseReceived", (e: { requestId: string; type: string; response: { mimeType: string } }) => {
    lastActivity = Date.now();
    const entry = requests.get(e.requestId);
    if (entry) entry.script ||= e.type === "Script" || /javascript/.test(e.response.mimeType);
  });
  cdp.on("Network.dataReceived", (e: { requestId: string; dataLength: number }) => {
    lastActivity = Date.now();
    const entry = requests.get(e.requestId);
    if (entry) entry.decoded += e.dataLength;
  });
  cdp.on("Network.loadingFinished", (e: { requestId: string; encodedDataLength: number }) => {
    lastActivity = Date.now();
    const entry = requests.get(e.requestId);
    if (entry) entry.wire = e.encodedDataLength;
  });
  // The sync worker's script is fetched by the worker's own target, whose bytes CDP reports there, not on
  // the page: Playwright's request events follow workers too, so those sizes come from here.
  const fromPlaywright = new Map<string, { wire: number; decoded: number }>();
  const pending: Promise<void>[] = [];
  page.on("requestfinished", (request) => {
    if (!request.url().endsWith(".js")) return;
    pending.push(
      (async () => {
        const sizes = await request.sizes();
        const response = await request.response();
        const body = await response?.body().catch(() => undefined);
        // A worker's body size is not always reported: the (compressed) length the server declared then.
        const declared = Number((await response?.allHeaders())?.["content-length"] ?? 0);
        fromPlaywright.set(request.url(), { wire: Math.max(sizes.responseBodySize, declared) + sizes.responseHeadersSize, decoded: body?.length ?? 0 });
      })().catch(() => undefined),
    );
  });
  try {
    await page.goto(`${base}${route}`, { waitUntil: "load", timeout: LOAD_TIMEOUT_MS });
    // Lazy route chunks and the locale's catalog arrive after the load event.
    const until = Date.now() + LOAD_TIMEOUT_MS;
    while (Date.now() - lastActivity < QUIET_MS && Date.now() < until) await sleep(200);
    const fcpMs = await page.evaluate(
      () =>
        new Promise<number | null>((resolve) => {
          const timer = setTimeout(() => resolve(null), 5_000);
          new PerformanceObserver((list) => {
            const fcp = list.getEntries().find((e) => e.name === "first-contentful-paint");
            if (fcp) {
              clearTimeout(timer);
              resolve(fcp.startTime);
            }
          }).observe({ type: "paint", buffered: true });
        }),
    );
    await Promise.all(pending);
    const all = [...requests.values()];
    for (const r of all) {
      const seen = fromPlaywright.get(r.url);
      if (r.wire === 0 && seen) Object.assign(r, { script: true, worker: true, wire: seen.wire, decoded: seen.decoded });
    }
    const scripts = all.filter((r) => r.script);
    if (LIST) for (const r of scripts) console.log(`  ${route} ${new URL(r.url).pathname} ${kb(r.wire)} / ${kb(r.decoded)}`);
    return {
      jsWire: scripts.reduce((sum, r) => sum + r.wire, 0),
      jsDecoded: scripts.reduce((sum, r) => sum + r.decoded, 0),
      workerWire: scripts.filter((r) => r.worker).reduce((sum, r) => sum + r.wire, 0),
      scripts: scripts.length,
      allWire: all.reduce((sum, r) => sum + r.wire, 0),
      requests: all.length,
      fcpMs,
    };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
  }
}

async function signIn(context: BrowserContext, base: string, email: string) {
  const page: Page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(BENCH_PASSWORD);
  await page.getByLabel("Password").press("Enter");
  await page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 30_000 });
  await page.close();
}

async function main() {
  if (!process.argv.includes("--no-build") && !distArg) await buildIfNeeded(DIST_DIR);
  await rm(DATA_DIR, { recursive: true, force: true });
  let bench: BenchServer | undefined;
  let browser: Browser | undefined;
  try {
    bench = await startBenchServer(DATA_DIR, DIST_DIR);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
    // Service workers blocked: every load is a first visit, fetched from the server.
    const stranger = await browser.newContext({ viewport: VIEWPORT, locale: "en-US", serviceWorkers: "block" });
    const member = await browser.newContext({ viewport: VIEWPORT, locale: "en-US", serviceWorkers: "block" });
    await signIn(member, bench.base, bench.email);

    const rows: { route: Route; slow: Measure; fast: Measure }[] = [];
    for (const route of ONLY ? ROUTES.filter((r) => ONLY.includes(r.path)) : ROUTES) {
      const context = route.signedIn ? member : stranger;
      // Unthrottled first also warms the server (SQLite, file handles) for both.
      const fast = await loadOnce(context, bench.base, route.path, UNTHROTTLED);
      const slow = await loadOnce(context, bench.base, route.path, THROTTLED);
      rows.push({ route, slow, fast });
      console.log(`measured ${route.path}${route.signedIn ? " (signed in)" : ""}`);
    }

    const header = ["route", "JS wire", "of it worker", "JS decoded", "scripts", "all wire", "req", "FCP 1.6 Mbps", "FCP local", "FCP ratio", "JS wire local"];
    const lines = rows.map(({ route, slow, fast }) => [
      route.path + (route.signedIn ? " *" : ""),
      kb(slow.jsWire),
      kb(slow.workerWire),
      kb(slow.jsDecoded),
      String(slow.scripts),
      kb(slow.allWire),
      String(slow.requests),
      seconds(slow.fcpMs),
      seconds(fast.fcpMs),
      ratio(slow.fcpMs, fast.fcpMs),
      kb(fast.jsWire),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
    const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
    console.log("\nFirst load, HTTP cache off, no service worker; throttled = 1.6 Mbps down / 750 kbps up / 150 ms (* = signed in)\n");
    console.log(format(header));
    for (const line of lines) console.log(format(line));

    const login = rows.find((r) => r.route.path === "/login");
    const verdict = (met: boolean) => (met ? "met" : "MISSED");
    console.log("\nTargets");
    if (login) console.log(`  login JS compressed ≤ ${kb(TARGETS.loginJsBytes)}: ${kb(login.slow.jsWire)} (page ${kb(login.slow.jsWire - login.slow.workerWire)}, sync worker ${kb(login.slow.workerWire)}; decoded ${kb(login.slow.jsDecoded)}, ${(login.slow.jsDecoded / Math.max(1, login.slow.jsWire)).toFixed(1)}× smaller on the wire) — ${verdict(login.slow.jsWire <= TARGETS.loginJsBytes)}`);
    for (const { route, slow } of rows) {
      console.log(`  FCP ${route.path} at 1.6 Mbps ≤ ${seconds(TARGETS.throttledFcpMs)}: ${seconds(slow.fcpMs)} — ${verdict(slow.fcpMs !== null && slow.fcpMs <= TARGETS.throttledFcpMs)}`);
    }
  } finally {
    await browser?.close();
    await bench?.server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
