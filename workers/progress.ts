import { API_BASE } from "../api/route";
import { BUSY_STATUSES, type Project } from "../api/projects";
import { PROGRESS_EVENTS_PATH, PROGRESS_HEARTBEAT_MS, ProjectProgress, StreamHello } from "../api/progress";
import type { CutroomDb, ProgressStreamState } from "../src/db";

/** Reconnection waits: 1 s, 2 s, 4 s… up to a minute (the poll's own period, SPEC §9). */
export const STREAM_RETRY_BASE_MS = 1_000;
export const STREAM_RETRY_MAX_MS = 60_000;
/** No byte for this many heartbeats: the connection is dead even if the socket does not say so. */
const STALL_HEARTBEATS = 2.5;

export interface ProgressStreamDeps {
  db: CutroomDb;
  getToken: () => Promise<string | undefined>;
  fetchImpl?: typeof fetch;
  baseUrl?: string;
  /** A project left its busy state (ready, failed, deleted): reload it, and its highlights when ready. */
  onSettled: (id: number, progress: ProjectProgress) => Promise<unknown>;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

const busy = (p: Pick<Project, "status" | "is_queued" | "deleted_at">) => !p.deleted_at && (p.is_queued === 1 || BUSY_STATUSES.includes(p.status));

/** Splits an event stream's text into events (`event:` and `data:` lines); comments are heartbeats. */
export function sseParser(onEvent: (event: string, data: string) => void) {
  let buffer = "";
  return (text: string) => {
    buffer += text.replaceAll("\r\n", "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) onEvent(event, data.join("\n"));
    }
  };
}

/**
 * The progress stream of the signed-in user's projects (issue 13): opened while a view says some project
 * is busy and the app is visible and online, read with fetch (bearer header), written into the Dexie
 * mirror so the views update live. A dropped or stalled stream reconnects with back-off; meanwhile the
 * screens' 60 s poll (SPEC §9) keeps working, as it always does.
 */
export function createProgressStream(deps: ProgressStreamDeps) {
  const { db } = deps;
  const fetchImpl = deps.fetchImpl ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const retryBase = deps.retryBaseMs ?? STREAM_RETRY_BASE_MS;
  const retryMax = deps.retryMaxMs ?? STREAM_RETRY_MAX_MS;
  let wanted = false;
  let controller: AbortController | undefined;
  let running: Promise<void> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  /** Applied one after another, in arrival order. */
  let applying: Promise<void> = Promise.resolve();

  const setState = (state: ProgressStreamState) => db.meta.put({ key: "progressStream", value: { state, at: new Date().toISOString() } });

  /** One event into the mirror; the end of a busy spell reloads the project (its render link, highlights). */
  async function apply(progress: ProjectProgress) {
    const before = await db.projects.get(progress.id);
    // Not in the mirror (another device's project list): nothing to update field by field.
    if (!before) return;
    // The mirror already holds something newer (a lifecycle call's answer, a poll).
    if (before.updated_at > progress.updated_at) return;
    const { id, ...fields } = progress;
    await db.projects.update(id, fields);
    if (busy(before) && !busy(progress)) await deps.onSettled(id, progress);
  }

  async function connectOnce(): Promise<"ended" | "refused" | "signed_out"> {
    const token = await deps.getToken();
    if (!token) return "signed_out";
    const abort = new AbortController();
    controller = abort;
    let stall: ReturnType<typeof setTimeout> | undefined;
    let heartbeatMs = PROGRESS_HEARTBEAT_MS;
    const alive = () => {
      clearTimeout(stall);
      stall = setTimeout(() => abort.abort(), heartbeatMs * STALL_HEARTBEATS);
    };
    try {
      const response = await fetchImpl(`${deps.baseUrl ?? ""}${API_BASE}${PROGRESS_EVENTS_PATH}`, {
        headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
        signal: abort.signal,
        cache: "no-store",
      });
      if (response.status === 401) return "signed_out";
      if (!response.ok || !response.body) return "refused";
      alive();
      await setState("live");
      const parse = sseParser((event, data) => {
        let json: unknown;
        try {
          json = JSON.parse(data);
        } catch {
          return;
        }
        if (event === "hello") {
          const hello = StreamHello.safeParse(json);
          if (hello.success) heartbeatMs = hello.data.heartbeat_ms;
          failures = 0;
        } else if (event === "project") {
          const progress = ProjectProgress.safeParse(json);
          if (progress.success) applying = applying.then(() => apply(progress.data)).catch(() => undefined);
        }
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parse(decoder.decode(value, { stream: true }));
        // After the text is read: the hello event may have told a heartbeat of its own.
        alive();
      }
      return "ended";
    } catch {
      return "ended";
    } finally {
      clearTimeout(stall);
      await applying;
      if (controller === abort) controller = undefined;
    }
  }

  async function run() {
    while (wanted) {
      const outcome = await connectOnce();
      if (!wanted) break;
      // Signed out: nothing to stream until a view asks again.
      if (outcome === "signed_out") {
        wanted = false;
        break;
      }
      failures += 1;
      await setState("retrying");
      const delay = Math.min(retryMax, retryBase * 2 ** Math.min(16, failures - 1));
      await new Promise<void>((resolve) => {
        retryTimer = setTimeout(resolve, delay);
        wake = resolve;
      });
      wake = undefined;
    }
    await setState("off");
  }
  let wake: (() => void) | undefined;

  return {
    /**
     * The views' wish: a project is busy and the page is visible and online. Turning it on opens the
     * stream (or retries at once after a failure); turning it off closes it.
     */
    async setWanted(on: boolean) {
      if (on === wanted && (on ? !!running : !running)) return;
      wanted = on;
      if (on) {
        if (running) {
          // Waiting to retry: the page came back, try now.
          clearTimeout(retryTimer);
          wake?.();
          return;
        }
        failures = 0;
        running = run().finally(() => (running = undefined));
        return;
      }
      clearTimeout(retryTimer);
      wake?.();
      controller?.abort();
      await running;
    },
    /** Settles once the stream is closed and every event received has reached the mirror (tests). */
    idle: () => running ?? Promise.resolve(),
  };
}
