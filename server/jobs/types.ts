/** The closed set of background jobs: one payload shape (ids only) and one handler per type. */

export interface JobPayloads {
  "ingest-media": { mediaFileId: number };
  "create-project": { projectId: number };
  "render-raw": { projectId: number };
  /** A final render's resolution tier, aspect and crop (override the project's) and watermark; a preview has none. */
  render: { projectId: number; final: boolean; tier?: 1 | 2 | 4; aspect?: "" | "16x9" | "9x16" | "1x1"; watermark?: boolean; crop?: boolean };
  transcribe: { projectId: number };
  translate: { projectId: number; locale: string };
  "export-video-site": { projectId: number };
}

export type JobType = keyof JobPayloads;

/** One `{ type, payload }` per job type, so a switch on `type` narrows the payload. */
export type Job = { [T in JobType]: { type: T; payload: JobPayloads[T] } }[JobType];

/** A record keyed by every job type, so adding a type without listing it here fails to compile. */
const jobTypeSet: Record<JobType, true> = {
  "ingest-media": true,
  "create-project": true,
  "render-raw": true,
  render: true,
  transcribe: true,
  translate: true,
  "export-video-site": true,
};

export const JOB_TYPES = Object.keys(jobTypeSet) as readonly JobType[];

export function isJobType(value: string): value is JobType {
  return Object.hasOwn(jobTypeSet, value);
}

export type JobLog = (message: string, fields?: Record<string, unknown>) => void;

export interface JobContext {
  jobId: string;
  /** 1 on the first run; counts every claim, including one lost to a crash. */
  attempt: number;
  /** How many claims the job gets in all (absent: unknown); a step that gives up gracefully on the last one reads it. */
  maxAttempts?: number;
  /** Aborted when the job is cancelled, its lease is lost, or the runner shuts down. */
  signal: AbortSignal;
  /** Extends the lease now; long steps call it so a slow job is not taken for a crashed one. */
  heartbeat(): Promise<void>;
  log?: JobLog;
}

export type JobHandler<T extends JobType> = (payload: JobPayloads[T], ctx: JobContext) => Promise<void>;

/** Exhaustive: a job type without a handler is a compile error. */
export type Handlers = { [T in JobType]: JobHandler<T> };
