import { spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reportFigures, SOAK, soakOr } from "../reliability";
import { waitFor } from "./helpers";
import { spawnServer } from "./server-process";
import { openTestDatabase } from "./database";

/**
 * Crash recovery (issue 12, "Keep every promise as a suite"): the REAL server as a child process on a
 * temporary data folder, driven over HTTP and killed with SIGKILL at chosen moments — during a tus
 * upload, right after POST /library while the file is ingested, while a project is processed, while a
 * final render runs — and at random ones; restarted each time. Afterwards every project ends Preview
 * Ready (Render Ready for final renders) once, every output decodes cleanly, no ffmpeg/ffprobe
 * outlived its server, and no half-written file or scratch folder is left in the data folder.
 * `npm test` kills it a few times; `npm run test:soak` (CUTROOM_SOAK=1) at least 20 times.
 */

const TALK = path.resolve(__dirname, "../fixtures/talk.mp4");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-crash-"));
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-crash-logs-"));
const LEASE_MS = 3_000;
const RANDOM_KILLS = soakOr(2, 18);

let port = 0;
let base = "";
let server: ChildProcess | undefined;
let starts = 0;
const figures = { kills: 0, chosen_kills: 0, random_kills: 0, kills_during_ffmpeg: 0, survivors: 0, resumed_uploads: 0, waits_for_last_attempt: 0, library_add_kills: 0, library_adds_retried: 0 };

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

/** One node process (no npx or tsx wrapper), so SIGKILL of its PID kills the whole server. */
async function start(): Promise<void> {
  starts += 1;
  const child = spawnServer({
    port,
    dataDir,
    logFile: path.join(logDir, `server-${starts}.log`),
    env: {
      LOG_LEVEL: "info",
      JOB_LEASE_MS: String(LEASE_MS),
      PUSH: "off",
      STATIC_DIR: path.join(logDir, "no-app"),
      RATE_LIMIT_LOGIN: "1000",
      RATE_LIMIT_REGISTER: "1000",
      RATE_LIMIT_UPLOADS: "1000",
    },
  });
  server = child;
  await waitFor(async () => (await fetch(`${base}/api/v1/config`).then((r) => r.ok).catch(() => false)) || undefined, 60_000, 100);
}

/** Media processes whose command line names this run's data folder. */
function mediaProcesses(): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") continue; // exited, waiting for its reaper
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ");
      if (cmd.includes(dataDir) && /ff(mpeg|probe)|setpriv/.test(cmd)) found.push({ pid: Number(entry), cmd });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** kill -9 of the server; then counts (and ends) any ffmpeg/ffprobe that outlived it. */
async function kill(kind: "chosen" | "random"): Promise<void> {
  const child = server!;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  if (mediaProcesses().length > 0) figures.kills_during_ffmpeg += 1;
  child.kill("SIGKILL");
  await exited;
  figures.kills += 1;
  figures[kind === "chosen" ? "chosen_kills" : "random_kills"] += 1;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const survivors = mediaProcesses();
  figures.survivors += survivors.length;
  for (const { pid } of survivors) process.kill(pid, "SIGKILL");
}

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGKILL");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(logDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// The API, over real HTTP
// ---------------------------------------------------------------------------------------------

let token = "";
async function api(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function signUp(): Promise<void> {
  const email = `crash-${Date.now()}@example.com`;
  const password = "secret123";
  const register = await fetch(`${base}/api/v1/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", first_name: "Kay", last_name: "Lee", email, password, password_confirmation: password, terms: true }),
  });
  expect(register.status).toBe(201);
  const outbox = path.join(dataDir, "outbox");
  const mail = await waitFor(async () => {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
    return files.length ? JSON.parse(fs.readFileSync(path.join(outbox, files[0]!), "utf8")) : undefined;
  }, 10_000, 50);
  await fetch(String(mail.links[0]).replace(/^https?:\/\/[^/]+/, base), { redirect: "manual" });
  const login = await fetch(`${base}/api/v1/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  token = ((await login.json()) as { api_token: string }).api_token;
  expect(token).toBeTruthy();
}

const TUS = { "tus-resumable": "1.0.0" };

/** POST: a new upload of `size` bytes; answers its id. */
async function tusCreate(name: string, size: number): Promise<string> {
  const meta = `filename ${Buffer.from(name).toString("base64")},filetype ${Buffer.from("video/mp4").toString("base64")}`;
  const res = await fetch(`${base}/api/v1/uploads`, { method: "POST", headers: { ...TUS, authorization: `Bearer ${token}`, "upload-length": String(size), "upload-metadata": meta } });
  expect(res.status).toBe(201);
  return res.headers.get("location")!.split("/").pop()!;
}

async function tusOffset(id: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/uploads/${id}`, { method: "HEAD", headers: { ...TUS, authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return Number(res.headers.get("upload-offset"));
}

/**
 * PATCH `data` from `offset`, written in pieces; `onPiece` may kill the server mid-request. Answers the
 * status, or undefined when the connection died.
 */
function tusPatch(id: string, offset: number, data: Buffer, onPiece?: (sent: number) => Promise<void>): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = http.request(`${base}/api/v1/uploads/${id}`, {
      method: "PATCH",
      headers: { ...TUS, authorization: `Bearer ${token}`, "upload-offset": String(offset), "content-type": "application/offset+octet-stream", "content-length": String(data.length) },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", () => resolve(undefined));
    void (async () => {
      const PIECE = 16 * 1024;
      for (let sent = 0; sent < data.length; sent += PIECE) {
        if (req.destroyed) return;
        req.write(data.subarray(sent, sent + PIECE));
        await new Promise((r) => setTimeout(r, 5));
        await onPiece?.(sent + PIECE);
      }
      req.end();
    })();
  });
}

/** A whole upload, no kill: answers the upload id. */
async function upload(name: string): Promise<string> {
  const data = fs.readFileSync(TALK);
  const id = await tusCreate(name, data.length);
  expect(await tusPatch(id, 0, data)).toBe(204);
  return id;
}

const projects = new Map<number, "Preview Ready" | "Render Ready">();
let uploads = 0;

async function addToLibrary(uploadId: string, name: string): Promise<number> {
  const res = await api("POST", "/library", { media_file: uploadId, name, locale: "en-US", has_speech: 1 });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.media_file.id as number;
}

async function createProject(mediaId: number): Promise<number> {
  const res = await api("POST", "/createproject", { name: `Crash ${projects.size + 1}`, locale: "en-US", style: "video", media: [mediaId] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  projects.set(res.body.id, "Preview Ready");
  return res.body.id as number;
}

async function project(id: number) {
  return (await api("GET", `/projects/${id}`)).body;
}

/** Waits until every project has reached what it was asked for; a Failed one fails the test. */
async function allSettled(timeoutMs = 150_000): Promise<void> {
  for (const [id, expected] of projects) {
    await waitFor(async () => {
      const p = await project(id);
      if (p.status === "Failed") throw new Error(`project ${id} failed: ${p.failure}\n${failureLines()}`);
      return p.status === expected && !p.is_queued ? true : undefined;
    }, timeoutMs, 200);
  }
}

/** Jobs running their last allowed attempt, read from the server's database. */
async function jobsOnLastAttempt(): Promise<number> {
  const db = openTestDatabase(dataDir);
  try {
    const { n } = await db.selectFrom("jobs").select((eb) => eb.fn.countAll<number>().as("n")).where("status", "=", "running").whereRef("attempts", ">=", "max_attempts").executeTakeFirstOrThrow();
    return Number(n);
  } finally {
    await db.destroy();
  }
}

/** What the servers logged about failed jobs and errors, so a failure says why. */
function failureLines(): string {
  return fs
    .readdirSync(logDir)
    .filter((f) => f.endsWith(".log"))
    .flatMap((f) => fs.readFileSync(path.join(logDir, f), "utf8").split("\n").map((line) => `${f}: ${line}`))
    .filter((line) => /job failed|"level":(50|60)/.test(line))
    .slice(-20)
    .join("\n");
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// After the run: what is on disk
// ---------------------------------------------------------------------------------------------

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? [full, ...walk(full)] : [full];
  });
}

/** `ffmpeg -v error -i X -f null -` prints nothing for a clean file. */
function decodesCleanly(file: string): boolean {
  const run = spawnSync("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-f", "null", "-"], { encoding: "utf8" });
  return run.status === 0 && run.stderr.trim() === "";
}

describe("crash recovery of the real server", () => {
  it(`finishes every project exactly once through ${soakOr("a few", "at least 20")} kill -9s, leaving no survivor and no orphan`, { timeout: soakOr(240_000, 1_200_000) }, async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await start();
    await signUp();
    const data = fs.readFileSync(TALK);

    // 1. During a tus upload: the connection dies with the server; the upload resumes from the offset it kept.
    const uploadId = await tusCreate("talk-0.mp4", data.length);
    const half = Math.floor(data.length / 2);
    expect(await tusPatch(uploadId, 0, data.subarray(0, half))).toBe(204);
    let killedMidPatch = false;
    const interrupted = await tusPatch(uploadId, half, data.subarray(half), async (sent) => {
      if (!killedMidPatch && sent >= 32 * 1024) {
        killedMidPatch = true;
        await kill("chosen");
      }
    });
    expect(interrupted).toBeUndefined();
    await start();
    const offset = await tusOffset(uploadId);
    expect(offset).toBeGreaterThanOrEqual(half);
    expect(offset).toBeLessThan(data.length);
    expect(await tusPatch(uploadId, offset, data.subarray(offset))).toBe(204);
    figures.resumed_uploads += 1;
    uploads += 1;

    // 2. Right after POST /library: the file's ingest (probe, proxy) is running.
    const mediaId = await addToLibrary(uploadId, "talk-0.mp4");
    await sleep(150);
    await kill("chosen");
    await start();

    // 3. While a project is processed (its preview renders).
    const first = await createProject(mediaId);
    await waitFor(async () => ((await project(first)).working_progress >= 25 ? true : undefined), 90_000, 50);
    await kill("chosen");
    await start();
    await allSettled();

    // 4. During a final render.
    expect((await api("POST", `/projects/${first}/render`, { final: true })).status).toBe(200);
    projects.set(first, "Render Ready");
    await waitFor(async () => ((await project(first)).working_progress > 1 ? true : undefined), 90_000, 50);
    await kill("chosen");
    await start();

    // 5. At random moments of random work: a new upload and project, another project, a render, an
    // upload, a POST /library.
    const random = (max: number) => Math.floor(Math.random() * max);
    const randomKill = async (maxMs: number) => {
      await sleep(random(maxMs));
      // The queue gives up on a job whose runner died under it on its last attempt (poison-job rule,
      // queue contract): a random kill never lands on a job's third attempt.
      if ((await jobsOnLastAttempt()) > 0) {
        figures.waits_for_last_attempt += 1;
        await waitFor(async () => ((await jobsOnLastAttempt()) === 0 ? true : undefined), 120_000, 100);
      }
      await kill("random");
      await start();
    };
    for (let round = 0; round < RANDOM_KILLS; round++) {
      const action = round === 0 ? 0 : round === 1 ? 3 : random(5);
      if (action === 0) {
        // the kill lands in the new file's ingest or its project's processing
        const name = `talk-${++uploads}.mp4`;
        void createProject(await addToLibrary(await upload(name), name)).catch(() => undefined);
        await randomKill(3_200);
      } else if (action === 1) {
        void createProject(mediaId).catch(() => undefined);
        await randomKill(3_200);
      } else if (action === 2) {
        const ready = [...projects].filter(([, expected]) => expected === "Preview Ready").map(([id]) => id);
        const id = ready[random(ready.length)];
        if (id !== undefined) void api("POST", `/projects/${id}/render`, { final: true }).then((res) => res.status === 200 && projects.set(id, "Render Ready"), () => undefined);
        await randomKill(3_200);
      } else if (action === 4) {
        // a kill in the middle of POST /library (the row, the move into the store, the key, the job):
        // after the restart the file is in the library, or its upload is still there to post again
        const name = `talk-${++uploads}.mp4`;
        const id = await upload(name);
        figures.library_add_kills += 1;
        void api("POST", "/library", { media_file: id, name, locale: "en-US", has_speech: 1 }).catch(() => undefined);
        await randomKill(40);
        const listed = ((await api("GET", "/library")).body.data as { id: number; name: string }[]).find((m) => m.name === name);
        if (!listed) figures.library_adds_retried += 1;
        void createProject(listed ? listed.id : await addToLibrary(id, name)).catch(() => undefined);
      } else {
        // a slow upload (~0.6 s) killed at a random moment, then resumed from the offset the server kept
        const name = `talk-${++uploads}.mp4`;
        const id = await tusCreate(name, data.length);
        void tusPatch(id, 0, data, () => sleep(50));
        await randomKill(700);
        const offset = await tusOffset(id);
        if (offset < data.length) {
          expect(await tusPatch(id, offset, data.subarray(offset))).toBe(204);
          figures.resumed_uploads += 1;
        }
        void createProject(await addToLibrary(id, name)).catch(() => undefined);
      }
      // a request the kill cut off may or may not have landed: the server's list is the truth
      await syncProjects();
      if (round % 4 === 3 || projects.size >= 8) await allSettled();
    }
    await allSettled();
    // the last run went undisturbed: its start-up sweep and its jobs are done
    await waitFor(async () => ((await api("GET", "/projects?page=1")).body.data.every((p: any) => !p.is_queued) ? true : undefined), 30_000);

    // Every project once, in the state it was asked for, with one output that decodes cleanly.
    const store = path.join(dataDir, "store");
    const list = (await api("GET", "/projects?page=1")).body;
    expect(list.total).toBe(projects.size);
    let outputs = 0;
    let decoded = 0;
    let ready = 0;
    for (const [id, expected] of projects) {
      const p = await project(id);
      expect(p.status, `project ${id}`).toBe(expected);
      if (p.status === expected) ready += 1;
      const folder = walk(store).filter((f) => f.includes(`${path.sep}projects${path.sep}`) && f.split(path.sep).includes(String(id)) && fs.statSync(f).isFile());
      expect(folder, `project ${id}'s renders`).toHaveLength(1);
      outputs += 1;
      if (decodesCleanly(folder[0]!)) decoded += 1;
    }
    // and every library file's proxy
    for (const proxy of walk(store).filter((f) => path.basename(f) === "proxy.mp4")) {
      outputs += 1;
      if (decodesCleanly(proxy)) decoded += 1;
    }
    const library = await api("GET", "/library");
    expect(library.body.data.every((m: any) => m.status === "ready")).toBe(true);

    const orphans = walk(dataDir).filter((f) => {
      const name = path.basename(f);
      return name.includes(".part.") || name.startsWith(".cutroom-render-");
    });
    const scratch = walk(path.join(dataDir, "tmp"));
    const leftUploads = walk(path.join(dataDir, "uploads")).filter((f) => fs.statSync(f).isFile());
    const survivorsNow = mediaProcesses();

    reportFigures("crash-recovery", {
      kills: figures.kills,
      chosen_kills: figures.chosen_kills,
      random_kills: figures.random_kills,
      kills_during_ffmpeg: figures.kills_during_ffmpeg,
      projects: projects.size,
      ready,
      render_ready: [...projects.values()].filter((s) => s === "Render Ready").length,
      outputs,
      outputs_decoded: decoded,
      orphans: orphans.length + scratch.length,
      survivors: figures.survivors + survivorsNow.length,
      resumed_uploads: figures.resumed_uploads,
      waits_for_last_attempt: figures.waits_for_last_attempt,
      library_add_kills: figures.library_add_kills,
      library_adds_retried: figures.library_adds_retried,
      uploads_left: leftUploads.length,
    });
    expect(figures.kills).toBeGreaterThanOrEqual(SOAK ? 20 : 4);
    expect(decoded).toBe(outputs);
    expect(orphans).toEqual([]);
    expect(scratch).toEqual([]);
    expect(leftUploads).toEqual([]);
    expect(figures.survivors).toBe(0);
    expect(survivorsNow).toEqual([]);
  });
});

/** Projects the server has that a cut-off request made (its answer never arrived). */
async function syncProjects(): Promise<void> {
  for (let page = 1; ; page++) {
    const list = (await api("GET", `/projects?page=${page}`)).body;
    for (const p of list.data) {
      if (!projects.has(p.id)) projects.set(p.id, "Preview Ready");
      if (p.status === "Final Rendering" || p.status === "Render Ready") projects.set(p.id, "Render Ready");
    }
    if (page >= list.last_page) return;
  }
}
