import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ProjectProgress } from "../../api/progress";
import { CutroomDb } from "../../src/db";
import { createProgressStream, sseParser } from "../../workers/progress";
import { makeProject } from "./edit-fixtures";

/** A response whose event-stream body the test writes to, and which errors when its request is aborted. */
function streamResponse(signal: AbortSignal | null | undefined) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  signal?.addEventListener("abort", () => controller.error(new DOMException("aborted", "AbortError")));
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }),
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

const event = (progress: Partial<ProjectProgress> & { id: number }): string => {
  const full: ProjectProgress = { status: "Rendering", is_queued: 0, working_progress: 1, working_progress_raw: 100, deleted_at: null, updated_at: "2026-11-01T10:00:05.000Z", queue_ahead: null, seconds_left: null, ...progress };
  return `event: project\ndata: ${JSON.stringify(full)}\n\n`;
};

let db: CutroomDb;
let streams: ReturnType<typeof streamResponse>[];
let requests: { url: string; headers: Record<string, string> }[];
let answers: (() => Promise<Response>)[];

const fetchImpl = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
  requests.push({ url: String(url), headers: init?.headers as Record<string, string> });
  const next = answers.shift();
  if (next) return next();
  const stream = streamResponse(init?.signal);
  streams.push(stream);
  return stream.response;
});

const streamState = async () => {
  const row = await db.meta.get("progressStream");
  return row?.key === "progressStream" ? row.value.state : undefined;
};

beforeEach(async () => {
  db = new CutroomDb(`progress-${Math.random()}`);
  await db.auth.put({ key: "token", token: "secret-token" });
  await db.projects.put(makeProject({ id: 7, status: "Rendering", is_queued: 1, working_progress: 0, updated_at: "2026-11-01T10:00:00.000Z" }));
  streams = [];
  requests = [];
  answers = [];
  fetchImpl.mockClear();
});
afterEach(() => db.delete());

function make(onSettled = vi.fn(async () => undefined)) {
  const stream = createProgressStream({ db, getToken: async () => (await db.auth.get("token"))?.token, fetchImpl: fetchImpl as typeof fetch, onSettled, retryBaseMs: 10, retryMaxMs: 40 });
  return { stream, onSettled };
}

describe("the progress stream in the sync worker (issue 13)", () => {
  it("splits an event stream into events, however the text is cut", () => {
    const seen: [string, string][] = [];
    const feed = sseParser((e, d) => seen.push([e, d]));
    feed(": keep-alive\n\nevent: pro");
    feed('ject\ndata: {"a":1}\n');
    feed("\nevent: hello\r\ndata: {}\r\n\r\n");
    expect(seen).toEqual([
      ["project", '{"a":1}'],
      ["hello", "{}"],
    ]);
  });

  it("opens with the bearer header (no token in the URL) and writes each event into the mirror as it arrives", async () => {
    const { stream } = make();
    await stream.setWanted(true);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    expect(requests[0]!.url).toBe("/api/v1/events");
    expect(requests[0]!.headers.authorization).toBe("Bearer secret-token");
    expect(requests[0]!.url).not.toContain("secret");
    const s = streams[0]!;
    s.push(`event: hello\ndata: {"heartbeat_ms":15000}\n\n`);
    s.push(event({ id: 7, is_queued: 1, working_progress: 0, queue_ahead: 2, seconds_left: 300 }).slice(0, 30));
    s.push(event({ id: 7, is_queued: 1, working_progress: 0, queue_ahead: 2, seconds_left: 300 }).slice(30));
    await vi.waitFor(async () => expect(await db.projects.get(7)).toMatchObject({ is_queued: 1, queue_ahead: 2, seconds_left: 300 }));
    expect(await streamState()).toBe("live");
    s.push(event({ id: 7, working_progress: 42, seconds_left: 20, updated_at: "2026-11-01T10:00:09.000Z" }));
    await vi.waitFor(async () => expect(await db.projects.get(7)).toMatchObject({ status: "Rendering", is_queued: 0, working_progress: 42, queue_ahead: null, seconds_left: 20 }));
    await stream.setWanted(false);
    expect(await streamState()).toBe("off");
  });

  it("reloads the project once when it leaves its busy state, and ignores events older than the mirror", async () => {
    const { stream, onSettled } = make();
    await stream.setWanted(true);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    const s = streams[0]!;
    s.push(event({ id: 7, working_progress: 60, updated_at: "2026-11-01T10:00:10.000Z" }));
    // An event written before the mirror's row (a poll brought newer news) changes nothing.
    s.push(event({ id: 7, working_progress: 30, updated_at: "2026-11-01T09:59:00.000Z" }));
    s.push(event({ id: 7, status: "Preview Ready", working_progress: 100, updated_at: "2026-11-01T10:00:20.000Z" }));
    await vi.waitFor(() => expect(onSettled).toHaveBeenCalledTimes(1));
    expect(onSettled).toHaveBeenCalledWith(7, expect.objectContaining({ status: "Preview Ready" }));
    expect(await db.projects.get(7)).toMatchObject({ status: "Preview Ready", working_progress: 100 });
    // A project this device does not hold is not invented from an event.
    s.push(event({ id: 99, working_progress: 5 }));
    s.push(event({ id: 7, status: "Preview Ready", working_progress: 100, updated_at: "2026-11-01T10:00:21.000Z" }));
    await stream.setWanted(false);
    expect(await db.projects.get(99)).toBeUndefined();
    expect(onSettled).toHaveBeenCalledTimes(1);
  });

  it("reconnects with back-off after a network failure, a server error or a dropped stream", async () => {
    answers.push(
      () => Promise.reject(new TypeError("Failed to fetch")),
      async () => new Response(JSON.stringify({ message: "busy", code: "rate_limited" }), { status: 429 }),
    );
    const { stream } = make();
    const started = Date.now();
    await stream.setWanted(true);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    // Two waits first: 10 ms, then 20 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    streams[0]!.push(`event: hello\ndata: {"heartbeat_ms":15000}\n\n`);
    await vi.waitFor(async () => expect(await streamState()).toBe("live"));
    streams[0]!.end();
    await vi.waitFor(() => expect(streams).toHaveLength(2));
    streams[1]!.push(event({ id: 7, working_progress: 77 }));
    await vi.waitFor(async () => expect((await db.projects.get(7))?.working_progress).toBe(77));
    await stream.setWanted(false);
  });

  it("gives up a stream that goes silent past its heartbeats and opens another", async () => {
    const { stream } = make();
    await stream.setWanted(true);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.push(`event: hello\ndata: {"heartbeat_ms":20}\n\n`);
    // Nothing more: after 2.5 heartbeats without a byte the worker reconnects.
    await vi.waitFor(() => expect(streams).toHaveLength(2), { timeout: 2_000 });
    await stream.setWanted(false);
  });

  it("stops when the session is gone (401) and stays closed until asked again", async () => {
    answers.push(async () => new Response(JSON.stringify({ message: "Please authenticate", code: "unauthenticated" }), { status: 401 }));
    const { stream } = make();
    await stream.setWanted(true);
    await stream.idle();
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(await streamState()).toBe("off");
    await new Promise((r) => setTimeout(r, 50));
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it("closes the connection when no project is busy any more", async () => {
    const { stream } = make();
    await stream.setWanted(true);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    const signal = (fetchImpl.mock.calls[0]![1] as RequestInit).signal!;
    await stream.setWanted(false);
    expect(signal.aborted).toBe(true);
    expect(await streamState()).toBe("off");
    await new Promise((r) => setTimeout(r, 50));
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });
});
