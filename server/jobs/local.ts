import { createHash, randomUUID } from "node:crypto";
import os from "node:os";
import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import type { Db } from "../db/index";
import type { Database, JobsTable } from "../db/schema";
import { startTimeOf } from "../media/children";
import {
  JOB_DEFAULTS,
  PermanentJobError,
  assertJobId,
  backoffDelay,
  jobId,
  toError,
  type EnqueueOptions,
  type Enqueued,
  type JobInfo,
  type JobStatus,
  type Queue,
  type RunnerOptions,
} from "./queue";
import { JOB_TYPES, isJobType, type Handlers, type JobContext, type JobLog, type JobPayloads, type JobType } from "./types";

type JobRow = Selectable<JobsTable>;

type Runner = {
  handlers: Handlers;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  shutdownGraceMs: number;
  onFailed?: RunnerOptions["onFailed"];
  log?: JobLog;
};

/** A job this instance is executing; `owner` is the lease token of this one claim. */
type Execution = {
  row: JobRow;
  owner: string;
  controller: AbortController;
  renewTimer?: NodeJS.Timeout;
  stoppedBy?: "cancel" | "lease-lost" | "shutdown";
  settled: Promise<void>;
};

const FINISHED: JobStatus[] = ["done", "failed", "cancelled"];
const MAX_ERROR_LENGTH = 2_000;

const iso = (ms: number) => new Date(ms).toISOString();

const hostTag = () => createHash("sha256").update(os.hostname()).digest("hex").slice(0, 8);

/**
 * A runner's lease owners are `p<pid>.<start time>.<host>-<random>#<claim>` (at most 64 characters):
 * a claim names its process, so a start-up sweep on the same machine can tell the lease of a killed
 * process from that of a live one without waiting for it to expire (leftovers.ts).
 */
function instanceTag(): string {
  return `p${process.pid}.${startTimeOf(process.pid) ?? 0}.${hostTag()}-${randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

/** True when a lease owner names a process of this machine that is gone (a pid reused later has another start time). */
export function leaseOwnerIsDeadHere(owner: string | null): boolean {
  const match = owner ? /^p(\d+)\.(\d+)\.([0-9a-f]{8})-/.exec(owner) : null;
  if (!match || match[3] !== hostTag()) return false;
  return startTimeOf(Number(match[1])) !== match[2];
}

/**
 * The `local` adapter: a `jobs` table in the app's own database and an in-process runner.
 * Several instances (processes) may share one database; claims are atomic and leased.
 */
export class LocalQueue implements Queue {
  private readonly instanceId = instanceTag();
  private claims = 0;
  private runner?: Runner;
  private readonly running = new Map<string, Execution>();
  private pollTimer?: NodeJS.Timeout;
  private pumping?: Promise<void>;
  private pumpAgain = false;
  private stopping = false;
  private stopped?: Promise<void>;
  private abandoned = false;

  constructor(private readonly db: Db) {}

  async enqueue<T extends JobType>(type: T, payload: JobPayloads[T], options: EnqueueOptions = {}): Promise<Enqueued> {
    const id = options.id ?? jobId(type, payload);
    assertJobId(id);
    const maxAttempts = options.maxAttempts ?? JOB_DEFAULTS.maxAttempts;
    if (!(maxAttempts >= 1)) throw new RangeError(`maxAttempts must be at least 1, got ${maxAttempts}`);
    const now = Date.now();
    const delayMs = Math.max(0, options.delayMs ?? 0);
    const created = await insertOrRequeue(this.db, {
      id,
      type,
      payload: JSON.stringify(payload),
      group_key: options.group ?? null,
      owner: options.owner ?? null,
      priority: options.priority ?? JOB_DEFAULTS.priority,
      max_attempts: maxAttempts,
      run_at: iso(now + delayMs),
      created_at: iso(now),
    });
    if (created && delayMs > 0) this.wakeIn(delayMs);
    else if (created) this.wake();
    return { id, created };
  }

  async get(id: string): Promise<JobInfo | undefined> {
    const row = await this.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toInfo(row);
  }

  async cancelGroup(group: string): Promise<number> {
    const cancelled = await this.db
      .updateTable("jobs")
      .set({ status: "cancelled", updated_at: iso(Date.now()) })
      .where("group_key", "=", group)
      .where("status", "in", ["queued", "running"])
      .returning("id")
      .execute();
    const ids = new Set(cancelled.map((r) => r.id));
    for (const run of this.running.values()) if (ids.has(run.row.id)) this.interrupt(run, "cancel");
    // runners in other processes notice at their next lease renewal
    return cancelled.length;
  }

  async start(handlers: Handlers, options: RunnerOptions): Promise<void> {
    if (this.runner) throw new Error("This queue's runner is already started");
    assertHandlers(handlers);
    if (!(options.concurrency >= 1)) throw new RangeError(`concurrency must be at least 1, got ${options.concurrency}`);
    this.runner = {
      handlers,
      concurrency: options.concurrency,
      leaseMs: options.leaseMs ?? JOB_DEFAULTS.leaseMs,
      pollMs: options.pollMs ?? JOB_DEFAULTS.pollMs,
      backoffBaseMs: options.backoffBaseMs ?? JOB_DEFAULTS.backoffBaseMs,
      backoffMaxMs: options.backoffMaxMs ?? JOB_DEFAULTS.backoffMaxMs,
      shutdownGraceMs: options.shutdownGraceMs ?? JOB_DEFAULTS.shutdownGraceMs,
      onFailed: options.onFailed,
      log: options.log,
    };
    this.stopping = false;
    this.pollTimer = setInterval(() => this.wake(), this.runner.pollMs);
    this.wake();
  }

  stop(): Promise<void> {
    // a second caller waits for the same shutdown
    this.stopped ??= this.shutdown().finally(() => (this.stopped = undefined));
    return this.stopped;
  }

  private async shutdown(): Promise<void> {
    const runner = this.runner;
    if (!runner) return;
    this.stopping = true;
    clearInterval(this.pollTimer);
    const executions = [...this.running.values()];
    for (const run of executions) this.interrupt(run, "shutdown");
    await withTimeout(Promise.allSettled([...executions.map((r) => r.settled), this.pumping]), runner.shutdownGraceMs);
    // a handler that ignores its signal keeps running, but unleased: another runner resumes the job
    for (const run of this.running.values()) clearInterval(run.renewTimer);
    this.runner = undefined;
  }

  /** Stops every timer and writes nothing more, as a killed process would; tests use it to prove crash recovery. */
  abandon(): void {
    this.abandoned = true;
    clearInterval(this.pollTimer);
    for (const run of this.running.values()) clearInterval(run.renewTimer);
    this.running.clear();
    this.runner = undefined;
  }

  /** Claims jobs until the concurrency cap is reached or none is ready; one pump at a time. */
  private wake(): void {
    if (!this.runner || this.stopping || this.abandoned) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    const runner = this.runner;
    this.pumping = this.pump(runner)
      .catch((error) => runner.log?.("job claim failed", { error: toError(error).message }))
      .finally(() => {
        this.pumping = undefined;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.wake();
        }
      });
  }

  private wakeIn(ms: number): void {
    setTimeout(() => this.wake(), ms).unref();
  }

  private async pump(runner: Runner): Promise<void> {
    while (this.running.size < runner.concurrency && !this.stopping && !this.abandoned) {
      const owner = `${this.instanceId}#${++this.claims}`;
      const row = await claimNext(this.db, owner, runner.leaseMs);
      if (!row || this.abandoned) return;
      if (this.stopping) {
        await releaseClaim(this.db, row.id, owner);
        return;
      }
      this.execute(row, owner, runner);
    }
  }

  private execute(row: JobRow, owner: string, runner: Runner): void {
    const run: Execution = { row, owner, controller: new AbortController(), settled: Promise.resolve() };
    this.running.set(owner, run);
    const renew = () => this.renew(run, runner);
    run.renewTimer = setInterval(() => void renew(), Math.max(5, Math.floor(runner.leaseMs / 3)));
    run.settled = this.runHandler(run, runner, renew)
      .then((error) => this.settle(run, runner, error))
      .catch((error) => runner.log?.("job bookkeeping failed", { jobId: row.id, error: toError(error).message }))
      .finally(() => {
        clearInterval(run.renewTimer);
        this.running.delete(owner);
        this.wake();
      });
  }

  /** Runs the handler; answers the error it threw, if any. */
  private async runHandler(run: Execution, runner: Runner, heartbeat: () => Promise<void>): Promise<Error | undefined> {
    const { row } = run;
    try {
      if (!isJobType(row.type)) throw new PermanentJobError(`No handler for job type "${row.type}"`);
      // attempts count claims, so a lease that expired on the last attempt lands here
      if (row.attempts > row.max_attempts) throw new PermanentJobError(`Gave up after ${row.max_attempts} attempts; the last one never finished (runner crashed or hung)`);
      const handler = runner.handlers[row.type] as (payload: unknown, ctx: JobContext) => Promise<void>;
      const log: JobLog | undefined = runner.log && ((message, fields) => runner.log!(message, { jobId: row.id, ...fields }));
      await handler(parsePayload(row.payload), { jobId: row.id, attempt: row.attempts, maxAttempts: row.max_attempts, signal: run.controller.signal, heartbeat, log });
      return undefined;
    } catch (error) {
      return toError(error);
    }
  }

  /** Extends the lease; a lost lease (cancelled, or taken over after expiry) aborts the handler. */
  private async renew(run: Execution, runner: Runner): Promise<void> {
    if (this.abandoned || run.controller.signal.aborted) return;
    const held = await renewLease(this.db, run.row.id, run.owner, runner.leaseMs).catch(() => true); // retry on the next tick
    if (!held) this.interrupt(run, "lease-lost");
  }

  private interrupt(run: Execution, reason: NonNullable<Execution["stoppedBy"]>): void {
    if (run.controller.signal.aborted) return;
    run.stoppedBy = reason;
    if (reason !== "shutdown") clearInterval(run.renewTimer);
    run.controller.abort(new Error(reason === "cancel" ? "Job cancelled" : reason === "shutdown" ? "Runner shutting down" : "Job lease lost"));
  }

  /** Records the outcome, only while this claim still holds the job (not cancelled, not taken over). */
  private async settle(run: Execution, runner: Runner, error: Error | undefined): Promise<void> {
    if (this.abandoned) return;
    const { row, owner } = run;
    const now = Date.now();
    if (!error) {
      await finishClaim(this.db, row.id, owner, { status: "done", last_error: null, updated_at: iso(now) });
      return;
    }
    if (run.stoppedBy === "shutdown") {
      await releaseClaim(this.db, row.id, owner);
      return;
    }
    const lastError = error.message.slice(0, MAX_ERROR_LENGTH) || error.name;
    if (error instanceof PermanentJobError || row.attempts >= row.max_attempts) {
      const failed = await finishClaim(this.db, row.id, owner, { status: "failed", last_error: lastError, updated_at: iso(now) });
      if (failed) await this.reportFailure(runner, toInfo(failed), error);
      return;
    }
    const delay = backoffDelay(row.attempts, runner.backoffBaseMs, runner.backoffMaxMs);
    const retried = await finishClaim(this.db, row.id, owner, { status: "queued", last_error: lastError, run_at: iso(now + delay), updated_at: iso(now) });
    if (retried) this.wakeIn(delay);
  }

  private async reportFailure(runner: Runner, job: JobInfo, error: Error): Promise<void> {
    runner.log?.("job failed", { jobId: job.id, attempts: job.attempts, error: error.message });
    try {
      await runner.onFailed?.(job, error);
    } catch (hookError) {
      runner.log?.("onFailed threw", { jobId: job.id, error: toError(hookError).message });
    }
  }
}

/** Immich-style guard for callers that bypass the compiler: every job type needs a handler. */
function assertHandlers(handlers: Handlers): void {
  const missing = JOB_TYPES.filter((type) => typeof handlers[type] !== "function");
  if (missing.length) throw new Error(`Missing job handlers: ${missing.join(", ")}`);
}

/** A payload that does not parse will not parse on a retry either. */
function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new PermanentJobError(`Unreadable job payload: ${text.slice(0, 200)}`);
  }
}

function toInfo(row: JobRow): JobInfo {
  return {
    id: row.id,
    type: row.type,
    payload: JSON.parse(row.payload),
    group: row.group_key,
    owner: row.owner,
    priority: row.priority,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    lastError: row.last_error,
    runAt: new Date(row.run_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  } as JobInfo;
}

function withTimeout(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const isPostgres = (db: Db) => db.getExecutor().adapter.constructor.name.startsWith("Postgres");

type NewJob = Pick<JobRow, "id" | "type" | "payload" | "group_key" | "owner" | "priority" | "max_attempts" | "run_at" | "created_at">;

/** Inserts the job, or re-queues a finished one with the same id; answers false when it is still pending. */
async function insertOrRequeue(db: Db, job: NewJob): Promise<boolean> {
  // seq comes from the table inside the statement, so it stays monotonic across instances
  const nextSeq = sql<number>`(select coalesce(max(seq), 0) + 1 from jobs)`;
  const row = await db
    .insertInto("jobs")
    .values({ ...job, seq: nextSeq, status: "queued", attempts: 0, lease_owner: null, lease_expires_at: null, last_error: null, updated_at: job.created_at })
    .onConflict((oc) =>
      oc
        .column("id")
        .doUpdateSet((eb) => ({
          type: eb.ref("excluded.type"),
          payload: eb.ref("excluded.payload"),
          group_key: eb.ref("excluded.group_key"),
          owner: eb.ref("excluded.owner"),
          priority: eb.ref("excluded.priority"),
          seq: eb.ref("excluded.seq"),
          max_attempts: eb.ref("excluded.max_attempts"),
          run_at: eb.ref("excluded.run_at"),
          status: "queued",
          attempts: 0,
          lease_owner: null,
          lease_expires_at: null,
          last_error: null,
          updated_at: eb.ref("excluded.updated_at"),
        }))
        .where("jobs.status", "in", FINISHED),
    )
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Ready to claim: queued and due, or running under a lease that expired (its runner died). */
function claimable(eb: ExpressionBuilder<Database, "jobs">, now: string) {
  return eb.or([
    eb.and([eb("status", "=", "queued"), eb("run_at", "<=", now)]),
    eb.and([eb("status", "=", "running"), eb("lease_expires_at", "<", now)]),
  ]);
}

/**
 * One atomic UPDATE … WHERE id = (best ready job) … RETURNING: two runners never get the same claim.
 * The best job: highest priority; within it, fair between owners (issue 12 item 5) — the owner with the
 * fewest jobs running under a live lease, then the owner whose last claim is oldest (round-robin:
 * a user with five long jobs queued first does not hold back another's one short job), then FIFO.
 * Jobs without an owner tie on both, so they keep plain FIFO.
 */
async function claimNext(db: Db, owner: string, leaseMs: number): Promise<JobRow | undefined> {
  const nowMs = Date.now();
  const now = iso(nowMs);
  // `jobs` inside these subqueries is the candidate row of the select below (the nearest scope)
  const ownerRunning = sql<number>`(select count(*) from jobs as r where r.owner = jobs.owner and r.status = 'running' and r.lease_expires_at >= ${now})`;
  const ownerLastClaim = sql<number>`coalesce((select max(c.claim_seq) from jobs as c where c.owner = jobs.owner), 0)`;
  const best = db
    .selectFrom("jobs")
    .select("id")
    .where((eb) => claimable(eb, now))
    .orderBy("priority", "desc")
    .orderBy(ownerRunning, "asc")
    .orderBy(ownerLastClaim, "asc")
    .orderBy("seq", "asc")
    .limit(1)
    .$if(isPostgres(db), (qb) => qb.forUpdate().skipLocked());
  return db
    .updateTable("jobs")
    .set((eb) => ({ status: "running", attempts: eb("attempts", "+", 1), lease_owner: owner, lease_expires_at: iso(nowMs + leaseMs), claimed_at: now, claim_seq: sql<number>`(select coalesce(max(claim_seq), 0) + 1 from jobs)`, updated_at: now }))
    .where("id", "=", best)
    // re-checked on the row itself, so a concurrent claim under READ COMMITTED updates nothing
    .where((eb) => claimable(eb, now))
    .returningAll()
    .executeTakeFirst();
}

async function renewLease(db: Db, id: string, owner: string, leaseMs: number): Promise<boolean> {
  const now = Date.now();
  const result = await db
    .updateTable("jobs")
    .set({ lease_expires_at: iso(now + leaseMs), updated_at: iso(now) })
    .where("id", "=", id)
    .where("lease_owner", "=", owner)
    .where("status", "=", "running")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

type Outcome = Partial<Pick<JobRow, "status" | "last_error" | "run_at">> & { updated_at: string };

/** Ends this claim with the outcome; answers the updated row, or undefined if the claim no longer holds. */
function finishClaim(db: Db, id: string, owner: string, outcome: Outcome): Promise<JobRow | undefined> {
  return db
    .updateTable("jobs")
    .set({ ...outcome, lease_owner: null, lease_expires_at: null })
    .where("id", "=", id)
    .where("lease_owner", "=", owner)
    .where("status", "=", "running")
    .returningAll()
    .executeTakeFirst();
}

/** Puts an interrupted claim back without charging an attempt: a shutdown is not the job's fault. */
function releaseClaim(db: Db, id: string, owner: string): Promise<JobRow | undefined> {
  const now = iso(Date.now());
  return db
    .updateTable("jobs")
    .set((eb) => ({ status: "queued", attempts: eb("attempts", "-", 1), run_at: now, updated_at: now, lease_owner: null, lease_expires_at: null }))
    .where("id", "=", id)
    .where("lease_owner", "=", owner)
    .where("status", "=", "running")
    .returningAll()
    .executeTakeFirst();
}
