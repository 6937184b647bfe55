import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PermanentJobError, type JobInfo, type Queue, type RunnerOptions } from "../../server/jobs/queue";
import { JOB_TYPES, type Handlers, type JobContext, type JobType } from "../../server/jobs/types";

/** What an adapter's test file provides: a fresh, empty store per test. */
export interface QueueHarness {
  /** The first instance on the store. */
  queue: Queue;
  /** Another instance on the same store, as a second process would open it. */
  another(): Promise<Queue>;
  /** Kills an instance the hard way: no stop(), no more lease renewals, no more writes. */
  crash(queue: Queue): Promise<void>;
  /** Stops every live instance and removes the store. */
  close(): Promise<void>;
}

type Run = (type: JobType, payload: any, ctx: JobContext) => Promise<void>;

/** The same function for every job type; tests mostly enqueue `transcribe {projectId}`. */
function handlers(run: Run): Handlers {
  return Object.fromEntries(JOB_TYPES.map((type) => [type, (payload: unknown, ctx: JobContext) => run(type, payload, ctx)])) as Handlers;
}

/** Small timings so the whole suite stays fast. */
const FAST = { leaseMs: 2_000, pollMs: 20, backoffBaseMs: 20, shutdownGraceMs: 200 } satisfies Partial<RunnerOptions>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise<void>(() => {});

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(5);
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
}

async function statusOf(queue: Queue, id: string): Promise<JobInfo["status"] | undefined> {
  return (await queue.get(id))?.status;
}

export function queueContract(name: string, make: () => Promise<QueueHarness>): void {
  describe(`Queue contract: ${name}`, () => {
    let h: QueueHarness;
    beforeEach(async () => {
      h = await make();
    });
    afterEach(async () => {
      await h.close();
    });

    it("runs higher priorities first", async () => {
      const ran: number[] = [];
      for (const [projectId, priority] of [[1, 0], [2, 10], [3, 5], [4, 10], [5, 0]] as const) {
        await h.queue.enqueue("transcribe", { projectId }, { priority });
      }
      await h.queue.start(handlers(async (_t, p) => void ran.push(p.projectId)), { ...FAST, concurrency: 1 });
      await until(() => ran.length === 5, "all five ran");
      expect(ran).toEqual([2, 4, 3, 1, 5]);
    });

    it("takes turns between owners: a user's one short job runs before another's second long one (concurrency 1)", async () => {
      const ran: string[] = [];
      let releaseFirst!: () => void;
      const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
      // user A queues five long jobs; user B queues one short job while A's first runs
      for (let projectId = 1; projectId <= 5; projectId++) await h.queue.enqueue("transcribe", { projectId }, { owner: "A" });
      await h.queue.start(
        handlers(async (_t, p, ctx) => {
          ran.push(`${(await h.queue.get(ctx.jobId))?.owner}${p.projectId}`);
          if (p.projectId === 1) await firstHeld;
          else await sleep(10);
        }),
        { ...FAST, concurrency: 1 },
      );
      await until(() => ran.length === 1, "A's first job runs");
      await h.queue.enqueue("transcribe", { projectId: 6 }, { owner: "B" });
      releaseFirst();
      await until(() => ran.length === 6, "all six ran");
      expect(ran).toEqual(["A1", "B6", "A2", "A3", "A4", "A5"]);
      expect((await h.queue.get("transcribe:projectId=6"))?.owner).toBe("B");
    });

    it("rotates between three owners that queued at once, each in its own FIFO order", async () => {
      const ran: string[] = [];
      const queued: [string, number][] = [["A", 1], ["A", 2], ["A", 3], ["B", 4], ["B", 5], ["C", 6]];
      for (const [owner, projectId] of queued) await h.queue.enqueue("transcribe", { projectId }, { owner });
      await h.queue.start(handlers(async (_t, p) => void ran.push(queued.find(([, id]) => id === p.projectId)!.join(""))), { ...FAST, concurrency: 1 });
      await until(() => ran.length === 6, "all six ran");
      expect(ran).toEqual(["A1", "B4", "C6", "A2", "B5", "A3"]);
    });

    it("gives a free slot to an owner with nothing running before a busy owner's next job (concurrency 2)", async () => {
      const running = new Set<number>();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      for (let projectId = 1; projectId <= 3; projectId++) await h.queue.enqueue("transcribe", { projectId }, { owner: "A" });
      await h.queue.enqueue("transcribe", { projectId: 4 }, { owner: "B" });
      let done = 0;
      await h.queue.start(
        handlers(async (_t, p) => {
          running.add(p.projectId);
          await gate;
          done++;
        }),
        { ...FAST, concurrency: 2 },
      );
      await until(() => running.size === 2, "two jobs run");
      await sleep(50);
      expect([...running].sort()).toEqual([1, 4]);
      release();
      await until(() => done === 4, "all four ran");
    });

    it("never lets fairness between owners override priority", async () => {
      const ran: string[] = [];
      await h.queue.enqueue("transcribe", { projectId: 1 }, { owner: "free", priority: 0 });
      for (let projectId = 2; projectId <= 4; projectId++) await h.queue.enqueue("transcribe", { projectId }, { owner: "paid", priority: 10 });
      await h.queue.start(handlers(async (_t, p) => void ran.push(String(p.projectId))), { ...FAST, concurrency: 1 });
      await until(() => ran.length === 4, "all four ran");
      expect(ran).toEqual(["2", "3", "4", "1"]);
    });

    it("runs jobs of one priority in the order they were enqueued, across instances", async () => {
      const other = await h.another();
      const ran: number[] = [];
      for (let projectId = 1; projectId <= 10; projectId++) {
        await (projectId % 2 ? h.queue : other).enqueue("transcribe", { projectId });
      }
      await h.queue.start(handlers(async (_t, p) => void ran.push(p.projectId)), { ...FAST, concurrency: 1 });
      await until(() => ran.length === 10, "all ten ran");
      expect(ran).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it("delivers every job exactly once to two runners sharing the store", async () => {
      const other = await h.another();
      const runs = new Map<number, number>();
      const attempts: number[] = [];
      const run = handlers(async (_t, p, ctx) => {
        runs.set(p.projectId, (runs.get(p.projectId) ?? 0) + 1);
        attempts.push(ctx.attempt);
        await sleep(Math.random() * 5);
      });
      const ids: string[] = [];
      for (let projectId = 1; projectId <= 40; projectId++) ids.push((await h.queue.enqueue("transcribe", { projectId })).id);
      await Promise.all([h.queue.start(run, { ...FAST, concurrency: 3 }), other.start(run, { ...FAST, concurrency: 3 })]);
      await until(async () => (await Promise.all(ids.map((id) => statusOf(h.queue, id)))).every((s) => s === "done"), "all forty are done");
      await sleep(3 * FAST.pollMs); // a duplicate delivery would show up here
      expect(runs.size).toBe(40);
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(attempts.every((attempt) => attempt === 1)).toBe(true);
    });

    it("never runs more jobs at once than its concurrency", async () => {
      let active = 0;
      let peak = 0;
      let finished = 0;
      for (let projectId = 1; projectId <= 12; projectId++) await h.queue.enqueue("transcribe", { projectId });
      await h.queue.start(
        handlers(async () => {
          peak = Math.max(peak, ++active);
          await sleep(15);
          active--;
          finished++;
        }),
        { ...FAST, concurrency: 3 },
      );
      await until(() => finished === 12, "all twelve finished");
      expect(peak).toBe(3);
    });

    it("dedupes by id while a job is queued or running", async () => {
      expect(await h.queue.enqueue("transcribe", { projectId: 1 })).toMatchObject({ created: true });
      expect(await h.queue.enqueue("transcribe", { projectId: 1 })).toMatchObject({ created: false });
      expect(await h.queue.enqueue("render", { projectId: 1, final: true })).toMatchObject({ created: true });
      expect(await h.queue.enqueue("render", { final: true, projectId: 1 })).toMatchObject({ created: false });
      expect(await h.queue.enqueue("translate", { projectId: 1, locale: "de" }, { id: "translate-1" })).toEqual({ id: "translate-1", created: true });
      expect(await h.queue.enqueue("translate", { projectId: 1, locale: "fr" }, { id: "translate-1" })).toEqual({ id: "translate-1", created: false });

      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const ran: string[] = [];
      await h.queue.start(handlers(async (type, _p, ctx) => {
        ran.push(ctx.jobId);
        if (type === "transcribe") await gate;
      }), { ...FAST, concurrency: 3 });
      const transcribe = await h.queue.enqueue("transcribe", { projectId: 1 });
      await until(async () => (await statusOf(h.queue, transcribe.id)) === "running", "transcribe runs");
      expect(await h.queue.enqueue("transcribe", { projectId: 1 })).toMatchObject({ created: false });
      release();
      await until(async () => (await statusOf(h.queue, transcribe.id)) === "done", "transcribe is done");
      await until(async () => (await statusOf(h.queue, "translate-1")) === "done", "translate is done");
      expect(ran.filter((id) => id === transcribe.id)).toHaveLength(1);
      expect((await h.queue.get("translate-1"))?.payload).toEqual({ projectId: 1, locale: "de" });
      expect(await h.queue.get("no-such-job")).toBeUndefined();
    });

    it("takes any id up to 128 characters, colons and digits included, and refuses a longer one", async () => {
      // BullMQ refuses ':' and all-digit ids itself; an adapter must map them, not the callers
      for (const id of ["create-project:1", "42", "x".repeat(128)]) {
        expect(await h.queue.enqueue("create-project", { projectId: 1 }, { id })).toEqual({ id, created: true });
        expect(await h.queue.get(id)).toMatchObject({ id, status: "queued", payload: { projectId: 1 } });
      }
      await expect(h.queue.enqueue("create-project", { projectId: 1 }, { id: "x".repeat(129) })).rejects.toThrow(RangeError);
    });

    it("queues a finished job again, with fresh attempts, when its id is enqueued again", async () => {
      const attempts: number[] = [];
      await h.queue.start(handlers(async (_t, _p, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt === 1 && attempts.length === 1) throw new Error("first run fails once");
      }), { ...FAST, concurrency: 1 });
      const { id } = await h.queue.enqueue("transcribe", { projectId: 1 });
      await until(async () => (await statusOf(h.queue, id)) === "done", "the first run is done");
      expect((await h.queue.get(id))?.attempts).toBe(2);
      expect(await h.queue.enqueue("transcribe", { projectId: 1 })).toEqual({ id, created: true });
      await until(() => attempts.length === 3, "the job ran again");
      await until(async () => (await statusOf(h.queue, id)) === "done", "the second run is done");
      expect(attempts).toEqual([1, 2, 1]);
      expect(await h.queue.get(id)).toMatchObject({ status: "done", attempts: 1, lastError: null });
    });

    it("cancelGroup never runs the group's queued jobs and aborts its running one", async () => {
      const ran: number[] = [];
      let sawAbort = false;
      const running = await h.queue.enqueue("render", { projectId: 1, final: false }, { group: "project:1" });
      const queued = [
        await h.queue.enqueue("transcribe", { projectId: 1 }, { group: "project:1" }),
        await h.queue.enqueue("translate", { projectId: 1, locale: "de" }, { group: "project:1" }),
      ];
      const bystander = await h.queue.enqueue("transcribe", { projectId: 2 }, { group: "project:2" });
      await h.queue.start(handlers(async (type, p, ctx) => {
        ran.push(p.projectId);
        if (type !== "render") return;
        await untilAborted(ctx.signal);
        sawAbort = ctx.signal.aborted;
      }), { ...FAST, leaseMs: 60_000, concurrency: 1 }); // a long lease: the abort must not wait for a renewal
      await until(async () => (await statusOf(h.queue, running.id)) === "running", "the render runs");

      expect(await h.queue.cancelGroup("project:1")).toBe(3);
      await until(async () => (await statusOf(h.queue, bystander.id)) === "done", "the other group's job is done");
      expect(sawAbort).toBe(true);
      expect(ran).toEqual([1, 2]);
      for (const job of [running, ...queued]) expect(await statusOf(h.queue, job.id)).toBe("cancelled");
    });

    it("a cancel from another instance reaches the running handler", async () => {
      const other = await h.another();
      let started = false;
      let sawAbort = false;
      const { id } = await h.queue.enqueue("render", { projectId: 1, final: true }, { group: "project:1" });
      await h.queue.start(handlers(async (_t, _p, ctx) => {
        started = true;
        await untilAborted(ctx.signal);
        sawAbort = true;
      }), { ...FAST, leaseMs: 150, concurrency: 1 });
      await until(() => started, "the render runs");
      expect(await other.cancelGroup("project:1")).toBe(1);
      await until(() => sawAbort, "the handler sees the abort", 2_000);
      expect(await statusOf(h.queue, id)).toBe("cancelled");
    });

    it("retries a failing job with exponential back-off, then succeeds", async () => {
      const backoffBaseMs = 40;
      const calls: { attempt: number; at: number }[] = [];
      const { id } = await h.queue.enqueue("transcribe", { projectId: 1 }, { maxAttempts: 3 });
      await h.queue.start(handlers(async (_t, _p, ctx) => {
        calls.push({ attempt: ctx.attempt, at: Date.now() });
        if (ctx.attempt < 3) throw new Error(`flaky ${ctx.attempt}`);
      }), { ...FAST, backoffBaseMs, concurrency: 1 });
      await until(async () => (await statusOf(h.queue, id)) === "done", "the job is done");
      expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
      expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(backoffBaseMs);
      expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(2 * backoffBaseMs);
      expect(await h.queue.get(id)).toMatchObject({ status: "done", attempts: 3, lastError: null });
    });

    it("fails after max attempts, records the last error and calls onFailed once", async () => {
      const failures: { job: JobInfo; error: Error }[] = [];
      let calls = 0;
      const { id } = await h.queue.enqueue("create-project", { projectId: 7 }, { maxAttempts: 2 });
      await h.queue.start(handlers(async (_t, _p, ctx) => {
        calls++;
        throw new Error(`boom on attempt ${ctx.attempt}`);
      }), { ...FAST, concurrency: 1, onFailed: (job, error) => void failures.push({ job, error }) });
      await until(() => failures.length === 1, "onFailed is called");
      expect(failures[0]!.job).toMatchObject({ id, type: "create-project", payload: { projectId: 7 }, status: "failed", attempts: 2 });
      expect(failures[0]!.error.message).toBe("boom on attempt 2");
      await sleep(3 * FAST.pollMs + 2 * FAST.backoffBaseMs); // no third attempt, no second onFailed
      expect(calls).toBe(2);
      expect(failures).toHaveLength(1);
      expect(await h.queue.get(id)).toMatchObject({ status: "failed", attempts: 2, lastError: "boom on attempt 2" });
    });

    it("fails at once on a PermanentJobError", async () => {
      const failures: JobInfo[] = [];
      let calls = 0;
      const { id } = await h.queue.enqueue("ingest-media", { mediaFileId: 3 }, { maxAttempts: 5 });
      await h.queue.start(handlers(async () => {
        calls++;
        throw new PermanentJobError("the media file is gone");
      }), { ...FAST, concurrency: 1, onFailed: (job) => void failures.push(job) });
      await until(() => failures.length === 1, "onFailed is called");
      await sleep(3 * FAST.pollMs + 2 * FAST.backoffBaseMs);
      expect(calls).toBe(1);
      expect(await h.queue.get(id)).toMatchObject({ status: "failed", attempts: 1, lastError: "the media file is gone" });
    });

    it("keeps the lease of a job that runs longer than leaseMs, so no other runner takes it", async () => {
      const other = await h.another();
      let runs = 0;
      const run = handlers(async () => {
        runs++;
        await sleep(350);
      });
      const { id } = await h.queue.enqueue("render", { projectId: 1, final: true });
      await h.queue.start(run, { ...FAST, leaseMs: 100, concurrency: 1 });
      await other.start(run, { ...FAST, leaseMs: 100, concurrency: 1 });
      await until(async () => (await statusOf(h.queue, id)) === "done", "the render is done");
      expect(runs).toBe(1);
      expect((await h.queue.get(id))?.attempts).toBe(1);
    });

    it("resumes a crashed runner's job on another runner once the lease expires", async () => {
      const leaseMs = 200;
      let claimedAt = 0;
      const { id } = await h.queue.enqueue("render-raw", { projectId: 1 });
      await h.queue.start(handlers(async () => {
        claimedAt = Date.now();
        return never(); // the process dies mid-job
      }), { ...FAST, leaseMs, concurrency: 1 });
      await until(() => claimedAt > 0, "the first runner claims the job");
      await h.crash(h.queue);

      const other = await h.another();
      const resumed: { attempt: number; at: number }[] = [];
      await other.start(handlers(async (_t, _p, ctx) => void resumed.push({ attempt: ctx.attempt, at: Date.now() })), { ...FAST, leaseMs, concurrency: 1 });
      await until(async () => (await statusOf(other, id)) === "done", "the second runner completes the job");
      expect(resumed).toHaveLength(1);
      expect(resumed[0]!.attempt).toBe(2);
      expect(resumed[0]!.at - claimedAt).toBeGreaterThanOrEqual(leaseMs - 20);
    });

    it("fails a job whose lease expired on its last attempt instead of running it again", async () => {
      const leaseMs = 100;
      let claimed = false;
      const failures: JobInfo[] = [];
      const { id } = await h.queue.enqueue("render-raw", { projectId: 1 }, { maxAttempts: 1 });
      await h.queue.start(handlers(async () => {
        claimed = true;
        return never();
      }), { ...FAST, leaseMs, concurrency: 1 });
      await until(() => claimed, "the first runner claims the job");
      await h.crash(h.queue);

      const other = await h.another();
      let runs = 0;
      await other.start(handlers(async () => void runs++), { ...FAST, leaseMs, concurrency: 1, onFailed: (job) => void failures.push(job) });
      await until(() => failures.length === 1, "onFailed is called");
      expect(runs).toBe(0);
      expect(await other.get(id)).toMatchObject({ status: "failed" });
      expect((await other.get(id))?.lastError).toBeTruthy();
    });

    it("stop() aborts running handlers, starts nothing new, and leaves the interrupted job for later", async () => {
      const ran: number[] = [];
      let sawAbort = false;
      // one attempt only: a shutdown must not count as the job's failure
      const first = await h.queue.enqueue("transcribe", { projectId: 1 }, { maxAttempts: 1 });
      await h.queue.start(handlers(async (_t, p, ctx) => {
        ran.push(p.projectId);
        await untilAborted(ctx.signal);
        sawAbort = true;
        throw ctx.signal.reason;
      }), { ...FAST, concurrency: 2 });
      await until(() => ran.length === 1, "the first job runs");
      await h.queue.stop();
      expect(sawAbort).toBe(true);

      const second = await h.queue.enqueue("transcribe", { projectId: 2 });
      await sleep(3 * FAST.pollMs);
      expect(ran).toEqual([1]);
      expect(await statusOf(h.queue, second.id)).toBe("queued");
      expect(await statusOf(h.queue, first.id)).toBe("queued");

      const other = await h.another();
      await other.start(handlers(async (_t, p) => void ran.push(p.projectId)), { ...FAST, concurrency: 2 });
      await until(async () => (await statusOf(other, first.id)) === "done" && (await statusOf(other, second.id)) === "done", "another runner finishes both");
    });

    it("stop() waits only a bounded time for a handler that ignores its signal", async () => {
      let started = false;
      await h.queue.enqueue("export-video-site", { projectId: 1 });
      await h.queue.start(handlers(async () => {
        started = true;
        return never();
      }), { ...FAST, shutdownGraceMs: 100, concurrency: 1 });
      await until(() => started, "the job runs");
      const before = Date.now();
      await h.queue.stop();
      expect(Date.now() - before).toBeLessThan(1_000);
    });

    it("runs a job enqueued on its own instance at once, without waiting for the next poll", async () => {
      const ran: number[] = [];
      await h.queue.start(handlers(async (_t, p) => void ran.push(p.projectId)), { ...FAST, pollMs: 60_000, concurrency: 1 });
      await h.queue.enqueue("transcribe", { projectId: 1 });
      await h.queue.enqueue("transcribe", { projectId: 2 });
      await until(() => ran.length === 2, "both ran", 1_000);
    });

    it("holds a delayed job until its time", async () => {
      let ranAt = 0;
      const enqueuedAt = Date.now();
      await h.queue.start(handlers(async () => void (ranAt = Date.now())), { ...FAST, concurrency: 1 });
      await h.queue.enqueue("transcribe", { projectId: 1 }, { delayMs: 150 });
      await sleep(60);
      expect(ranAt).toBe(0);
      await until(() => ranAt > 0, "the delayed job runs");
      expect(ranAt - enqueuedAt).toBeGreaterThanOrEqual(150);
    });
  });
}
