import { BUSY_STATUSES } from "../../api/projects";
import { MAX_PROGRESS_STREAMS_PER_USER, type ProjectProgress } from "../../api/progress";
import type { Db } from "../db";
import type { ProjectRow } from "../db/projects";
import { estimatesFrom, queueSnapshot, type QueueSnapshot, type QueueSnapshotSource } from "./progress";

/** How often the hub reads the open streams' projects. */
export const PROGRESS_TICK_MS = 1_000;

/** Where one open stream's events go. */
export interface ProgressSink {
  send(event: ProjectProgress): void;
  /** The hub shuts down (server closing): the stream ends. */
  end(): void;
}

interface Subscriber {
  userId: number;
  sink: ProgressSink;
  /** What this stream was last sent per project, so only changes go out. */
  sent: Map<number, string>;
  /** Projects it saw busy: their next change (ready, failed, deleted) is sent even though they are no longer busy. */
  watched: Set<number>;
}

export interface ProgressHubDeps {
  db: Db;
  /** The job runner's slots, for the time a queued project waits. */
  concurrency: number;
  /** The queue's own snapshot when it is not the jobs table (issue 19, BullMQ). */
  queueSnapshot?: QueueSnapshotSource;
  tickMs?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export type ProgressHub = ReturnType<typeof createProgressHub>;

const isBusy = (row: Pick<ProjectRow, "status" | "is_queued">) => (BUSY_STATUSES as readonly string[]).includes(row.status) || row.is_queued === 1;

/**
 * Progress of the signed-in user's projects for the event streams (issue 13). Progress is written to the
 * project row by whichever process runs the job (ARCHITECTURE "Jobs"), so the row is the one source: while
 * any stream is open the hub reads its users' busy projects every tick and sends each stream what changed,
 * with the queue position and time left. A user's streams are capped; nothing of another user's is read.
 */
export function createProgressHub(deps: ProgressHubDeps) {
  const { db } = deps;
  const tickMs = deps.tickMs ?? PROGRESS_TICK_MS;
  const subscribers = new Set<Subscriber>();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let closed = false;

  const toEvent = (row: ProjectRow, estimate: { queue_ahead: number | null; seconds_left: number | null }): ProjectProgress => ({
    id: row.id,
    status: row.status as ProjectProgress["status"],
    is_queued: row.is_queued ? 1 : 0,
    working_progress: row.working_progress,
    working_progress_raw: row.working_progress_raw,
    deleted_at: row.deleted_at,
    updated_at: row.updated_at,
    queue_ahead: estimate.queue_ahead,
    seconds_left: estimate.seconds_left,
  });

  /** The user's busy projects and those a stream is watching; library items are not projects here. */
  async function rowsOf(userId: number, watched: ReadonlySet<number>): Promise<ProjectRow[]> {
    return db
      .selectFrom("projects")
      .selectAll()
      .where("user_id", "=", userId)
      .where("type", "!=", "library")
      .where((eb) =>
        eb.or([
          eb.and([eb("deleted_at", "is", null), eb.or([eb("status", "in", [...BUSY_STATUSES]), eb("is_queued", "=", 1)])]),
          ...(watched.size ? [eb("id", "in", [...watched])] : []),
        ]),
      )
      .execute();
  }

  function deliver(subscriber: Subscriber, rows: readonly ProjectRow[], estimates: Map<number, { queue_ahead: number | null; seconds_left: number | null }>) {
    for (const row of rows) {
      if (!isBusy(row) && !subscriber.watched.has(row.id)) continue;
      const event = toEvent(row, estimates.get(row.id) ?? { queue_ahead: null, seconds_left: null });
      const text = JSON.stringify(event);
      if (subscriber.sent.get(row.id) !== text) {
        subscriber.sent.set(row.id, text);
        subscriber.sink.send(event);
      }
      if (isBusy(row) && !row.deleted_at) subscriber.watched.add(row.id);
      else {
        subscriber.watched.delete(row.id);
        subscriber.sent.delete(row.id);
      }
    }
  }

  async function refresh(targets: readonly Subscriber[]) {
    const byUser = new Map<number, Subscriber[]>();
    for (const s of targets) byUser.set(s.userId, [...(byUser.get(s.userId) ?? []), s]);
    // The queue is read once per tick, and only when some stream has a busy project.
    let snapshot: Promise<QueueSnapshot> | undefined;
    for (const [userId, streams] of byUser) {
      const watched = new Set(streams.flatMap((s) => [...s.watched]));
      const rows = await rowsOf(userId, watched);
      const estimates = rows.some((r) => isBusy(r) && !r.deleted_at) ? estimatesFrom(await (snapshot ??= queueSnapshot(db, undefined, deps.queueSnapshot)), rows, deps.concurrency) : new Map();
      for (const s of streams) if (subscribers.has(s)) deliver(s, rows, estimates);
    }
  }

  function tick() {
    if (ticking || closed) return;
    ticking = refresh([...subscribers])
      .catch((error) => deps.log?.("progress tick failed", { error: String(error) }))
      .finally(() => (ticking = undefined));
  }

  function ensureTimer() {
    if (!timer && subscribers.size && !closed) {
      timer = setInterval(tick, tickMs);
      timer.unref();
    }
    if (timer && !subscribers.size) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  /** Open streams of a user (the cap is per user, across this process). */
  const streamsOf = (userId: number) => [...subscribers].filter((s) => s.userId === userId).length;

  return {
    streamsOf,

    /**
     * Adds a stream and sends it the user's busy projects at once; answers its unsubscribe, or undefined
     * when the user already has MAX_PROGRESS_STREAMS_PER_USER streams open (or the hub is closing).
     */
    async subscribe(userId: number, sink: ProgressSink): Promise<(() => void) | undefined> {
      if (closed || streamsOf(userId) >= MAX_PROGRESS_STREAMS_PER_USER) return undefined;
      const subscriber: Subscriber = { userId, sink, sent: new Map(), watched: new Set() };
      subscribers.add(subscriber);
      const unsubscribe = () => {
        subscribers.delete(subscriber);
        ensureTimer();
      };
      try {
        await refresh([subscriber]);
      } catch (error) {
        unsubscribe();
        throw error;
      }
      ensureTimer();
      return unsubscribe;
    },

    /** Ends every stream (the server is closing) and takes no more. */
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      for (const s of subscribers) s.sink.end();
      subscribers.clear();
      await ticking;
    },

    /** Open streams in all (tests check that a closed connection is let go). */
    size: () => subscribers.size,
  };
}
