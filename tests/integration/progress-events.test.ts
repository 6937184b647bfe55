import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PROGRESS_STREAMS_PER_USER, ProjectProgress } from "../../api/progress";
import { runFfmpeg } from "../../server/media";
import { bearer, jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

/**
 * Issue 13 "Progress a user can trust": GET /api/v1/events streams the signed-in user's project progress
 * (server-sent events, bearer auth) during real renders, with the queue position and time left.
 */

/** One open event stream: every event parsed as it arrives. */
class EventStream {
  readonly events: { event: string; data: unknown; at: number }[] = [];
  readonly comments: string[] = [];
  status = 0;
  private readonly controller = new AbortController();
  private done?: Promise<void>;

  constructor(private readonly url: string, private readonly token: string) {}

  async open(): Promise<Response> {
    const response = await fetch(this.url, { headers: { ...bearer(this.token), accept: "text/event-stream" }, signal: this.controller.signal });
    this.status = response.status;
    if (response.ok && response.body) this.done = this.read(response.body).catch(() => undefined);
    return response;
  }

  private async read(body: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = "message";
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) this.comments.push(line);
          else if (line.startsWith("event: ")) event = line.slice(7);
          else if (line.startsWith("data: ")) data.push(line.slice(6));
        }
        if (data.length) this.events.push({ event, data: JSON.parse(data.join("\n")), at: Date.now() });
      }
    }
  }

  /** The `project` events, parsed by the contract's schema (a malformed event fails here). */
  projects(id?: number): ProjectProgress[] {
    return this.events.filter((e) => e.event === "project").map((e) => ProjectProgress.parse(e.data)).filter((p) => id === undefined || p.id === id);
  }

  async close() {
    this.controller.abort();
    await this.done;
  }
}

let server: TestServer;
let base: string;
let tmp: string;
let clip: string;

beforeAll(async () => {
  server = await startTestServer({ JOB_CONCURRENCY: "1" });
  base = await listen(server);
  tmp = await mkdtemp(path.join(os.tmpdir(), "cutroom-progress-"));
  // Long enough that a render takes several seconds here, so progress is seen moving.
  clip = path.join(tmp, "long.mp4");
  await runFfmpeg({
    inputs: [
      { file: "testsrc2=size=640x360:rate=30:duration=60", lavfi: true },
      { file: "sine=frequency=330:sample_rate=48000:duration=60", lavfi: true },
    ],
    outputOptions: ["-c:v", "libx264", "-preset", "ultrafast", "-g", "60", "-c:a", "aac", "-shortest", "-f", "mp4"],
    output: clip,
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const eventsUrl = () => `${base}/api/v1/events`;

async function userWithProjects(count: number) {
  const { token, email } = await server.signUp();
  await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("email", "=", email).execute();
  const api = jsonApi(() => base, () => token);
  const uploaded = await tusUpload(base, token, clip, { name: "long.mp4" });
  const media = (await api("POST", "/library", { media_file: uploaded.id, name: "long.mp4", locale: null, has_speech: 0 })).body.media_file.id as number;
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await api("POST", "/createproject", { name: `Progress ${i + 1}`, locale: "en-US", style: "video", media: [media] })).body.id as number);
  for (const id of ids) await waitFor(async () => ((await api("GET", `/projects/${id}`)).body.status === "Preview Ready" ? true : undefined), 240_000);
  return { token, api, ids };
}

describe("GET /api/v1/events", () => {
  it("answers 401 without a bearer token or with a wrong one, and puts no token in a URL", async () => {
    expect((await fetch(eventsUrl())).status).toBe(401);
    expect((await fetch(eventsUrl(), { headers: bearer("not-a-token") })).status).toBe(401);
    expect((await fetch(`${eventsUrl()}?token=whatever`)).status).toBe(401);
  });

  let owner: Awaited<ReturnType<typeof userWithProjects>>;

  it("streams a real render's progress to its owner, rising while ffmpeg runs, and never another user's project", async () => {
    owner = await userWithProjects(3);
    const other = await userWithProjects(1);
    const [project] = owner.ids;
    const mine = new EventStream(eventsUrl(), owner.token);
    const theirs = new EventStream(eventsUrl(), other.token);
    const response = await mine.open();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await theirs.open();
    await waitFor(async () => (mine.events.some((e) => e.event === "hello") ? true : undefined), 5_000);

    // The other user renders at the same time: their stream sees it, the owner's never does.
    expect((await other.api("POST", `/projects/${other.ids[0]}/render`, { final: false })).status).toBe(200);
    expect((await owner.api("POST", `/projects/${project}/render`, { final: false })).status).toBe(200);
    await waitFor(async () => (mine.projects(project).some((p) => p.status === "Preview Ready") ? true : undefined), 240_000, 100);
    await waitFor(async () => (theirs.projects(other.ids[0]).some((p) => p.status === "Preview Ready") ? true : undefined), 240_000, 100);

    const seen = mine.projects(project);
    const rendering = seen.filter((p) => p.status === "Rendering" && p.is_queued === 0);
    const values = rendering.map((p) => p.working_progress);
    // Progress while ffmpeg runs: several distinct values strictly above 1, in order, before the end.
    expect(new Set(values.filter((v) => v > 1 && v < 100)).size).toBeGreaterThanOrEqual(3);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(seen.at(-1)).toMatchObject({ status: "Preview Ready", is_queued: 0, working_progress: 100, queue_ahead: null });
    // A measured time left appears once the render has run a while.
    expect(rendering.some((p) => p.seconds_left !== null && p.seconds_left >= 0)).toBe(true);
    expect(mine.projects().every((p) => owner.ids.includes(p.id))).toBe(true);
    expect(theirs.projects().every((p) => p.id === other.ids[0])).toBe(true);
    await Promise.all([mine.close(), theirs.close()]);
  }, 600_000);

  it("counts the queue position down as the projects ahead finish, in the poll's JSON too", async () => {
    const [, second, third] = owner.ids;
    const first = owner.ids[0]!;
    const stream = new EventStream(eventsUrl(), owner.token);
    await stream.open();
    // Held: three renders wait in the queue, FIFO for one user.
    await server.queue.stop();
    for (const id of [first, second, third]) expect((await owner.api("POST", `/projects/${id}/render`, { final: false })).status).toBe(200);
    await waitFor(async () => (stream.projects(third).some((p) => p.queue_ahead === 2) ? true : undefined), 10_000, 100);
    expect(stream.projects(first).at(-1)).toMatchObject({ is_queued: 1, queue_ahead: 0 });
    expect(stream.projects(second).at(-1)).toMatchObject({ is_queued: 1, queue_ahead: 1 });
    // The 60 s poll's fallback shows the same position.
    expect((await owner.api("GET", `/projects/${third}`)).body).toMatchObject({ is_queued: 1, queue_ahead: 2 });
    // Earlier renders of this server give a basis: the time left is an estimate, not a guess.
    expect((await owner.api("GET", `/projects/${third}`)).body.seconds_left).toBeGreaterThan(0);

    await server.startRunner();
    await waitFor(async () => (stream.projects(third).some((p) => p.status === "Preview Ready") ? true : undefined), 480_000, 200);
    const positions = stream.projects(third).map((p) => p.queue_ahead).filter((q): q is number => q !== null);
    expect(positions[0]).toBe(2);
    expect(positions).toEqual([...positions].sort((a, b) => b - a));
    expect(new Set(positions)).toEqual(new Set([2, 1, 0]));
    // Once running it is no longer "in the queue".
    expect(stream.projects(third).some((p) => p.status === "Rendering" && p.is_queued === 0 && p.queue_ahead === null)).toBe(true);
    await stream.close();
  }, 900_000);

  it("brings What Cutroom did up to date with the edits at the next render", async () => {
    const id = owner.ids[0]!;
    expect((await owner.api("GET", `/projects/${id}/highlights`)).body).toMatchObject({ removedLength: 0, jumpCutsCreated: 0 });
    const scene = await server.db.selectFrom("scenes").select("id").where("project_id", "=", id).where("parent_scene_id", "is", null).orderBy("order").executeTakeFirstOrThrow();
    const split = await owner.api("POST", `/scenes/${scene.id}/splitbyposition/20`);
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    const parts = await server.db.selectFrom("scenes").select(["id", "trim_start", "trim_end"]).where("project_id", "=", id).where("parent_scene_id", "is", null).orderBy("order").execute();
    expect(parts).toHaveLength(2);
    expect((await owner.api("PUT", `/scenes/${parts[0]!.id}/trim`, { trim_start: parts[0]!.trim_start, trim_end: parts[0]!.trim_end - 5 })).status).toBe(200);
    // Not before the render: the highlights describe the rendered video.
    expect((await owner.api("GET", `/projects/${id}/highlights`)).body).toMatchObject({ removedLength: 0, jumpCutsCreated: 0 });
    expect((await owner.api("POST", `/projects/${id}/render`, { final: false })).status).toBe(200);
    await waitFor(async () => ((await owner.api("GET", `/projects/${id}`)).body.status === "Preview Ready" ? true : undefined), 240_000);
    const after = (await owner.api("GET", `/projects/${id}/highlights`)).body;
    expect(after.jumpCutsCreated).toBe(1);
    expect(after.removedLength).toBeCloseTo(5, 1);
  }, 300_000);

  it("caps a user's open streams and lets go of a stream when its client disconnects", async () => {
    const { token } = await server.signUp();
    const streams = Array.from({ length: MAX_PROGRESS_STREAMS_PER_USER }, () => new EventStream(eventsUrl(), token));
    for (const s of streams) expect((await s.open()).status).toBe(200);
    const extra = new EventStream(eventsUrl(), token);
    const refused = await extra.open();
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe("rate_limited");
    await streams[0]!.close();
    // The server notices the closed connection and frees the place.
    const again = new EventStream(eventsUrl(), token);
    await waitFor(async () => {
      const r = await again.open();
      return r.status === 200 ? true : undefined;
    }, 10_000, 200);
    await Promise.all([...streams.slice(1), again].map((s) => s.close()));
  });

  it("ends the open streams when the server shuts down, instead of holding the shutdown", async () => {
    const { token } = await server.signUp();
    const open = new EventStream(eventsUrl(), token);
    expect((await open.open()).status).toBe(200);
    const closing = server.close();
    const ended = await Promise.race([closing.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
    expect(ended).toBe(true);
    await open.close();
    server = undefined as unknown as TestServer;
  });
});
