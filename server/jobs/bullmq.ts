import os from "node:os";
import { DelayedError, Job, Queue as BullMQueue, UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
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
import type { QueueSnapshot } from "../services/progress";
import { JOB_TYPES, isJobType, type Handlers, type JobContext, type JobLog, type JobPayloads, type JobType } from "./types";

/**
 * The `bullmq` adapter (issue 19, scale mode): jobs live in Redis as BullMQ jobs, so API processes and
 * runner-only worker processes on other machines share one queue. BullMQ does the delivery (one
 * locked claim per job, lock renewal, stalled-job recovery when a worker dies, delays); this adapter
 * adds what the queue port promises and BullMQ's open-source edition leaves out:
 *
 * - A record per job id (`…:cr:rec:<id>`): the caller's id (BullMQ refuses ':' and all-digit ids, so the
 *   BullMQ id is the escaped id plus a generation, `render%3AprojectId=1~3`), owner, group, attempts
 *   given back by a shutdown, the last error of a retried attempt, and a `cancelled` flag. Re-enqueuing a
 *   finished or cancelled id starts a new generation; a worker only runs the generation the record names,
 *   so a stale or cancelled BullMQ job never reaches a handler.
 * - Fair share per owner (BullMQ Pro's groups otherwise): within a priority, a job's BullMQ priority adds
 *   its rank among its owner's pending jobs (`…:cr:owner:<owner>`), so owners take turns — the first job of
 *   every owner before anyone's second, each owner's jobs in FIFO order; jobs without an owner rank 0.
 * - Cancel by group through a group index (`…:cr:group:<group>`): queued jobs are removed, running ones
 *   are flagged and their handler aborted through Redis pub/sub (and a periodic check of the flag).
 * - Attempts count claims, as in the local adapter: retries and back-off are decided here (BullMQ's own
 *   retry counts only failures, not a claim lost to a crash).
 */
export interface BullQueueOptions {
  /** `redis://[user:password@]host:port[/db]` (rediss:// for TLS). */
  url: string;
  /** Key prefix of every Redis key the queue writes; several deployments (or tests) can share a server. */
  prefix?: string;
  /** The BullMQ queue name. */
  name?: string;
}

type Execution = {
  key: string;
  id: string;
  gen: number;
  controller: AbortController;
  stoppedBy?: "cancel" | "shutdown";
};

type Runner = {
  handlers: Handlers;
  worker: Worker;
  subscriber: Redis;
  leaseMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  shutdownGraceMs: number;
  onFailed?: RunnerOptions["onFailed"];
  log?: JobLog;
  checkTimer: NodeJS.Timeout;
};

type JobData = { id: string; gen: number; type: string; payload: unknown };

type SnapshotRow = QueueSnapshot["running"][number];

type RecordFields = {
  id: string;
  gen: string;
  type: string;
  payload: string;
  priority: string;
  group: string;
  owner: string;
  maxAttempts: string;
  createdAt: string;
  rank: string;
  cancelled: string;
  releases?: string;
  lastError?: string;
};

const MAX_ERROR_LENGTH = 2_000;
/** App priorities map to BullMQ's (lower runs first, at most 2^21) in steps of RANKS, leaving room for the owner rank. */
const PRIORITY_SPAN = 1_000;
const RANKS = 64;
/** A job given back by a shutdown is claimable again this much later. */
const RELEASE_DELAY_MS = 500;

/** BullMQ's priority for an app priority (higher first) and an owner rank (lower first). */
export function bullPriority(priority: number, rank: number): number {
  const p = Math.max(-PRIORITY_SPAN, Math.min(PRIORITY_SPAN, Math.round(priority)));
  return (PRIORITY_SPAN - p) * RANKS + Math.min(Math.max(0, rank), RANKS - 1) + 1;
}

/** `%`, `:` and `~` as `%XX`: the BullMQ id of generation `gen` never contains ':' and is never all digits. */
export function bullJobId(id: string, gen: number): string {
  return `${id.replace(/[%:~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}~${gen}`;
}

/** Starts a new generation of a job id, unless another enqueue got there first (answers -1 then). */
const ADVANCE = `
local gen = tonumber(redis.call('HGET', KEYS[1], 'gen') or '0')
if gen ~= tonumber(ARGV[1]) then return {-1, 0} end
gen = gen + 1
local rank = 0
if ARGV[7] ~= '' then
  redis.call('SREM', KEYS[3], ARGV[2])
  rank = redis.call('SCARD', KEYS[3])
  redis.call('SADD', KEYS[3], ARGV[2])
end
if ARGV[6] ~= '' then redis.call('SADD', KEYS[2], ARGV[2]) end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'id', ARGV[2], 'gen', gen, 'type', ARGV[3], 'payload', ARGV[4], 'priority', ARGV[5],
  'group', ARGV[6], 'owner', ARGV[7], 'maxAttempts', ARGV[8], 'createdAt', ARGV[9], 'rank', rank, 'cancelled', 0, 'releases', 0)
return {gen, rank}
`;

/** Flags generation ARGV[1] of a job cancelled (once) and drops it from its owner's pending set. */
const CANCEL = `
if redis.call('HGET', KEYS[1], 'gen') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'cancelled') == '1' then return 0 end
redis.call('HSET', KEYS[1], 'cancelled', 1)
redis.call('SREM', KEYS[2], ARGV[2])
redis.call('SREM', KEYS[3], ARGV[2])
return 1
`;

/** A generation ended (done or failed for good): it no longer counts for its owner or its group. */
const FINISH = `
if redis.call('HGET', KEYS[1], 'gen') ~= ARGV[1] then return 0 end
redis.call('SREM', KEYS[2], ARGV[2])
redis.call('SREM', KEYS[3], ARGV[2])
return 1
`;

type Scripts = {
  cutroomAdvance(rec: string, group: string, owner: string, ...args: (string | number)[]): Promise<[number, number]>;
  cutroomCancel(rec: string, group: string, owner: string, gen: string, id: string): Promise<number>;
  cutroomFinish(rec: string, group: string, owner: string, gen: string, id: string): Promise<number>;
};

export class BullQueue implements Queue {
  private readonly redis: Redis & Scripts;
  private readonly bull: BullMQueue;
  private readonly prefix: string;
  private readonly name: string;
  private readonly base: string;
  private runner?: Runner;
  private readonly running = new Map<string, Execution>();
  /** BullMQ job ids failed for good by this runner, with the handler's error (for onFailed). */
  private readonly finalErrors = new Map<string, Error>();
  /** Processor calls still running (a shutdown waits for them, bounded). */
  private readonly inflight = new Set<Promise<void>>();
  private stopped?: Promise<void>;
  private closed = false;

  constructor(private readonly options: BullQueueOptions) {
    this.prefix = options.prefix ?? "cutroom";
    this.name = options.name ?? "jobs";
    this.base = `${this.prefix}:${this.name}:cr`;
    this.redis = new Redis(options.url, { maxRetriesPerRequest: null }) as Redis & Scripts;
    this.redis.defineCommand("cutroomAdvance", { numberOfKeys: 3, lua: ADVANCE });
    this.redis.defineCommand("cutroomCancel", { numberOfKeys: 3, lua: CANCEL });
    this.redis.defineCommand("cutroomFinish", { numberOfKeys: 3, lua: FINISH });
    this.bull = new BullMQueue(this.name, { connection: this.connection(), prefix: this.prefix });
  }

  private connection() {
    return { url: this.options.url, maxRetriesPerRequest: null };
  }

  private recKey = (id: string) => `${this.base}:rec:${id}`;
  private groupKey = (group: string) => `${this.base}:group:${group}`;
  private ownerKey = (owner: string) => `${this.base}:owner:${owner}`;
  private get cancelChannel() {
    return `${this.base}:cancel`;
  }

  async enqueue<T extends JobType>(type: T, payload: JobPayloads[T], options: EnqueueOptions = {}): Promise<Enqueued> {
    const id = options.id ?? jobId(type, payload);
    assertJobId(id);
    const maxAttempts = options.maxAttempts ?? JOB_DEFAULTS.maxAttempts;
    if (!(maxAttempts >= 1)) throw new RangeError(`maxAttempts must be at least 1, got ${maxAttempts}`);
    const priority = options.priority ?? JOB_DEFAULTS.priority;
    const group = options.group ?? "";
    const owner = options.owner ?? "";
    const payloadText = JSON.stringify(payload);
    for (let tries = 0; tries < 10; tries++) {
      const current = (await this.redis.hgetall(this.recKey(id))) as Partial<RecordFields>;
      const gen = Number(current.gen ?? 0);
      if (gen > 0 && current.cancelled !== "1") {
        const job = await Job.fromId(this.bull, bullJobId(id, gen));
        // queued or running: the same job (a generation whose BullMQ job is gone counts as finished)
        if (job && !job.finishedOn) return { id, created: false };
      }
      const [next, rank] = await this.redis.cutroomAdvance(
        this.recKey(id),
        this.groupKey(group),
        this.ownerKey(owner),
        gen,
        id,
        type,
        payloadText,
        priority,
        group,
        owner,
        maxAttempts,
        Date.now(),
      );
      if (next < 0) continue; // another enqueue of this id won the race: look again
      const data: JobData = { id, gen: next, type, payload };
      await this.bull.add(type, data, {
        jobId: bullJobId(id, next),
        priority: bullPriority(priority, rank),
        delay: Math.max(0, options.delayMs ?? 0),
        attempts: 1, // retries are decided by the runner (attempts count claims)
        removeOnComplete: { age: 7 * 24 * 3600, count: 10_000 },
        removeOnFail: { age: 30 * 24 * 3600, count: 10_000 },
      });
      return { id, created: true };
    }
    throw new Error(`Could not enqueue job ${id}: too many concurrent enqueues of the same id`);
  }

  async get(id: string): Promise<JobInfo | undefined> {
    const rec = (await this.redis.hgetall(this.recKey(id))) as Partial<RecordFields>;
    if (!rec.gen) return undefined;
    const job = await Job.fromId(this.bull, bullJobId(id, Number(rec.gen)));
    let status: JobStatus;
    if (rec.cancelled === "1") status = "cancelled";
    else if (!job) status = "failed";
    else {
      const state = await job.getState();
      status = state === "active" ? "running" : state === "completed" ? "done" : state === "failed" ? "failed" : "queued";
    }
    const lastError = status === "done" ? null : status === "failed" ? job?.failedReason || rec.lastError || "The job is no longer in the queue" : rec.lastError || null;
    const createdAt = new Date(Number(rec.createdAt));
    return {
      id,
      type: rec.type,
      payload: JSON.parse(rec.payload ?? "null"),
      group: rec.group || null,
      owner: rec.owner || null,
      priority: Number(rec.priority),
      status,
      attempts: job ? Math.max(0, (job.attemptsStarted ?? 0) - Number(rec.releases ?? 0)) : 0,
      maxAttempts: Number(rec.maxAttempts),
      lastError,
      runAt: job ? new Date(job.timestamp + (job.delay ?? 0)) : createdAt,
      createdAt,
      updatedAt: new Date(Math.max(job?.finishedOn ?? 0, job?.processedOn ?? 0, job?.timestamp ?? 0, createdAt.getTime())),
    } as JobInfo;
  }

  /**
   * The queue as the progress estimates read it (issue 13, services/progress.ts): running jobs, waiting ones
   * in the order BullMQ will hand them out (its priority, which holds the owner rank, then FIFO), and the
   * median claim-to-finish time of recent first-attempt jobs of each type.
   */
  async snapshot(now = Date.now(), leaseMs: number = JOB_DEFAULTS.leaseMs): Promise<QueueSnapshot> {
    const rowOf = async (job: Job, status: "queued" | "running"): Promise<(SnapshotRow & { bullPriority: number }) | undefined> => {
      const { id, gen } = (job.data ?? {}) as Partial<JobData>;
      if (typeof id !== "string") return undefined;
      const rec = (await this.redis.hgetall(this.recKey(id))) as Partial<RecordFields>;
      if (Number(rec.gen) !== gen || rec.cancelled === "1") return undefined;
      return {
        id,
        type: rec.type ?? job.name,
        group_key: rec.group || null,
        owner: rec.owner || null,
        priority: Number(rec.priority ?? 0),
        seq: job.timestamp,
        status,
        claimed_at: job.processedOn ? new Date(job.processedOn).toISOString() : null,
        lease_expires_at: status === "running" ? new Date(now + leaseMs).toISOString() : null,
        bullPriority: job.priority ?? 0,
      };
    };
    const present = <T>(rows: (T | undefined)[]) => rows.filter((r): r is T => r !== undefined);
    const running = present(await Promise.all((await this.bull.getJobs(["active"])).map((job) => rowOf(job, "running"))));
    const waiting = present(await Promise.all((await this.bull.getJobs(["prioritized", "waiting", "delayed"])).map((job) => rowOf(job, "queued"))));
    const order = waiting.sort((a, b) => a.bullPriority - b.bullPriority || Number(a.seq) - Number(b.seq));
    const samples = new Map<string, number[]>();
    for (const job of await this.bull.getJobs(["completed"], 0, 499)) {
      const list = samples.get(job.name) ?? [];
      if (list.length < 20 && job.attemptsStarted === 1 && job.processedOn && job.finishedOn && job.finishedOn >= job.processedOn) list.push(job.finishedOn - job.processedOn);
      samples.set(job.name, list);
    }
    const typical = new Map<string, number>();
    for (const [type, list] of samples) {
      if (!list.length) continue;
      const sorted = list.sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      typical.set(type, sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2);
    }
    const strip = ({ bullPriority: _p, ...row }: SnapshotRow & { bullPriority: number }) => row;
    return { now, running: running.map(strip), order: order.map(strip), typical };
  }

  /** The attempts running in any worker now (BullMQ's active jobs), e.g. so a start-up sweep spares their scratch folders. */
  async liveAttempts(): Promise<{ id: string; attempt: number }[]> {
    const active = await this.bull.getActive();
    const live: { id: string; attempt: number }[] = [];
    for (const job of active) {
      const { id, gen } = (job.data ?? {}) as Partial<JobData>;
      if (typeof id !== "string") continue;
      const [recGen, releases] = await this.redis.hmget(this.recKey(id), "gen", "releases");
      if (Number(recGen) === gen) live.push({ id, attempt: (job.attemptsStarted ?? 1) - Number(releases ?? 0) });
    }
    return live;
  }

  async cancelGroup(group: string): Promise<number> {
    return this.cancelAll(await this.redis.smembers(this.groupKey(group)), (rec) => rec.group === group, (...ids) => this.redis.srem(this.groupKey(group), ...ids));
  }

  /** Cancels every queued and running job of an owner (a user whose account goes), through the owner index. */
  async cancelOwner(owner: string): Promise<number> {
    return this.cancelAll(await this.redis.smembers(this.ownerKey(owner)), (rec) => rec.owner === owner, (...ids) => this.redis.srem(this.ownerKey(owner), ...ids));
  }

  /** Cancels the pending ones of `ids` (read from an index: `belongs` re-checks each record, `drop` removes a stale id from it). */
  private async cancelAll(ids: string[], belongs: (rec: Partial<RecordFields>) => boolean, drop: (...ids: string[]) => Promise<unknown>): Promise<number> {
    const marked: { job: Job; key: string }[] = [];
    for (const id of ids) {
      const rec = (await this.redis.hgetall(this.recKey(id))) as Partial<RecordFields>;
      if (!rec.gen || !belongs(rec) || rec.cancelled === "1") {
        if (!belongs(rec)) await drop(id);
        continue;
      }
      const group = this.groupKey(rec.group ?? "");
      const job = await Job.fromId(this.bull, bullJobId(id, Number(rec.gen)));
      if (!job || job.finishedOn) {
        await this.redis.cutroomFinish(this.recKey(id), group, this.ownerKey(rec.owner ?? ""), rec.gen, id);
        continue;
      }
      if (await this.redis.cutroomCancel(this.recKey(id), group, this.ownerKey(rec.owner ?? ""), rec.gen, id)) marked.push({ job, key: `${id}~${rec.gen}` });
    }
    // Every record is marked before any handler is stopped: a worker freed by an abort takes its next job at
    // once, and that job must already read as cancelled (process() refuses it) rather than start.
    for (const { job, key } of marked) {
      // a queued job leaves the queue; a running one is locked (remove fails) and ends when its handler stops
      await job.remove().catch(() => undefined);
      this.interruptLocal(key, "cancel");
      await this.redis.publish(this.cancelChannel, key);
    }
    return marked.length;
  }

  async start(handlers: Handlers, options: RunnerOptions): Promise<void> {
    if (this.runner) throw new Error("This queue's runner is already started");
    const missing = JOB_TYPES.filter((type) => typeof handlers[type] !== "function");
    if (missing.length) throw new Error(`Missing job handlers: ${missing.join(", ")}`);
    if (!(options.concurrency >= 1)) throw new RangeError(`concurrency must be at least 1, got ${options.concurrency}`);
    const leaseMs = options.leaseMs ?? JOB_DEFAULTS.leaseMs;
    const subscriber = this.redis.duplicate();
    subscriber.on("message", (_channel: string, key: string) => this.interruptLocal(key, "cancel"));
    await subscriber.subscribe(this.cancelChannel);
    const worker = new Worker(this.name, (job: Job, token?: string, signal?: AbortSignal) => this.track(this.process(job, token, signal)), {
      connection: this.connection(),
      prefix: this.prefix,
      // BullMQ records it on each job it takes (processedBy): which process ran what
      name: `${os.hostname()}#${process.pid}`,
      concurrency: options.concurrency,
      lockDuration: leaseMs,
      // renewed within a third of the lease, as the local adapter does: a busy event loop does not lose it
      lockRenewTime: Math.max(3, Math.floor(leaseMs / 3)),
      stalledInterval: leaseMs,
      // a claim lost to a crash counts as an attempt here, and the attempt check decides when to give up
      maxStalledCount: 1_000,
      autorun: false,
    });
    const runner: Runner = {
      handlers,
      worker,
      subscriber,
      leaseMs,
      backoffBaseMs: options.backoffBaseMs ?? JOB_DEFAULTS.backoffBaseMs,
      backoffMaxMs: options.backoffMaxMs ?? JOB_DEFAULTS.backoffMaxMs,
      shutdownGraceMs: options.shutdownGraceMs ?? JOB_DEFAULTS.shutdownGraceMs,
      onFailed: options.onFailed,
      log: options.log,
      // pub/sub is at most once: a cancel sent while this subscriber reconnected is caught here
      checkTimer: setInterval(() => void this.checkCancelled(), Math.max(50, Math.floor(leaseMs / 3))),
    };
    worker.on("failed", (job) => void (job && this.reportFailure(runner, job)));
    worker.on("error", (error) => runner.log?.("queue worker error", { error: toError(error).message }));
    this.runner = runner;
    void worker.run().catch((error) => runner.log?.("queue worker stopped", { error: toError(error).message }));
    await worker.waitUntilReady();
  }

  stop(): Promise<void> {
    this.stopped ??= this.shutdown().finally(() => (this.stopped = undefined));
    return this.stopped;
  }

  private async shutdown(): Promise<void> {
    const runner = this.runner;
    if (!runner) return;
    clearInterval(runner.checkTimer);
    // no new job is fetched from here on (an interrupted one would be fetched right back otherwise)
    await Promise.race([runner.worker.pause(true), sleep(runner.shutdownGraceMs)]).catch(() => undefined);
    for (const run of this.running.values()) this.interrupt(run, "shutdown");
    const settled = await Promise.race([Promise.allSettled([...this.inflight]).then(() => true), sleep(runner.shutdownGraceMs).then(() => false)]);
    // a handler that ignores its signal keeps running, but unlocked (force): another worker resumes the job
    await Promise.race([runner.worker.close(!settled), sleep(runner.shutdownGraceMs + 1_000)]).catch(() => undefined);
    await runner.subscriber.quit().catch(() => runner.subscriber.disconnect());
    this.runner = undefined;
  }

  /** Stops the runner and closes every connection to Redis. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.stop();
    await this.bull.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Drops every connection at once without a word to Redis, as a killed process would; tests use it for crash recovery. */
  async abandon(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    this.running.clear();
    if (!runner) return;
    clearInterval(runner.checkTimer);
    runner.subscriber.disconnect();
    await Promise.race([runner.worker.close(true), sleep(1_000)]).catch(() => undefined);
  }

  private track(processing: Promise<void>): Promise<void> {
    this.inflight.add(processing);
    void processing.catch(() => undefined).finally(() => this.inflight.delete(processing));
    return processing;
  }

  private async process(job: Job, token: string | undefined, lockSignal: AbortSignal | undefined): Promise<void> {
    const runner = this.runner;
    const { id, gen } = job.data as JobData;
    const rec = (await this.redis.hgetall(this.recKey(id))) as Partial<RecordFields>;
    // a replaced generation or a cancelled job never reaches a handler
    if (Number(rec.gen) !== gen || rec.cancelled === "1" || !runner) throw new UnrecoverableError("Job cancelled");
    const attempt = (job.attemptsStarted ?? 1) - Number(rec.releases ?? 0);
    const maxAttempts = Number(rec.maxAttempts);
    const key = `${id}~${gen}`;
    const run: Execution = { key, id, gen, controller: new AbortController() };
    this.running.set(key, run);
    let error: Error | undefined;
    try {
      if (!isJobType(rec.type ?? "")) throw new PermanentJobError(`No handler for job type "${rec.type}"`);
      if (attempt > maxAttempts) throw new PermanentJobError(`Gave up after ${maxAttempts} attempts; the last one never finished (runner crashed or hung)`);
      const handler = runner.handlers[rec.type as JobType] as (payload: unknown, ctx: JobContext) => Promise<void>;
      const signal = lockSignal ? AbortSignal.any([run.controller.signal, lockSignal]) : run.controller.signal;
      const log: JobLog | undefined = runner.log && ((message, fields) => runner.log!(message, { jobId: id, ...fields }));
      const heartbeat = async () => {
        if (token) await job.extendLock(token, runner.leaseMs);
      };
      await handler(JSON.parse(rec.payload ?? "null"), { jobId: id, attempt, maxAttempts, signal, heartbeat, log });
    } catch (caught) {
      error = toError(caught);
    } finally {
      this.running.delete(key);
    }
    const finish = () => this.redis.cutroomFinish(this.recKey(id), this.groupKey(rec.group ?? ""), this.ownerKey(rec.owner ?? ""), String(gen), id);
    if (!error) {
      await finish();
      return;
    }
    if (run.stoppedBy === "shutdown") {
      // back to the queue without charging an attempt: a shutdown is not the job's fault
      await this.redis.hincrby(this.recKey(id), "releases", 1);
      // a moment from now: a fetch this worker had already blocked on before it paused would take it right back
      await job.moveToDelayed(Date.now() + RELEASE_DELAY_MS, token);
      throw new DelayedError();
    }
    if (run.stoppedBy === "cancel") throw new UnrecoverableError("Job cancelled");
    const lastError = error.message.slice(0, MAX_ERROR_LENGTH) || error.name;
    if (error instanceof PermanentJobError || attempt >= maxAttempts) {
      await finish();
      this.finalErrors.set(job.id!, error);
      throw new UnrecoverableError(lastError);
    }
    await this.redis.hset(this.recKey(id), "lastError", lastError);
    await job.moveToDelayed(Date.now() + backoffDelay(attempt, runner.backoffBaseMs, runner.backoffMaxMs), token);
    throw new DelayedError();
  }

  private async reportFailure(runner: Runner, job: Job): Promise<void> {
    const error = this.finalErrors.get(job.id!);
    if (!error) return; // a cancelled or replaced job, not a failure
    this.finalErrors.delete(job.id!);
    const { id } = job.data as JobData;
    runner.log?.("job failed", { jobId: id, error: error.message });
    try {
      const info = await this.get(id);
      if (info) await runner.onFailed?.(info, error);
    } catch (hookError) {
      runner.log?.("onFailed threw", { jobId: id, error: toError(hookError).message });
    }
  }

  private interruptLocal(key: string, reason: "cancel"): void {
    const run = this.running.get(key);
    if (run) this.interrupt(run, reason);
  }

  private interrupt(run: Execution, reason: NonNullable<Execution["stoppedBy"]>): void {
    if (run.controller.signal.aborted) return;
    run.stoppedBy = reason;
    run.controller.abort(new Error(reason === "cancel" ? "Job cancelled" : "Runner shutting down"));
  }

  private async checkCancelled(): Promise<void> {
    for (const run of [...this.running.values()]) {
      const [gen, cancelled] = await this.redis.hmget(this.recKey(run.id), "gen", "cancelled").catch(() => [String(run.gen), "0"]);
      if (Number(gen) !== run.gen || cancelled === "1") this.interrupt(run, "cancel");
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
