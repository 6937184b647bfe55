import { spawn, type ChildProcess } from "node:child_process";
import { createECDH, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Queue as BullMQueue } from "bullmq";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportFigures } from "../reliability";
import { waitFor } from "./helpers";
import { dropRedisPrefix, redisReachable, testRedisPrefix, testRedisUrl } from "./redis";
import { startTestS3, type TestS3 } from "./s3-server";
import { tusUpload } from "./tus";

/**
 * Scale mode end to end (issue 19): ONE API process (RUNNER=off) and TWO worker processes started as
 * `npm run worker` starts them, all real child processes on PostgreSQL (DATABASE_URL, a database of
 * its own named cutroom_scale_…), Redis (REDIS_URL, a key prefix of its own) and an S3-compatible
 * bucket (STORAGE=s3, Ceph's radosgw). Each process has a DATA_DIR of its own, as on separate machines:
 * they share nothing but the database, the queue and the bucket. Several projects go through the real
 * pipeline (real ffmpeg); one worker is killed with SIGKILL while it runs a job. Every project still
 * reaches Preview Ready exactly once (one preview render in the bucket, one "Preview ready" push written
 * by whichever worker finished it), the surviving worker took over the dead one's job, and no copy is
 * left in a worker's cache (the killed one's is cleared when a worker starts again on its machine).
 */

const root = path.resolve(__dirname, "../..");
const TALK = path.resolve(__dirname, "../fixtures/talk.mp4");
const PROJECTS = 4;
const LEASE_MS = 3_000;
const adminUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function postgresReachable(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return { ok: true };
  } catch (error) {
    const reason = `no PostgreSQL at ${new URL(adminUrl).host} (${(error as Error).message}); set TEST_POSTGRES_URL`;
    if (process.env.CI) throw new Error(`The scale-mode test needs PostgreSQL on CI: ${reason}`);
    return { ok: false, reason };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The worker entry exactly as `npm run worker` names it (`tsx <file>`), run as ONE node process so SIGKILL kills it whole. */
function workerEntry(): string {
  const script: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.worker;
  const match = /^tsx (\S+)$/.exec(script);
  if (!match) throw new Error(`npm run worker is "${script}", not "tsx <file>"`);
  return match[1]!;
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

const redis = await redisReachable();
const postgres = await postgresReachable();
const skipReason = !redis.ok ? redis.reason : !postgres.ok ? postgres.reason : undefined;

if (skipReason) {
  describe("scale mode: one API process and two workers", () => {
    it.skip(`skipped: ${skipReason}`, () => {});
  });
} else {
  describe("scale mode: one API process and two workers", () => {
    /** One DATA_DIR per process, as on three machines. */
    const dataDirs = { api: fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-scale-api-")), a: fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-scale-a-")), b: fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-scale-b-")) };
    let s3: TestS3 | undefined;
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-scale-logs-"));
    const database = `cutroom_scale_${process.pid}_${randomBytes(3).toString("hex")}`;
    const redisUrl = testRedisUrl();
    const prefix = testRedisPrefix();
    const children: ChildProcess[] = [];
    let base = "";
    let token = "";

    const databaseUrl = () => {
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      return url.toString();
    };
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };

    const env = (dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv => ({
      ...process.env,
      ...s3!.env(),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl(),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      CAPTCHA: "off",
      LOG_LEVEL: "info",
      STATIC_DIR: path.join(logDir, "no-app"),
      STT: "off",
      PUSH: "outbox",
      PUSH_PRIVATE_ENDPOINTS: "1",
      JOB_LEASE_MS: String(LEASE_MS),
      JOB_CONCURRENCY: "1",
      RATE_LIMIT_LOGIN: "1000",
      RATE_LIMIT_REGISTER: "1000",
      RATE_LIMIT_UPLOADS: "1000",
      ...extra,
    });

    const spawnNode = (name: string, entry: string, dataDir: string, extra: Record<string, string>): ChildProcess => {
      const log = fs.openSync(path.join(logDir, `${name}.log`), "a");
      const child = spawn(process.execPath, ["--import", "tsx", entry], { cwd: root, env: env(dataDir, extra), stdio: ["ignore", log, log] });
      fs.closeSync(log);
      children.push(child);
      return child;
    };

    const api = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}/api/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };

    beforeAll(async () => {
      await admin(`create database "${database}"`);
      s3 = await startTestS3();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      // the API first: it migrates the new database before the workers open it
      spawnNode("api", "server/main.ts", dataDirs.api, { PORT: String(port), RUNNER: "off" });
      await waitFor(async () => (await fetch(`${base}/api/v1/config`).then((r) => r.ok).catch(() => false)) || undefined, 90_000, 200);
    }, 240_000);

    afterAll(async () => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once("exit", resolve)) : undefined)));
      await admin(`drop database if exists "${database}" with (force)`).catch(() => undefined);
      await dropRedisPrefix(redisUrl, prefix);
      await s3?.stop();
      for (const dir of Object.values(dataDirs)) fs.rmSync(dir, { recursive: true, force: true });
      if (!process.env.KEEP_SCALE_LOGS) fs.rmSync(logDir, { recursive: true, force: true });
    }, 60_000);

    it(`processes ${PROJECTS} projects across two workers; a worker killed mid-job leaves every project Preview Ready exactly once`, { timeout: 420_000 }, async () => {
      // a user, verified through the mail outbox, with a push subscription (pushes land in the push outbox)
      const email = `scale-${Date.now()}@example.com`;
      const password = "secret123";
      const register = await fetch(`${base}/api/v1/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ locale: "en", first_name: "Sam", last_name: "Lee", email, password, password_confirmation: password, terms: true }),
      });
      expect(register.status).toBe(201);
      const outbox = path.join(dataDirs.api, "outbox");
      const mail = await waitFor(async () => {
        const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
        return files.length ? JSON.parse(fs.readFileSync(path.join(outbox, files[0]!), "utf8")) : undefined;
      }, 15_000, 50);
      await fetch(String(mail.links[0]).replace(/^https?:\/\/[^/]+/, base), { redirect: "manual" });
      const login = await fetch(`${base}/api/v1/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
      token = ((await login.json()) as { api_token: string }).api_token;
      // render notifications are a paid feature: the plan is set in PostgreSQL, where the API keeps it
      const db = new pg.Client({ connectionString: databaseUrl() });
      await db.connect();
      await db.query("update users set plan_id = 'starter_month' where email = $1", [email]).finally(() => db.end());
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const subscribed = await api("POST", "/push/subscriptions", { endpoint: "https://127.0.0.1:9/scale-mode", expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") }, device: "scale test" });
      expect(subscribed.status).toBe(201);

      // the API process runs no job: the upload stays queued until a worker is there
      const uploaded = await tusUpload(base, token, TALK, { name: "talk.mp4" });
      const media = await api("POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 });
      expect(media.status).toBeLessThan(300);
      const mediaId = media.body.media_file.id as number;
      const projects: number[] = [];
      for (let i = 1; i <= PROJECTS; i++) {
        const created = await api("POST", "/createproject", { name: `Scale ${i}`, locale: "en-US", style: "video", media: [mediaId] });
        expect(created.status).toBeLessThan(300);
        projects.push(created.body.id);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const bull = new BullMQueue("jobs", { connection: { url: redisUrl, maxRetriesPerRequest: null }, prefix });
      try {
        expect(await bull.getActiveCount()).toBe(0);
        const queued = await bull.getJobCounts("waiting", "prioritized", "delayed");
        expect(Object.values(queued).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

        // two workers, as `npm run worker` starts them
        const entry = workerEntry();
        const a = spawnNode("worker-a", entry, dataDirs.a, {});
        const b = spawnNode("worker-b", entry, dataDirs.b, {});
        const nameOf = (child: ChildProcess) => `${os.hostname()}#${child.pid}`;

        // worker A is killed while it runs a project's job (not the shared ingest) with an input in its cache
        const victim = await waitFor(async () => {
          const active = await bull.getActive();
          const running = active.find((job) => job.processedBy === nameOf(a) && job.name !== "ingest-media");
          return running && files(path.join(dataDirs.a, "s3-cache")).length > 0 ? running : undefined;
        }, 180_000, 50);
        a.kill("SIGKILL");
        await new Promise((resolve) => a.once("exit", resolve));
        const victimId = (victim.data as { id: string }).id;

        const deadline = Date.now() + 300_000;
        const statuses = new Map<number, string>();
        for (const id of projects) {
          await waitFor(async () => {
            const body = (await api("GET", `/projects/${id}`)).body;
            statuses.set(id, body.status);
            return body.status === "Preview Ready" && !body.is_queued ? true : undefined;
          }, Math.max(1_000, deadline - Date.now()), 500);
        }

        // exactly once: one "Preview ready" push per project (written by whichever worker finished it) and one preview render
        await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
        // pushes are written by the worker that finished a project, on its own machine
        const pushes = [dataDirs.a, dataDirs.b].flatMap((dir) => {
          const pushDir = path.join(dir, "push-outbox");
          return (fs.existsSync(pushDir) ? fs.readdirSync(pushDir) : []).map((f) => JSON.parse(fs.readFileSync(path.join(pushDir, f), "utf8")));
        });
        for (const id of projects) {
          const ready = pushes.filter((p) => p.payload?.url === `/projects/${id}/storyboard` && p.payload?.kind === "preview_ready");
          expect(ready, `project ${id}'s Preview ready pushes`).toHaveLength(1);
          expect(statuses.get(id)).toBe("Preview Ready");
        }

        // the dead worker's job was run again by the other one, and every job ran to its end
        const victimJobs = (await bull.getCompleted(0, 1_000)).filter((job) => (job.data as { id: string }).id === victimId);
        expect(victimJobs).toHaveLength(1);
        expect(victimJobs[0]!.processedBy).toBe(nameOf(b));
        expect(victimJobs[0]!.attemptsStarted).toBeGreaterThanOrEqual(2);
        const completed = await bull.getCompleted(0, 1_000);
        const byWorker = new Map<string, number>();
        for (const job of completed) byWorker.set(job.processedBy ?? "?", (byWorker.get(job.processedBy ?? "?") ?? 0) + 1);
        expect(await bull.getFailedCount()).toBe(0);
        expect(await bull.getActiveCount()).toBe(0);
        // one preview render per project in the bucket (the killed attempt's output was never committed), and no media on a machine's disk
        const keys = await s3!.keys("projects/");
        for (const id of projects) {
          const renders = keys.filter((key) => key.split("/")[2] === String(id) && /^preview-\d+\.mp4$/.test(key.split("/")[3] ?? ""));
          expect(renders, `project ${id}'s renders`).toHaveLength(1);
        }
        for (const dir of Object.values(dataDirs)) expect(files(path.join(dir, "store")), `${dir}'s local store`).toEqual([]);
        expect((await s3!.keys("media/")).some((key) => key.endsWith("/proxy.mp4")), "the proxy is in the bucket").toBe(true);

        // nothing left in a worker's cache: the surviving worker's copies went when its jobs ended, and the
        // killed worker's are cleared when a worker starts again on its machine
        expect(files(path.join(dataDirs.b, "s3-cache")), "worker B's cache").toEqual([]);
        expect(files(path.join(dataDirs.a, "s3-cache")).length, "the killed worker's cache before a restart").toBeGreaterThan(0);
        const again = spawnNode("worker-a-again", entry, dataDirs.a, {});
        await waitFor(async () => (files(path.join(dataDirs.a, "s3-cache")).length === 0 ? true : undefined), 60_000, 200);
        again.kill("SIGTERM");
        await new Promise((resolve) => again.once("exit", resolve));
        expect(files(path.join(dataDirs.a, "s3-cache")), "worker A's cache after a restart").toEqual([]);

        // the data is in PostgreSQL, where all three processes wrote it
        const client = new pg.Client({ connectionString: databaseUrl() });
        await client.connect();
        try {
          const rows = await client.query<{ status: string }>("select status from projects where id = any($1::int[])", [projects]);
          expect(rows.rows.map((r) => r.status)).toEqual(projects.map(() => "Preview Ready"));
        } finally {
          await client.end();
        }
        reportFigures("scale-mode", { projects: PROJECTS, jobs_completed: completed.length, killed_worker_jobs: byWorker.get(nameOf(a)) ?? 0, surviving_worker_jobs: byWorker.get(nameOf(b)) ?? 0, victim_attempts: victimJobs[0]!.attemptsStarted });
      } finally {
        await bull.close();
      }
    });
  });
}

/** The files (not folders) at any depth under `dir`. */
function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}
