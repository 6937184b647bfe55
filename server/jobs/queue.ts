import type { Handlers, Job, JobLog, JobPayloads, JobType } from "./types";

/** The queue port. Adapters: `local` (jobs table + in-process runner) and, later, `bullmq`. */
export interface Queue {
  /** Adds a job, or does nothing when a job with the same id is already queued or running. */
  enqueue<T extends JobType>(type: T, payload: JobPayloads[T], options?: EnqueueOptions): Promise<Enqueued>;
  get(id: string): Promise<JobInfo | undefined>;
  /** Cancels the group's queued and running jobs and aborts the running handlers; answers how many it cancelled. */
  cancelGroup(group: string): Promise<number>;
  /** Starts running jobs with these handlers until `stop()`. */
  start(handlers: Handlers, options: RunnerOptions): Promise<void>;
  /** Takes no new job, aborts running handlers and waits (bounded) for them to settle. */
  stop(): Promise<void>;
}

export interface EnqueueOptions {
  /** Deterministic id; defaults to `jobId(type, payload)`. */
  id?: string;
  /** Higher runs first; FIFO within a priority. */
  priority?: number;
  /** e.g. `project:42`, so a project's jobs can be cancelled together. */
  group?: string;
  delayMs?: number;
  maxAttempts?: number;
  /**
   * Whom the job works for (a user id). Within a priority the runner takes turns between owners: the
   * one with the fewest jobs running goes first, then the one served least recently, then FIFO.
   * Jobs without an owner are never held back for fairness.
   */
  owner?: string;
}

export interface Enqueued {
  id: string;
  /** False when a job with this id was already queued or running. */
  created: boolean;
}

export type JobStatus = "queued" | "running" | "done" | "failed" | "cancelled";

export type JobInfo = Job & {
  id: string;
  group: string | null;
  owner: string | null;
  priority: number;
  status: JobStatus;
  /** How many times the job was claimed. */
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  runAt: Date;
  createdAt: Date;
  updatedAt: Date;
};

export interface RunnerOptions {
  /** Most jobs this runner executes at once. */
  concurrency: number;
  /** How long a claim stays valid without renewal; an expired lease makes the job claimable again. */
  leaseMs?: number;
  pollMs?: number;
  /** Delay before the first retry; doubles on each further attempt. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long `stop()` waits for aborted handlers to settle. */
  shutdownGraceMs?: number;
  /** Called once when a job gives up (max attempts or a permanent error). */
  onFailed?: (job: JobInfo, error: Error) => void | Promise<void>;
  log?: JobLog;
}

export const JOB_DEFAULTS = {
  priority: 0,
  maxAttempts: 3,
  leaseMs: 30_000,
  pollMs: 500,
  backoffBaseMs: 1_000,
  backoffMaxMs: 5 * 60_000,
  shutdownGraceMs: 10_000,
} as const;

/** Thrown by a handler when retrying cannot help (e.g. the project is gone); the job fails at once. */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/** The default deterministic id, e.g. `render:final=true,projectId=42` (keys sorted). */
export function jobId<T extends JobType>(type: T, payload: JobPayloads[T]): string {
  const fields = Object.entries(payload)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`);
  return `${type}:${fields.join(",")}`;
}

/** The jobs.id column is varchar(128); PostgreSQL would reject a longer id. */
export const MAX_JOB_ID_LENGTH = 128;

export function assertJobId(id: string): void {
  if (!id || id.length > MAX_JOB_ID_LENGTH) throw new RangeError(`A job id needs 1–${MAX_JOB_ID_LENGTH} characters, got ${id.length}`);
}

/** Exponential back-off: base, 2·base, 4·base, … after attempts 1, 2, 3, …, capped at max. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
