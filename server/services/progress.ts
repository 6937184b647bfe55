import type { Selectable } from "kysely";
import { BUSY_STATUSES } from "../../api/projects";
import type { QueueEstimate } from "../../api/progress";
import type { Db } from "../db";
import type { ProjectRow } from "../db/projects";
import type { JobsTable } from "../db/schema";
import { displayedProgress } from "../domain/project-settings";
import { projectGroup } from "./projects";

type JobRow = Pick<Selectable<JobsTable>, "id" | "type" | "group_key" | "owner" | "priority" | "seq" | "status" | "claimed_at" | "lease_expires_at">;

/** Finished jobs of a type measured for a queued job's estimate (their median duration). */
const DURATION_SAMPLES = 20;
/** A running job's rate is trusted after this long and this much progress. */
const MIN_MEASURED_MS = 3_000;
const MIN_MEASURED_POINTS = 2;
/** Progress a job starts from (the least shown, SPEC §2 Project preview). */
const START_PROGRESS = 1;

const isBusy = (row: Pick<ProjectRow, "status" | "is_queued">) => (BUSY_STATUSES as readonly string[]).includes(row.status) || row.is_queued === 1;

const NO_ESTIMATE: QueueEstimate = { queue_ahead: null, seconds_left: null };

/**
 * The order the runner will claim the waiting jobs in, as local.ts claimNext picks them: highest
 * priority, then the owner with fewest running jobs, then the owner served least recently (each pick
 * serves its owner, so owners take turns), then first queued. Running counts are today's: a model of the
 * next claims, not a promise.
 */
export function claimOrder<T extends Pick<JobRow, "owner" | "priority" | "seq">>(queued: readonly T[], running: ReadonlyMap<string, number>, lastClaim: ReadonlyMap<string, number>): T[] {
  const served = new Map(lastClaim);
  let claims = Math.max(0, ...served.values());
  const left = [...queued];
  const order: T[] = [];
  const key = (job: T) => [-job.priority, job.owner === null ? 0 : (running.get(job.owner) ?? 0), job.owner === null ? 0 : (served.get(job.owner) ?? 0), job.seq];
  while (left.length) {
    let best = 0;
    for (let i = 1; i < left.length; i++) {
      const a = key(left[i]!);
      const b = key(left[best]!);
      const cmp = a.findIndex((v, k) => v !== b[k]);
      if (cmp >= 0 && a[cmp]! < b[cmp]!) best = i;
    }
    const [job] = left.splice(best, 1);
    order.push(job!);
    if (job!.owner !== null) served.set(job!.owner, ++claims);
  }
  return order;
}

/** Median of the durations, or undefined without any. */
function median(values: number[]): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** How long jobs of each type took lately on this server (claim to finish), in ms. */
async function typicalDurations(db: Db, types: readonly string[]): Promise<Map<string, number>> {
  const typical = new Map<string, number>();
  for (const type of new Set(types)) {
    const rows = await db
      .selectFrom("jobs")
      .select(["claimed_at", "updated_at"])
      .where("type", "=", type)
      .where("status", "=", "done")
      .where("attempts", "=", 1)
      .where("claimed_at", "is not", null)
      .orderBy("updated_at", "desc")
      .limit(DURATION_SAMPLES)
      .execute();
    const ms = median(rows.map((r) => Date.parse(r.updated_at) - Date.parse(r.claimed_at!)).filter((d) => Number.isFinite(d) && d >= 0));
    if (ms !== undefined) typical.set(type, ms);
  }
  return typical;
}

/** A running job's time left from its measured rate since it was claimed; undefined without a basis. */
function measuredLeftMs(progress: number, claimedAt: string | null, now: number): number | undefined {
  if (!claimedAt) return undefined;
  const elapsed = now - Date.parse(claimedAt);
  const done = progress - START_PROGRESS;
  if (!(elapsed >= MIN_MEASURED_MS) || done < MIN_MEASURED_POINTS) return undefined;
  return ((100 - progress) * elapsed) / done;
}

/** Rounded to 5 s, so a stream does not send a new estimate every second for nothing. */
const roundSeconds = (ms: number) => Math.max(0, Math.round(ms / 5_000) * 5);

/** The queue as it stands: what runs, what waits in the order it will be taken, and recent job lengths. */
export interface QueueSnapshot {
  now: number;
  running: JobRow[];
  order: JobRow[];
  typical: Map<string, number>;
}

/** A queue that is not the jobs table (issue 19: BullMQ in Redis) answers its own snapshot. */
export type QueueSnapshotSource = (now: number) => Promise<QueueSnapshot>;

/** Reads the queue once (a tick of the progress streams shares it between users). */
export async function queueSnapshot(db: Db, now = Date.now(), source?: QueueSnapshotSource): Promise<QueueSnapshot> {
  if (source) return source(now);
  const jobs: JobRow[] = await db
    .selectFrom("jobs")
    .select(["id", "type", "group_key", "owner", "priority", "seq", "status", "claimed_at", "lease_expires_at"])
    .where("status", "in", ["queued", "running"])
    .execute();
  const nowIso = new Date(now).toISOString();
  const running = jobs.filter((j) => j.status === "running" && (j.lease_expires_at ?? "") >= nowIso);
  const queued = jobs.filter((j) => j.status === "queued");
  const runningPerOwner = new Map<string, number>();
  for (const j of running) if (j.owner !== null) runningPerOwner.set(j.owner, (runningPerOwner.get(j.owner) ?? 0) + 1);
  const owners = [...new Set(queued.map((j) => j.owner).filter((o): o is string => o !== null))];
  const lastClaim = new Map<string, number>();
  if (owners.length) {
    const claims = await db
      .selectFrom("jobs")
      .select((eb) => ["owner", eb.fn.max("claim_seq").as("last")])
      .where("owner", "in", owners)
      .groupBy("owner")
      .execute();
    for (const c of claims) if (c.owner !== null) lastClaim.set(c.owner, Number(c.last ?? 0));
  }
  const order = claimOrder(queued, runningPerOwner, lastClaim);
  const typical = await typicalDurations(db, [...order.map((j) => j.type), ...running.map((j) => j.type)]);
  return { now, running, order, typical };
}

/**
 * Queue position and time left of the busy projects among `rows` (issue 13): for a waiting project, how
 * many waiting jobs the runner will take before its own, and — when every job involved has a measured
 * basis — the work ahead shared by the runner's slots plus its own typical length; for a running one,
 * what is left at the rate measured since its job was claimed. Other projects get nulls.
 */
export function estimatesFrom(snapshot: QueueSnapshot, rows: readonly ProjectRow[], concurrency: number): Map<number, QueueEstimate> {
  const { now, running, order, typical } = snapshot;
  const result = new Map<number, QueueEstimate>(rows.map((r) => [r.id, NO_ESTIMATE]));
  const busy = rows.filter((r) => isBusy(r) && !r.deleted_at);
  if (!busy.length) return result;
  const projectOf = new Map(rows.map((r) => [projectGroup(r.id), r]));
  // What each running job has left: measured on its own project when it has one, else its type's typical length.
  const runningLeft = running.map((j) => {
    const row = j.group_key ? projectOf.get(j.group_key) : undefined;
    const measured = row ? measuredLeftMs(displayedProgress(row.working_progress, row.working_progress_raw), j.claimed_at, now) : undefined;
    if (measured !== undefined) return measured;
    const t = typical.get(j.type);
    return t === undefined || !j.claimed_at ? undefined : Math.max(0, t - (now - Date.parse(j.claimed_at)));
  });
  const slots = Math.max(1, concurrency);

  for (const row of busy) {
    const group = projectGroup(row.id);
    const mine = running.find((j) => j.group_key === group);
    if (mine) {
      const left = runningLeft[running.indexOf(mine)];
      result.set(row.id, { queue_ahead: null, seconds_left: left === undefined ? null : roundSeconds(left) });
      continue;
    }
    const position = order.findIndex((j) => j.group_key === group);
    if (position < 0) continue;
    const ahead = order.slice(0, position);
    const own = typical.get(order[position]!.type);
    const aheadMs = ahead.map((j) => typical.get(j.type));
    const known = own !== undefined && aheadMs.every((d) => d !== undefined) && runningLeft.every((d) => d !== undefined);
    // Every slot must free up for the jobs ahead: their work spread over the slots, then this one's own.
    const waitMs = known ? [...runningLeft, ...aheadMs].reduce<number>((sum, d) => sum + (d ?? 0), 0) / slots : 0;
    // A project's jobs count once; an upload's processing (no group) is its library item's.
    const aheadCount = new Set(ahead.map((j) => j.group_key ?? j.id)).size;
    result.set(row.id, { queue_ahead: aheadCount, seconds_left: known ? roundSeconds(waitMs + own) : null });
  }
  return result;
}

/** The estimates of `rows`, reading the queue only when one of them is busy. */
export async function queueEstimates(db: Db, rows: readonly ProjectRow[], options: { concurrency: number; now?: number; source?: QueueSnapshotSource }): Promise<Map<number, QueueEstimate>> {
  const busy = rows.some((r) => isBusy(r) && !r.deleted_at);
  if (!busy) return new Map(rows.map((r) => [r.id, NO_ESTIMATE]));
  return estimatesFrom(await queueSnapshot(db, options.now, options.source), rows, options.concurrency);
}
