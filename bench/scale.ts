/**
 * `npm run bench:scale` — scale mode (issue 19) on this machine, every figure measured in this run:
 *  - queue overhead per job: N jobs that do nothing, enqueued then run one at a time, on the local
 *    adapter (jobs table, SQLite file) and on the BullMQ adapter (Redis); wall time per job of each;
 *  - projects per hour: one API process (RUNNER=off, PostgreSQL + Redis) and 1, then 2, worker processes
 *    (`npm run worker`), the same number of projects from tests/fixtures/talk.mp4 through the real pipeline
 *    each time; the 2-worker rate as a ratio of the 1-worker rate, and each worker's share of the projects;
 *  - the storyboard API (POST /projects/:id/storyboard, 250 scenes a request) at a steady 200 requests/s
 *    (open loop: a request leaves every 5 ms whatever the answers do) for a few seconds, p50 and p99, on
 *    a single process on SQLite (the baseline) and on the scale-mode API process on PostgreSQL.
 * Targets (issue 19, this 2-core machine): 2 workers ≥ 0.95× the throughput of 1, each taking ≥ 40 % of
 * the projects; queue overhead < 50 ms a job; storyboard p99 < 50 ms at 200 requests/s in both modes.
 * Needs Redis (REDIS_URL, default redis://127.0.0.1:6379) and PostgreSQL (POSTGRES_URL, an admin URL,
 * default postgres://postgres@127.0.0.1:5432/postgres); every database, key prefix and folder it makes
 * is removed at the end (`--keep` keeps the data folders and their logs). `--projects=N` (default 6), `--seconds=N` of load (default 10), `--jobs=N` (200);
 * `--only=storyboard` measures the storyboard API alone (the scale-mode API then gets one worker and one project).
 * The load's own cost is printed beside it: the client's CPU (this process) and the API process's, per request.
 * Nothing here asserts a speed: it prints what it measured.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { Queue as BullMQueue } from "bullmq";
import pg from "pg";
import { migrate, openDatabase, openSqlite, type Db } from "../server/db/index";
import { BullQueue } from "../server/jobs/bullmq";
import { LocalQueue } from "../server/jobs/local";
import type { Queue } from "../server/jobs/queue";
import { JOB_TYPES, type Handlers } from "../server/jobs/types";
import { tusUpload } from "../tests/integration/tus";
import { copyProject, type BenchServer } from "./storyboard-seed";

const root = path.resolve(import.meta.dirname, "..");
const BENCH_DIR = path.join(root, ".tmp/bench/scale");
const TALK = path.join(root, "tests/fixtures/talk.mp4");
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const PROJECTS = arg("projects", 6);
const LOAD_SECONDS = arg("seconds", 10);
const NOOP_JOBS = arg("jobs", 200);
const ONLY_STORYBOARD = process.argv.includes("--only=storyboard");
const RPS = 200;
const SCENES = 250;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const POSTGRES_URL = process.env.POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const TARGETS = { twoWorkersRatio: 0.95, share: 0.4, overheadMs: 50, p99Ms: 50 };
const run = `${process.pid}_${randomBytes(3).toString("hex")}`;
const children: ChildProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database for one setup, dropped at the end. */
async function freshDatabase(label: string): Promise<string> {
  const name = `cutroom_scale_bench_${label}_${run}`;
  await adminQuery(`create database "${name}"`);
  cleanups.push(() => adminQuery(`drop database if exists "${name}" with (force)`));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropPrefix(prefix: string): Promise<void> {
  const { Redis } = await import("ioredis");
  const client = new Redis(REDIS_URL);
  let cursor = "0";
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    if (keys.length) await client.unlink(...keys);
  } while (cursor !== "0");
  client.disconnect();
}

interface Setup {
  dataDir: string;
  env: Record<string, string>;
}

function spawnNode(setup: Setup, name: string, entry: string, extra: Record<string, string> = {}): ChildProcess {
  const log = fs.openSync(path.join(setup.dataDir, `${name}.log`), "a");
  const child = spawn(process.execPath, ["--import", "tsx", entry], { cwd: root, env: { ...process.env, ...setup.env, ...extra }, stdio: ["ignore", log, log] });
  fs.closeSync(log);
  children.push(child);
  return child;
}

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = 100;

/** CPU time a process has used so far (user + system, ms), from /proc. */
function cpuMsOf(pid: number): number {
  // utime and stime are stat's fields 14 and 15: 12 and 13 after the command's name and its closing parenthesis.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

function makeSetup(label: string, env: Record<string, string>): Setup {
  const dataDir = path.join(BENCH_DIR, `${label}-${run}`);
  fs.mkdirSync(dataDir, { recursive: true });
  if (!process.argv.includes("--keep")) cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  return {
    dataDir,
    env: {
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      CAPTCHA: "off",
      LOG_LEVEL: "info",
      STATIC_DIR: path.join(dataDir, "no-app"),
      STT: "off",
      PUSH: "off",
      JOB_CONCURRENCY: "1",
      RATE_LIMIT_LOGIN: "100000",
      RATE_LIMIT_REGISTER: "100000",
      RATE_LIMIT_UPLOADS: "100000",
      ...env,
    },
  };
}

/** Starts the API process of a setup; answers its base URL once it answers, and its process id. */
async function startApi(setup: Setup, extra: Record<string, string> = {}): Promise<{ base: string; pid: number }> {
  const port = await freePort();
  const child = spawnNode(setup, "api", "server/main.ts", { PORT: String(port), ...extra });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => ((await fetch(`${base}/api/v1/config`)).ok ? true : undefined), 120_000, 200);
  return { base, pid: child.pid! };
}

async function startWorker(setup: Setup, name: string): Promise<ChildProcess> {
  const script: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.worker;
  const child = spawnNode(setup, name, script.replace(/^tsx /, ""), { LOG_LEVEL: "info" });
  const log = path.join(setup.dataDir, `${name}.log`);
  await waitFor(async () => (fs.readFileSync(log, "utf8").includes("Cutroom worker running") ? true : undefined), 120_000, 200);
  return child;
}

/** A verified user (the mail outbox's link) and its token. */
async function signUp(base: string, dataDir: string): Promise<string> {
  const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
  const password = "bench-password";
  const res = await fetch(`${base}/api/v1/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", first_name: "Bea", last_name: "Ench", email, password, password_confirmation: password, terms: true }),
  });
  if (res.status !== 201) throw new Error(`register answered ${res.status}`);
  const outbox = path.join(dataDir, "outbox");
  const mail = await waitFor(async () => {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
    return files.length ? JSON.parse(fs.readFileSync(path.join(outbox, files[0]!), "utf8")) : undefined;
  }, 20_000, 50);
  await fetch(String(mail.links[0]).replace(/^https?:\/\/[^/]+/, base), { redirect: "manual" });
  const login = await fetch(`${base}/api/v1/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  return ((await login.json()) as { api_token: string }).api_token;
}

function client(base: string, token: string) {
  return async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** Uploads the talk once and waits until the library file is ready (its ingest is not a project's work). */
async function readyMedia(base: string, token: string): Promise<number> {
  const api = client(base, token);
  const uploaded = await tusUpload(base, token, TALK, { name: "talk.mp4" });
  const media = await api("POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 });
  const id = media.body.media_file.id as number;
  await waitFor(async () => ((await api("GET", "/library")).body.data.find((m: any) => m.id === id)?.status === "ready" ? true : undefined), 300_000, 250);
  return id;
}

async function createProjects(base: string, token: string, mediaId: number, count: number): Promise<{ ids: number[]; seconds: number }> {
  const api = client(base, token);
  const started = performance.now();
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) ids.push((await api("POST", "/createproject", { name: `Bench ${i}`, locale: "en-US", style: "video", media: [mediaId] })).body.id);
  for (const id of ids) await waitFor(async () => ((await api("GET", `/projects/${id}`)).body.status === "Preview Ready" ? true : undefined), 900_000, 200);
  return { ids, seconds: (performance.now() - started) / 1000 };
}

/** Queue overhead: NOOP_JOBS jobs that do nothing, run one at a time; wall ms per job, and enqueue ms per job. */
async function queueOverhead(queue: Queue): Promise<{ perJobMs: number; enqueueMs: number }> {
  let done = 0;
  const handlers = Object.fromEntries(JOB_TYPES.map((type) => [type, async () => void done++])) as unknown as Handlers;
  const enqueueStarted = performance.now();
  for (let projectId = 1; projectId <= NOOP_JOBS; projectId++) await queue.enqueue("transcribe", { projectId }, { owner: String(projectId % 5) });
  const enqueueMs = (performance.now() - enqueueStarted) / NOOP_JOBS;
  const started = performance.now();
  await queue.start(handlers, { concurrency: 1, pollMs: 20 });
  await waitFor(async () => (done >= NOOP_JOBS ? true : undefined), 300_000, 5);
  const perJobMs = (performance.now() - started) / NOOP_JOBS;
  await queue.stop();
  return { perJobMs, enqueueMs };
}

interface LoadResult {
  p50: number;
  p99: number;
  errors: number;
  sent: number;
  scenes: number;
  serialP50: number;
  /** CPU per request during the load: this process (the client) and the API process. */
  clientCpuMs: number;
  serverCpuMs: number;
}

/** Sockets the load client keeps open to the API (HTTP/1.1 keep-alive), as many browsers and a proxy would. */
const LOAD_SOCKETS = 32;

/**
 * A client for one storyboard URL over node:http keep-alive sockets (fetch costs this machine several ms of CPU
 * a request, which would measure the client): asks for brotli or gzip as a browser does and decodes the answer, so
 * each request ends with the whole JSON in hand. Resolves with the status.
 */
function storyboardClient(url: string, token: string): () => Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: LOAD_SOCKETS });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": "2", "accept-encoding": "gzip, deflate, br" };
  const decode = (encoding: string | undefined, body: Buffer) => (encoding === "br" ? zlib.brotliDecompressSync(body) : encoding === "gzip" ? zlib.gunzipSync(body) : body);
  return () =>
    new Promise((resolve, reject) => {
      const request = http.request(url, { method: "POST", agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          try {
            JSON.parse(decode(res.headers["content-encoding"], Buffer.concat(chunks)).toString("utf8"));
            resolve(res.statusCode ?? 0);
          } catch (error) {
            reject(error);
          }
        });
      });
      request.on("error", reject);
      request.end("{}");
    });
}

/** Open-loop load: a request every 1000/RPS ms for LOAD_SECONDS; latency from its scheduled start. */
async function storyboardLoad(api: { base: string; pid: number }, token: string, projectId: number): Promise<LoadResult> {
  const url = `${api.base}/api/v1/projects/${projectId}/storyboard?offset=0&limit=${SCENES}`;
  const first = (await (await fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: "{}" })).json()) as { timeline?: { scenes?: unknown[] } };
  const scenes = first.timeline?.scenes?.length ?? 0;
  const post = storyboardClient(url, token);
  for (let i = 0; i < 30; i++) await post(); // warm-up
  // one request at a time first: the service time, without any queueing
  const serial: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await post();
    serial.push(performance.now() - t);
  }
  serial.sort((a, b) => a - b);
  const latencies: number[] = [];
  let errors = 0;
  const total = RPS * LOAD_SECONDS;
  const interval = 1000 / RPS;
  const clientCpu = process.cpuUsage();
  const serverCpu = cpuMsOf(api.pid);
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(
      post()
        .then((status) => {
          if (status !== 200) errors++;
          latencies.push(performance.now() - due);
        })
        .catch(() => void errors++),
    );
  }
  await Promise.all(pending);
  const client = process.cpuUsage(clientCpu);
  const serverCpuMs = (cpuMsOf(api.pid) - serverCpu) / total;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), errors, sent: total, scenes, serialP50: serial[Math.floor(serial.length / 2)]!, clientCpuMs: (client.user + client.system) / 1000 / total, serverCpuMs };
}

/** The project copied to SCENES scenes straight in its database (as bench:storyboard seeds). */
async function seedStoryboard(db: Db, sourceId: number): Promise<number> {
  return copyProject({ server: { db } } as unknown as BenchServer, sourceId, SCENES, `Storyboard ${SCENES}`);
}

/** The scale-mode API process the storyboard is read from, with its processed project. */
interface ScaleApi {
  api: { base: string; pid: number };
  token: string;
  databaseUrl: string;
  sourceId: number;
}

/** 1. queue overhead, local adapter (baseline) then BullMQ */
async function queueOverheads(): Promise<void> {
  const sqliteFile = path.join(BENCH_DIR, `queue-${run}.sqlite`);
  cleanups.push(async () => {
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${sqliteFile}${suffix}`, { force: true });
  });
  const queueDb = openSqlite(sqliteFile);
  await migrate(queueDb);
  const local = await queueOverhead(new LocalQueue(queueDb));
  await queueDb.destroy();
  const queuePrefix = `cutroom-bench-${run}`;
  cleanups.push(() => dropPrefix(queuePrefix));
  const bullQueue = new BullQueue({ url: REDIS_URL, prefix: queuePrefix });
  const bull = await queueOverhead(bullQueue);
  await bullQueue.close();
  console.log("Queue overhead (no-op jobs, one at a time)");
  console.log(`  local (SQLite jobs table): ${fmt(local.perJobMs, 2)} ms a job (enqueue ${fmt(local.enqueueMs, 2)} ms)`);
  console.log(`  bullmq (Redis):            ${fmt(bull.perJobMs, 2)} ms a job (enqueue ${fmt(bull.enqueueMs, 2)} ms) = ${fmt(bull.perJobMs / local.perJobMs, 2)}× local; target < ${TARGETS.overheadMs} ms: ${bull.perJobMs < TARGETS.overheadMs ? "met" : "MISSED"}\n`);
}

/** One scale-mode API process (RUNNER=off) and `workers` worker processes on a fresh database and key prefix, `projects` made through them. */
async function scaleSetup(workers: number, projects: number) {
  const databaseUrl = await freshDatabase(`w${workers}`);
  const prefix = `cutroom-bench-${run}-w${workers}`;
  cleanups.push(() => dropPrefix(prefix));
  const setup = makeSetup(`w${workers}`, { DATABASE_URL: databaseUrl, REDIS_URL, REDIS_PREFIX: prefix, RUNNER: "off" });
  const api = await startApi(setup);
  const token = await signUp(api.base, setup.dataDir);
  const started: ChildProcess[] = [];
  for (let i = 1; i <= workers; i++) started.push(await startWorker(setup, `worker-${i}`));
  const mediaId = await readyMedia(api.base, token);
  const { ids, seconds } = await createProjects(api.base, token, mediaId, projects);
  return { scale: { api, token, databaseUrl, sourceId: ids[0]! } satisfies ScaleApi, seconds, prefix, workers: started };
}

/** 2. projects per hour, 1 then 2 workers; answers the 2-worker setup's API for the storyboard part. */
async function projectsPerHour(): Promise<ScaleApi> {
  const rates: Record<number, { perHour: number; shares: Map<string, number>; seconds: number }> = {};
  let scaleApi: ScaleApi | undefined;
  for (const workers of [1, 2]) {
    const { scale, seconds, prefix, workers: started } = await scaleSetup(workers, PROJECTS);
    const bullmq = new BullMQueue("jobs", { connection: { url: REDIS_URL, maxRetriesPerRequest: null }, prefix });
    const shares = new Map<string, number>();
    for (const job of await bullmq.getCompleted(0, 10_000)) {
      if (job.name === "create-project") shares.set(job.processedBy ?? "?", (shares.get(job.processedBy ?? "?") ?? 0) + 1);
    }
    await bullmq.close();
    rates[workers] = { perHour: (PROJECTS / seconds) * 3600, shares, seconds };
    if (workers === 2) scaleApi = scale;
    else for (const child of [...started]) await stopChild(child);
    if (workers === 1) for (const child of children.filter((c) => c.exitCode === null)) await stopChild(child);
  }
  const one = rates[1]!;
  const two = rates[2]!;
  const shareLine = (r: (typeof rates)[number]) => [...r.shares.values()].map((n) => `${fmt((100 * n) / PROJECTS, 0)} %`).join(" / ");
  const minShare = Math.min(...[...two.shares.values()].map((n) => n / PROJECTS), two.shares.size < 2 ? 0 : 1);
  console.log("Projects per hour (API on PostgreSQL + Redis, RUNNER=off; real pipeline, talk.mp4)");
  console.log(`  1 worker:  ${fmt(one.perHour, 0)} projects/h (${PROJECTS} in ${fmt(one.seconds)} s)`);
  console.log(`  2 workers: ${fmt(two.perHour, 0)} projects/h (${PROJECTS} in ${fmt(two.seconds)} s) = ${fmt(two.perHour / one.perHour, 2)}× 1 worker; target ≥ ${TARGETS.twoWorkersRatio}×: ${two.perHour / one.perHour >= TARGETS.twoWorkersRatio ? "met" : "MISSED"}`);
  console.log(`  each worker's share of the projects: ${shareLine(two)}; target ≥ ${100 * TARGETS.share} % each: ${minShare >= TARGETS.share ? "met" : "MISSED"}\n`);
  return scaleApi!;
}

/** 3. storyboard latency: single process on SQLite (baseline), then the scale-mode API process */
async function storyboardLatency(scaleApi: ScaleApi): Promise<void> {
  const single = makeSetup("single", {});
  const singleApi = await startApi(single);
  const singleToken = await signUp(singleApi.base, single.dataDir);
  const singleMedia = await readyMedia(singleApi.base, singleToken);
  const singleSource = (await createProjects(singleApi.base, singleToken, singleMedia, 1)).ids[0]!;
  const singleDb = openSqlite(path.join(single.dataDir, "cutroom.sqlite"));
  const singleProject = await seedStoryboard(singleDb, singleSource);
  await singleDb.destroy();
  const singleLoad = await storyboardLoad(singleApi, singleToken, singleProject);
  const scaleDb = openDatabase({ databaseUrl: scaleApi.databaseUrl, databaseFile: "" });
  const scaleProject = await seedStoryboard(scaleDb, scaleApi.sourceId);
  await scaleDb.destroy();
  const scaleLoad = await storyboardLoad(scaleApi.api, scaleApi.token, scaleProject);
  console.log(`Storyboard API, POST /projects/:id/storyboard (${SCENES} scenes an answer) at ${RPS} requests/s for ${LOAD_SECONDS} s; machine load average ${os.loadavg().map((l) => fmt(l, 1)).join(" / ")} (1/5/15 min) on ${os.cpus().length} cores`);
  for (const [label, load] of [["single process, SQLite", singleLoad], ["scale mode, PostgreSQL + Redis", scaleLoad]] as const) {
    console.log(`  ${label}: p50 ${fmt(load.p50)} ms, p99 ${fmt(load.p99)} ms (${load.scenes} scenes, ${load.errors} errors of ${load.sent}); target p99 < ${TARGETS.p99Ms} ms: ${load.p99 < TARGETS.p99Ms && load.errors === 0 ? "met" : "MISSED"}`);
    console.log(`    one request at a time: p50 ${fmt(load.serialP50)} ms; CPU a request under load: API process ${fmt(load.serverCpuMs, 2)} ms, load client ${fmt(load.clientCpuMs, 2)} ms`);
  }
  console.log(`  scale / single: p50 ${fmt(scaleLoad.p50 / singleLoad.p50, 2)}×, p99 ${fmt(scaleLoad.p99 / singleLoad.p99, 2)}×`);
}

async function main(): Promise<void> {
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  console.log(`bench:scale — ${os.cpus().length} cores, ${PROJECTS} projects a setup, ${NOOP_JOBS} no-op jobs, ${RPS} requests/s for ${LOAD_SECONDS} s, ${SCENES}-scene storyboards${ONLY_STORYBOARD ? " (storyboard API only)" : ""}\n`);
  if (ONLY_STORYBOARD) return storyboardLatency((await scaleSetup(1, 1)).scale);
  await queueOverheads();
  await storyboardLatency(await projectsPerHour());
}

try {
  await main();
} finally {
  for (const child of children) await stopChild(child).catch(() => undefined);
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error(`cleanup: ${(error as Error).message}`));
}
process.exit(0);
