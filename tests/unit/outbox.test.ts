import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Scene } from "../../api/scenes";
import { CutroomDb } from "../../src/db";
import { createApiClient } from "../../workers/api-client";
import { createOutbox, OUTBOX_MAX_SERVER_ERRORS, type Outbox } from "../../workers/outbox";
import { createSceneActions } from "../../workers/scenes";

const PROJECT_ID = 3;

function scene(id: number, order: number, over: Partial<Scene> = {}): Scene {
  return {
    id, project_id: PROJECT_ID, order, media_file_id: 1, media_file: { raw_preview_offset: 0 }, isScene: true, type: "default", visibility: 1,
    start: 0, end: 10, trim_start: 0, trim_end: 10, trim_start_default: 0, trim_end_default: 10, trim_start_raw: 0, trim_end_raw: 10,
    thumbnail: null, text: [], mediaAudio: "standard", musicType: "bgmstandard", punch_in: 1, punch_in_status: 0, crop: false,
    selected_faces: [], overscene: null, overscene_type: null, overscene_fade: 0, overscene_overflow: 0, overscene_bg: 0,
    ...over,
  };
}

/**
 * The scene routes of the API, in memory, with the server's Idempotency-Key rule: the first request
 * with a key is applied and its answer kept; a replay gets the kept answer and changes nothing.
 */
function fakeServer(initial: Scene[]) {
  const scenes = new Map(initial.map((s) => [s.id, structuredClone(s)]));
  const stored = new Map<string, { status: number; body: unknown }>();
  const state = {
    online: true,
    /** Paths whose requests fail on the wire (the connection drops) before the server sees them. */
    unreachable: new Set<string>(),
    /** Paths the server applies, then the connection drops before the answer arrives, once each. */
    answerLost: new Set<string>(),
    /** While set, a proxy in front of the server answers every request with this status (the server is restarting). */
    gateway: null as number | null,
    /** Paths the server itself fails on (500, nothing applied, nothing kept). */
    fault: new Set<string>(),
    /** Every request that reached the server: method, path, key. */
    requests: [] as { method: string; path: string; key?: string }[],
    /** Requests that changed something, in the order they were applied. */
    applied: [] as string[],
    scenes,
  };

  const json = (status: number, body: unknown) => ({ status, body });
  function handle(method: string, path: string, body: any): { status: number; body: unknown } {
    let m: RegExpMatchArray | null;
    if (method === "POST" && (m = path.match(/^\/projects\/(\d+)\/storyboard/))) {
      const ids: number[] | undefined = body?.scenesIds;
      const list = [...scenes.values()].filter((s) => s.project_id === Number(m![1]) && (!ids || ids.includes(s.id))).sort((a, b) => a.order - b.order);
      return json(200, { projectId: Number(m[1]), offset: 0, limit: 250, hasMoreScenes: false, timeline: { scenes: list, projectScenesTotal: list.length } });
    }
    if (!(m = path.match(/^\/scenes\/(\d+)(\/.*)?$/))) return json(404, { message: "Not found", code: "not_found" });
    const s = scenes.get(Number(m[1]));
    if (!s) return json(404, { message: "Not found", code: "not_found" });
    const rest = m[2] ?? "";
    const change = (patch: Partial<Scene>) => {
      Object.assign(s, patch);
      state.applied.push(`${method} ${path}`);
      return json(200, structuredClone(s));
    };
    if (method === "GET" && rest === "") return json(200, structuredClone(s));
    if (method === "PUT" && rest === "") return change(body);
    if (method === "GET" && rest === "/hide") return change({ visibility: 0 });
    if (method === "GET" && rest === "/show") return change({ visibility: 1 });
    if (method === "GET" && rest === "/type") return change({ type: "default" });
    if (method === "GET" && (m = rest.match(/^\/type\/(intro|outro)$/))) return change({ type: m[1] as Scene["type"] });
    if (method === "PUT" && rest === "/trim") {
      if (body.trim_start < s.start || body.trim_end > s.end) return json(400, { message: "Out of bounds", code: "out_of_bounds" });
      return change({ trim_start: body.trim_start, trim_end: body.trim_end });
    }
    return json(404, { message: "Not found", code: "not_found" });
  }

  const fetchImpl = async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const path = new URL(url, "http://cutroom.test").pathname.replace(/^\/api\/v1/, "");
    const headers = init.headers as Record<string, string>;
    if (!state.online || state.unreachable.has(path)) throw new TypeError("Failed to fetch");
    if (state.gateway !== null) return new Response(`<html><body><h1>${state.gateway}</h1>nginx</body></html>`, { status: state.gateway, headers: { "content-type": "text/html" } });
    const key = headers["idempotency-key"];
    state.requests.push({ method, path, key });
    if (state.fault.has(path)) return new Response(JSON.stringify({ message: "Internal server error", code: "internal" }), { status: 500, headers: { "content-type": "application/json" } });
    let reply = key ? stored.get(key) : undefined;
    if (!reply) {
      reply = handle(method, path, init.body ? JSON.parse(String(init.body)) : undefined);
      if (key) stored.set(key, reply);
    }
    if (state.answerLost.delete(path)) throw new TypeError("network error");
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { "content-type": "application/json" } });
  };
  return { state, fetchImpl: fetchImpl as unknown as typeof fetch };
}

let name: string;
let db: CutroomDb;
let server: ReturnType<typeof fakeServer>;
const outboxes: Outbox[] = [];

/** The sync worker's scene actions over `mirror`: what a (re)started worker builds. */
function start(mirror: CutroomDb) {
  const call = createApiClient({ getToken: async () => "token", onSignedOut: async () => undefined, fetchImpl: server.fetchImpl });
  // A long back-off: the tests say when to send again.
  const outbox = createOutbox(mirror, call, { retryBaseMs: 600_000 });
  outboxes.push(outbox);
  return createSceneActions(mirror, call, outbox);
}

const line = (text: string) => [{ start: 0, end: 1, text }];

beforeEach(async () => {
  name = `outbox-${Math.random()}`;
  db = new CutroomDb(name);
  const scenes = [scene(1, 1), scene(2, 2), scene(3, 3)];
  server = fakeServer(scenes);
  await db.scenes.bulkPut(scenes);
});

afterEach(async () => {
  for (const o of outboxes.splice(0)) o.dispose();
  await db.delete();
});

describe("the outbox (ARCHITECTURE: Offline edits)", () => {
  it("sends an edit at once when online and answers with the server's scene", async () => {
    const actions = start(db);
    const result = await actions.setSceneText(1, line("Hello"));
    expect(result).toMatchObject({ ok: true, data: { id: 1, text: line("Hello") } });
    expect(result.queued).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
    expect(server.state.applied).toEqual(["PUT /scenes/1"]);
  });

  it("refuses a rule break at once, without queuing anything", async () => {
    server.state.online = false;
    const actions = start(db);
    const result = await actions.setSceneText(1, line("x".repeat(36)));
    expect(result).toEqual({ ok: false, failure: { kind: "bad_request", code: "line_too_long" } });
    const crossed = await actions.trimScene(1, 6, 5);
    expect(crossed).toEqual({ ok: false, failure: { kind: "bad_request", code: "markers_cross" } });
    expect(await db.outbox.count()).toBe(0);
  });

  it("keeps the edits and their order across a restart, and sends them in order when online", async () => {
    server.state.online = false;
    const first = start(db);
    const results = [
      await first.setSceneText(2, line("Second scene")),
      await first.hideScene(1),
      await first.setSceneType(2, "intro"),
      await first.showScene(1),
      await first.setSceneAttributes(3, { mediaAudio: "loud" }),
    ];
    expect(results.every((r) => r.ok && r.queued === true)).toBe(true);
    // Shown at once, from the mirror.
    expect(await db.scenes.get(2)).toMatchObject({ text: line("Second scene"), type: "intro" });
    expect((await db.scenes.get(3))!.mediaAudio).toBe("loud");
    expect(server.state.applied).toEqual([]);

    // The worker goes away (a reload); a new one opens the same database.
    outboxes[0]!.dispose();
    db.close();
    db = new CutroomDb(name);
    expect(await db.outbox.count()).toBe(5);
    const keys = (await db.outbox.orderBy("seq").toArray()).map((e) => e.idempotencyKey);
    const restarted = start(db);
    server.state.online = true;
    await restarted.syncOutbox();

    expect(server.state.applied).toEqual(["PUT /scenes/2", "GET /scenes/1/hide", "GET /scenes/2/type/intro", "GET /scenes/1/show", "PUT /scenes/3"]);
    expect(server.state.requests.filter((r) => r.key).map((r) => r.key)).toEqual(keys);
    expect(await db.outbox.count()).toBe(0);
    expect(server.state.scenes.get(2)).toMatchObject({ text: line("Second scene"), type: "intro" });
    expect(await db.scenes.get(1)).toMatchObject({ visibility: 1 });
    expect(await db.scenes.get(3)).toMatchObject({ mediaAudio: "loud" });
  });

  it("stops at a network failure and carries on later, in order, where it stopped", async () => {
    server.state.online = false;
    const actions = start(db);
    await actions.hideScene(1);
    await actions.hideScene(2);
    await actions.hideScene(3);
    server.state.online = true;
    server.state.unreachable.add("/scenes/2/hide");
    await actions.syncOutbox();
    expect(server.state.applied).toEqual(["GET /scenes/1/hide"]);
    expect((await db.outbox.toArray()).map((e) => [e.sceneId, e.state, e.lastError])).toEqual([
      [2, "waiting", "network"],
      [3, "waiting", undefined],
    ]);
    server.state.unreachable.clear();
    await actions.syncOutbox();
    expect(server.state.applied).toEqual(["GET /scenes/1/hide", "GET /scenes/2/hide", "GET /scenes/3/hide"]);
  });

  it("replays with the same key, so an edit whose answer was lost is applied once", async () => {
    const actions = start(db);
    // The server applies the edit, then the connection drops before its answer arrives.
    server.state.answerLost.add("/scenes/1");
    const result = await actions.setSceneAttributes(1, { musicType: "bgmloud" });
    expect(result).toMatchObject({ ok: true, queued: true });
    expect(server.state.applied).toEqual(["PUT /scenes/1"]);

    // Sent again (by the worker; background sync sends the very same request): the kept answer, no second change.
    await actions.syncOutbox();
    const attempts = server.state.requests.filter((r) => r.path === "/scenes/1");
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((r) => r.key)).size).toBe(1);
    expect(attempts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.state.applied).toEqual(["PUT /scenes/1"]);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.scenes.get(1))!.musicType).toBe("bgmloud");
  });

  it("waits through a proxy's 502/503/504 while the server restarts, however many, then sends the edit once", async () => {
    // Found by the offline-chaos suite: after OUTBOX_MAX_SERVER_ERRORS gateway answers an edit was given up.
    const actions = start(db);
    server.state.gateway = 502;
    expect(await actions.setSceneText(1, line("Through the restart"))).toMatchObject({ ok: true, queued: true });
    await actions.hideScene(2);
    for (const status of [503, 504, 502, 503, 504, 502, 503]) {
      server.state.gateway = status;
      await actions.syncOutbox();
    }
    expect(server.state.requests).toEqual([]);
    expect((await db.outbox.toArray()).map((e) => [e.sceneId, e.state, e.lastError, e.serverErrors ?? 0])).toEqual([
      [1, "waiting", "503 internal", 0],
      [2, "waiting", undefined, 0],
    ]);
    expect(await db.failedEdits.count()).toBe(0);
    expect((await db.scenes.get(1))!.text).toEqual(line("Through the restart"));

    server.state.gateway = null;
    await actions.syncOutbox();
    expect(server.state.applied).toEqual(["PUT /scenes/1", "GET /scenes/2/hide"]);
    expect(await db.outbox.count()).toBe(0);
    expect(server.state.scenes.get(1)!.text).toEqual(line("Through the restart"));
  });

  it("still gives an edit up after OUTBOX_MAX_SERVER_ERRORS faults of the server itself (500), so the rest can go", async () => {
    server.state.fault.add("/scenes/1/hide");
    const actions = start(db);
    expect(await actions.hideScene(1)).toMatchObject({ ok: true, queued: true });
    await actions.hideScene(2);
    for (let i = 1; i < OUTBOX_MAX_SERVER_ERRORS; i++) await actions.syncOutbox();
    expect(server.state.requests.filter((r) => r.path === "/scenes/1/hide")).toHaveLength(OUTBOX_MAX_SERVER_ERRORS);
    expect(server.state.applied).toEqual(["GET /scenes/2/hide"]);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.failedEdits.toArray()).map((f) => [f.sceneId, f.kind, f.failure.kind])).toEqual([[1, "hide", "internal"]]);
    expect((await db.scenes.get(1))!.visibility).toBe(1);
  });

  it("rolls a refused edit back: the server's scene comes back, later waiting edits stay on top, the failure is recorded", async () => {
    // The server's scene is shorter than this device last saw.
    server.state.scenes.get(1)!.end = 8;
    server.state.scenes.get(1)!.trim_end = 8;
    server.state.online = false;
    const actions = start(db);
    expect((await actions.trimScene(1, 1, 9.5)).queued).toBe(true);
    expect((await actions.setSceneType(1, "outro")).queued).toBe(true);
    expect(await db.scenes.get(1)).toMatchObject({ trim_start: 1, trim_end: 9.5, type: "outro" });

    // Online, but the type change cannot get through yet.
    server.state.online = true;
    server.state.unreachable.add("/scenes/1/type/outro");
    await actions.syncOutbox();
    expect(await db.scenes.get(1)).toMatchObject({ trim_start: 0, trim_end: 8, type: "outro" });
    expect((await db.outbox.toArray()).map((e) => e.command)).toEqual(["setSceneType"]);
    expect(await db.failedEdits.toArray()).toEqual([
      expect.objectContaining({ projectId: PROJECT_ID, sceneId: 1, sceneOrder: 1, kind: "trim", failure: { kind: "bad_request", code: "out_of_bounds" } }),
    ]);

    server.state.unreachable.clear();
    await actions.syncOutbox();
    expect(server.state.applied).toEqual(["GET /scenes/1/type/outro"]);
    expect(server.state.scenes.get(1)).toMatchObject({ trim_end: 8, type: "outro" });
    const [failed] = await db.failedEdits.toArray();
    await actions.dismissFailedEdit(failed!.id!);
    expect(await db.failedEdits.count()).toBe(0);
  });

  it("forgets a scene the server no longer has, with its other waiting edits", async () => {
    server.state.online = false;
    const actions = start(db);
    await actions.hideScene(2);
    await actions.setSceneText(2, line("Gone"));
    await actions.hideScene(3);
    server.state.scenes.delete(2);
    server.state.online = true;
    await actions.syncOutbox();
    expect(await db.scenes.get(2)).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
    expect(server.state.applied).toEqual(["GET /scenes/3/hide"]);
    expect((await db.failedEdits.toArray()).map((f) => [f.sceneId, f.kind, f.failure.kind])).toEqual([
      [2, "hide", "body"],
      [2, "text", "body"],
    ]);
  });

  it("tells the view of a refusal directly when it still waits on the edit, and records nothing", async () => {
    server.state.scenes.get(1)!.end = 8;
    const actions = start(db);
    const result = await actions.trimScene(1, 1, 9.5);
    expect(result).toEqual({ ok: false, failure: { kind: "bad_request", code: "out_of_bounds" } });
    expect(await db.scenes.get(1)).toMatchObject({ trim_start: 0, trim_end: 10 });
    expect(await db.failedEdits.count()).toBe(0);
  });

  it("keeps waiting edits on top when the storyboard is reloaded from the server", async () => {
    server.state.online = false;
    const actions = start(db);
    await actions.setSceneText(3, line("Mine"));
    server.state.online = true;
    server.state.unreachable.add("/scenes/3");
    const loaded = await actions.loadStoryboard(PROJECT_ID);
    expect(loaded.ok).toBe(true);
    expect((await db.scenes.get(3))!.text).toEqual(line("Mine"));
    expect(server.state.scenes.get(3)!.text).toEqual([]);
  });

  it("lets structural edits go only after the queued edits", async () => {
    server.state.online = false;
    const actions = start(db);
    await actions.hideScene(1);
    server.state.online = true;
    server.state.unreachable.add("/scenes/1/hide");
    const moved = await actions.moveScene(3, 1);
    expect(moved).toEqual({ ok: false, failure: { kind: "network" } });
    expect((await db.scenes.get(3))!.order).toBe(3);
    expect(server.state.requests.some((r) => r.path.includes("/order/"))).toBe(false);
  });
});
