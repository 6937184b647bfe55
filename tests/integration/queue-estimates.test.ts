import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate, type Db } from "../../server/db/index";
import { dropDatabase, openTestDatabase } from "./database";
import type { ProjectRow } from "../../server/db/projects";
import { LocalQueue } from "../../server/jobs/local";
import { JOB_TYPES, type Handlers, type JobContext } from "../../server/jobs/types";
import { queueEstimates } from "../../server/services/progress";

/**
 * Issue 13: the queue position a waiting project is shown is the order the real runner takes the jobs in
 * (priority by plan, turns between owners by their last claim, FIFO), and a time left only with a basis.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A busy project as the estimates read it (only these fields matter). */
const waiting = (id: number, over: Partial<ProjectRow> = {}) =>
  ({ id, status: "Rendering", is_queued: 1, working_progress: 0, working_progress_raw: 100, deleted_at: null, ...over }) as ProjectRow;

function handlers(run: (projectId: number, ctx: JobContext) => Promise<void>): Handlers {
  return Object.fromEntries(JOB_TYPES.map((type) => [type, (payload: { projectId: number }, ctx: JobContext) => run(payload.projectId, ctx)])) as unknown as Handlers;
}

let dir: string;
let db: Db;
let queue: LocalQueue;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-estimates-"));
  db = openTestDatabase(dir);
  await migrate(db);
  queue = new LocalQueue(db);
});
afterEach(async () => {
  await queue.stop();
  await db.destroy();
  await dropDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function runAll(count: number, hold = 5): Promise<number[]> {
  const ran: number[] = [];
  await queue.start(
    handlers(async (projectId) => {
      ran.push(projectId);
      await sleep(hold);
    }),
    { concurrency: 1, pollMs: 10, leaseMs: 2_000 },
  );
  const until = Date.now() + 10_000;
  while (ran.length < count && Date.now() < until) await sleep(5);
  await queue.stop();
  return ran;
}

describe("queue position and time left", () => {
  it("predicts the runner's own order: paid first, owners taking turns (the one served longest ago first), FIFO", async () => {
    // Owner B was served a moment ago; A and C not yet.
    await queue.enqueue("render", { projectId: 100, final: false }, { owner: "B", group: "project:100" });
    expect(await runAll(1)).toEqual([100]);

    const queued: [number, string, number][] = [
      [1, "A", 0],
      [2, "A", 0],
      [3, "B", 0],
      [4, "C", 0],
      [5, "A", 0],
      [6, "D", 10],
      [7, "B", 0],
      [8, "D", 10],
    ];
    for (const [projectId, owner, priority] of queued) {
      await queue.enqueue("render", { projectId, final: false }, { owner, priority, group: `project:${projectId}` });
    }
    const estimates = await queueEstimates(db, queued.map(([id]) => waiting(id)), { concurrency: 1 });
    const predicted = [...estimates.entries()].sort((a, b) => a[1].queue_ahead! - b[1].queue_ahead!).map(([id]) => id);
    expect(predicted.map((id) => estimates.get(id)!.queue_ahead)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

    const ran = await runAll(queued.length);
    expect(ran).toEqual(predicted);
    // The paid owner's two, then A, C (never served) before B (served last), in turns.
    expect(ran.slice(0, 2)).toEqual([6, 8]);
  });

  it("gives a time left only with a measured basis: none before any render finished, then the queue's work ahead plus its own", async () => {
    await queue.enqueue("render", { projectId: 1, final: false }, { owner: "A", group: "project:1" });
    await queue.enqueue("render", { projectId: 2, final: false }, { owner: "A", group: "project:2" });
    let estimates = await queueEstimates(db, [waiting(1), waiting(2)], { concurrency: 1 });
    expect(estimates.get(2)).toEqual({ queue_ahead: 1, seconds_left: null });

    // Two renders finished here, of 20 s each (their claim and finish times as the runner writes them).
    await runAll(2);
    await db.updateTable("jobs").set({ claimed_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:20.000Z" }).where("status", "=", "done").execute();
    await queue.enqueue("render", { projectId: 3, final: false }, { owner: "A", group: "project:3" });
    await queue.enqueue("render", { projectId: 4, final: false }, { owner: "A", group: "project:4" });
    estimates = await queueEstimates(db, [waiting(3), waiting(4)], { concurrency: 1 });
    expect(estimates.get(3)).toEqual({ queue_ahead: 0, seconds_left: 20 });
    expect(estimates.get(4)).toEqual({ queue_ahead: 1, seconds_left: 40 });
    // Two slots share the work ahead.
    estimates = await queueEstimates(db, [waiting(3), waiting(4)], { concurrency: 2 });
    expect(estimates.get(4)).toEqual({ queue_ahead: 1, seconds_left: 30 });
  });

  it("measures a running job's rate: half done after 30 s leaves about 30 s", async () => {
    await queue.enqueue("render", { projectId: 1, final: false }, { owner: "A", group: "project:1" });
    const now = Date.parse("2026-01-01T00:01:00.000Z");
    await db
      .updateTable("jobs")
      .set({ status: "running", claimed_at: "2026-01-01T00:00:30.000Z", lease_expires_at: "2026-01-01T00:05:00.000Z", lease_owner: "test" })
      .execute();
    const running = waiting(1, { is_queued: 0, working_progress: 50.5 });
    expect((await queueEstimates(db, [running], { concurrency: 1, now })).get(1)).toEqual({ queue_ahead: null, seconds_left: 30 });
    // Just started: no basis yet, no number.
    const early = waiting(1, { is_queued: 0, working_progress: 2 });
    expect((await queueEstimates(db, [early], { concurrency: 1, now: Date.parse("2026-01-01T00:00:31.000Z") })).get(1)).toEqual({ queue_ahead: null, seconds_left: null });
    // A project that is not busy gets nothing.
    expect((await queueEstimates(db, [waiting(1, { status: "Preview Ready", is_queued: 0 })], { concurrency: 1, now })).get(1)).toEqual({ queue_ahead: null, seconds_left: null });
  });
});
