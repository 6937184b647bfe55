import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate, type Db } from "../../server/db/index";
import { dropDatabase, openTestDatabase } from "./database";
import { attemptDir, sweepLeftovers } from "../../server/jobs/leftovers";
import { LocalQueue } from "../../server/jobs/local";
import { JOB_TYPES, type Handlers } from "../../server/jobs/types";

/** Issue 12 item 9: crash leftovers (half-written outputs, render scratch folders) are swept at start. */

let dir: string;
let db: Db;
let storeDir: string;
let tmpDir: string;
const LEASE = 3_000;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-leftovers-"));
  db = openTestDatabase(dir);
  await migrate(db);
  storeDir = path.join(dir, "store");
  tmpDir = path.join(dir, "tmp");
});
afterEach(async () => {
  await db.destroy();
  await dropDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

function put(file: string, ageMs = 0) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "x");
  if (ageMs) {
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(file, then, then);
  }
  return file;
}

async function running(id: string, attempts: number, leaseEndsInMs: number, leaseOwner = "other#1") {
  const now = new Date().toISOString();
  await db
    .insertInto("jobs")
    .values({ id, type: "render", payload: "{}", group_key: null, priority: 0, seq: 1, status: "running", attempts, max_attempts: 3, run_at: now, lease_owner: leaseOwner, lease_expires_at: new Date(Date.now() + leaseEndsInMs).toISOString(), last_error: null, created_at: now, updated_at: now })
    .execute();
}

describe("the start-up sweep of crash leftovers", () => {
  it("removes every half-written output and scratch folder when no job holds a live lease, and keeps finished files", async () => {
    const part = put(path.join(storeDir, "media/1/2/proxy.mp4.1a2b3c4d.part.mp4"));
    const oldPart = put(path.join(storeDir, "projects/1/3/preview-17.mp4.part.mp4"));
    const chunks = put(path.join(storeDir, "projects/1/3/.cutroom-render-Ab12/chunk-0.mp4"));
    const kept = [put(path.join(storeDir, "projects/1/3/preview-16.mp4")), put(path.join(storeDir, "media/1/2/proxy.mp4")), put(path.join(storeDir, "media/1/2/source.part"))];
    await running("render:final=false,projectId=3", 1, -1_000); // its runner died: the lease expired
    const scratch = put(path.join(attemptDir(tmpDir, { jobId: "render:final=false,projectId=3", attempt: 1 }), ".cutroom-render-x/graph-0.txt"));
    const stray = put(path.join(tmpDir, "something-else/file"));

    const swept = await sweepLeftovers({ db, storeDir, tmpDir, leaseMs: LEASE });
    expect(swept).toEqual({ partFiles: 3, scratchDirs: 2, deletedProjects: 0 });
    for (const gone of [part, oldPart, path.dirname(chunks), scratch, stray]) expect(fs.existsSync(gone)).toBe(false);
    for (const file of kept) expect(fs.existsSync(file)).toBe(true);
  });

  it("leaves what a job running in another process still writes: its attempt's folder and fresh outputs", async () => {
    const jobId = "create-project:projectId=9";
    await running(jobId, 2, 60_000);
    const live = put(path.join(attemptDir(tmpDir, { jobId, attempt: 2 }), ".cutroom-render-y/graph-0.txt"));
    const dead = put(path.join(attemptDir(tmpDir, { jobId, attempt: 1 }), ".cutroom-render-z/graph-0.txt"));
    const fresh = put(path.join(storeDir, "projects/4/9/preview-20.mp4.9f8e7d6c.part.mp4"));
    const stale = put(path.join(storeDir, "media/4/5/proxy.mp4.0badf00d.part.mp4"), 10 * LEASE);

    const swept = await sweepLeftovers({ db, storeDir, tmpDir, leaseMs: LEASE });
    expect(swept).toEqual({ partFiles: 1, scratchDirs: 1, deletedProjects: 0 });
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.existsSync(stale)).toBe(false);
  });

  it("takes a lease held by a killed process of this machine for dead, before it expires", async () => {
    const host = createHash("sha256").update(os.hostname()).digest("hex").slice(0, 8);
    const jobId = "create-project:projectId=12";
    // pid 999999999 does not exist: the process that claimed this job was killed a moment ago
    await running(jobId, 1, 60_000, `p999999999.4242.${host}-0123456789ab#3`);
    const scratch = put(path.join(attemptDir(tmpDir, { jobId, attempt: 1 }), ".cutroom-render-k/graph-0.txt"));
    const part = put(path.join(storeDir, "projects/7/12/preview-30.mp4.11223344.part.mp4"));
    const swept = await sweepLeftovers({ db, storeDir, tmpDir, leaseMs: LEASE });
    expect(swept).toEqual({ partFiles: 1, scratchDirs: 1, deletedProjects: 0 });
    expect(fs.existsSync(scratch)).toBe(false);
    expect(fs.existsSync(part)).toBe(false);
  });

  it("keeps what a live process of this machine holds under its lease", async () => {
    const queue = new LocalQueue(db);
    const jobId = "create-project:projectId=14";
    await queue.enqueue("create-project", { projectId: 14 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const handler = async () => {
      started = true;
      await held;
    };
    await queue.start(Object.fromEntries(JOB_TYPES.map((t) => [t, handler])) as unknown as Handlers, { concurrency: 1, leaseMs: 60_000, pollMs: 20 });
    while (!started) await new Promise((r) => setTimeout(r, 10));
    const scratch = put(path.join(attemptDir(tmpDir, { jobId, attempt: 1 }), ".cutroom-render-l/graph-0.txt"));
    const part = put(path.join(storeDir, "projects/7/14/preview-31.mp4.55667788.part.mp4"));
    const swept = await sweepLeftovers({ db, storeDir, tmpDir, leaseMs: LEASE });
    expect(swept).toEqual({ partFiles: 0, scratchDirs: 0, deletedProjects: 0 });
    expect(fs.existsSync(scratch)).toBe(true);
    expect(fs.existsSync(part)).toBe(true);
    release();
    await queue.stop();
  });
});
