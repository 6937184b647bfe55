import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Project } from "../../api/projects";
import type { Song } from "../../api/music";
import { CutroomDb } from "../../src/db";
import { createApiClient } from "../../workers/api-client";
import { createMusicActions, filterSongs, fold, sortSongs, tagGroups } from "../../workers/music";
import { createOutbox, waitingPick, withWaitingPick, type Outbox } from "../../workers/outbox";
import { createProjectActions } from "../../workers/projects";
import { makeProject } from "./edit-fixtures";

const PROJECT_ID = 41;

function song(id: number, title: string, author: string, tags: Partial<Pick<Song, "genre_tags" | "instrument_tags" | "video_theme_tags">> = {}): Song {
  return {
    id, title, author, genre_tags: [], instrument_tags: [], video_theme_tags: [], public_demo: `/api/v1/bgms/${id}/demo.opus`, duration_ms: 150_000,
    licence: { id: "CC0-1.0", attribution: null }, source: "catalogue", ...tags,
  };
}

const SONGS = [
  song(1, "Morning Café", "Cutroom", { genre_tags: ["acoustic"], instrument_tags: ["guitar", "piano"], video_theme_tags: ["travel"] }),
  song(2, "Night Drive", "Ana Núñez", { genre_tags: ["electronic"], instrument_tags: ["synth"], video_theme_tags: ["tech", "travel"] }),
  song(3, "Quiet Desk", "Cutroom", { genre_tags: ["ambient"], instrument_tags: ["piano"], video_theme_tags: ["tutorial"] }),
];

/**
 * GET /bgms, PUT /bgms/{id} and GET /projects/{id}, in memory, with the server's Idempotency-Key rule (a replay
 * gets the kept answer and changes nothing).
 */
function fakeServer(songs: Song[], project: Project) {
  const stored = new Map<string, { status: number; body: unknown }>();
  const state = { online: true, songs: [...songs], project: structuredClone(project), requests: [] as string[], applied: [] as string[], deleted: false };
  const json = (status: number, body: unknown) => ({ status, body });
  function handle(method: string, path: string, body: any) {
    let m: RegExpMatchArray | null;
    if (method === "GET" && path === "/bgms") return json(200, { data: state.songs });
    if (method === "PUT" && (m = path.match(/^\/bgms\/(\d+)$/))) {
      if (state.deleted || body.project_id !== state.project.id) return json(404, { message: "Not found", code: "not_found" });
      if (!state.songs.some((s) => s.id === Number(m![1]))) return json(404, { message: "Not found", code: "not_found" });
      if (state.project.status === "Render Ready") return json(409, { message: "Finished", code: "project_finished" });
      state.project = { ...state.project, bgm_id: Number(m[1]), autobgm: 1, needs_render: 1 };
      state.applied.push(`${method} ${path}`);
      return json(200, state.project);
    }
    if (method === "GET" && path === `/projects/${state.project.id}`) return state.deleted ? json(404, { message: "Not found", code: "not_found" }) : json(200, state.project);
    return json(404, { message: "Not found", code: "not_found" });
  }
  const fetchImpl = async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const path = new URL(url, "http://cutroom.test").pathname.replace(/^\/api\/v1/, "");
    if (!state.online) throw new TypeError("Failed to fetch");
    const key = (init.headers as Record<string, string>)["idempotency-key"];
    state.requests.push(`${method} ${path}`);
    let reply = key ? stored.get(key) : undefined;
    if (!reply) {
      reply = handle(method, path, init.body ? JSON.parse(String(init.body)) : undefined);
      if (key) stored.set(key, reply);
    }
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { "content-type": "application/json" } });
  };
  return { state, fetchImpl: fetchImpl as unknown as typeof fetch };
}

let db: CutroomDb;
let server: ReturnType<typeof fakeServer>;
const outboxes: Outbox[] = [];

/** What a (re)started sync worker builds over `mirror`. */
function start(mirror: CutroomDb) {
  const call = createApiClient({ getToken: async () => "token", onSignedOut: async () => undefined, fetchImpl: server.fetchImpl });
  const outbox = createOutbox(mirror, call, { retryBaseMs: 600_000 });
  outboxes.push(outbox);
  return { outbox, ...createMusicActions(mirror, call, outbox), ...createProjectActions(mirror, call) };
}

beforeEach(async () => {
  db = new CutroomDb(`music-${Math.random()}`);
  const project = makeProject({ id: PROJECT_ID, bgm_id: null, autobgm: 0 });
  server = fakeServer(SONGS, project);
  await db.projects.put(project);
});

afterEach(async () => {
  for (const o of outboxes.splice(0)) o.dispose();
  await db.delete();
});

describe("finding songs (pure)", () => {
  it("searches title and author, ignoring case and accents, every word", () => {
    expect(filterSongs(SONGS, { q: "cafe" }).map((s) => s.id)).toEqual([1]);
    expect(filterSongs(SONGS, { q: "NUNEZ" }).map((s) => s.id)).toEqual([2]);
    expect(filterSongs(SONGS, { q: "cutroom desk" }).map((s) => s.id)).toEqual([3]);
    expect(filterSongs(SONGS, { q: "  " }).map((s) => s.id)).toEqual([1, 2, 3]);
    expect(filterSongs(SONGS, { q: "opera" })).toEqual([]);
    expect(fold(" Ünïcode ")).toBe("unicode");
  });

  it("keeps songs with every chosen tag, from any of the three lists", () => {
    expect(filterSongs(SONGS, { tags: ["travel"] }).map((s) => s.id)).toEqual([1, 2]);
    expect(filterSongs(SONGS, { tags: ["piano"] }).map((s) => s.id)).toEqual([1, 3]);
    expect(filterSongs(SONGS, { tags: ["piano", "travel"] }).map((s) => s.id)).toEqual([1]);
    expect(filterSongs(SONGS, { tags: ["travel"], q: "night" }).map((s) => s.id)).toEqual([2]);
  });

  it("offers each tag once, by list, sorted; lists songs by title", () => {
    expect(tagGroups(SONGS)).toEqual({ genre: ["acoustic", "ambient", "electronic"], instrument: ["guitar", "piano", "synth"], theme: ["tech", "travel", "tutorial"] });
    expect(sortSongs([SONGS[2]!, SONGS[0]!, SONGS[1]!]).map((s) => s.title)).toEqual(["Morning Café", "Night Drive", "Quiet Desk"]);
  });
});

describe("the songs mirror (issue 15)", () => {
  it("fills the songs table from GET /bgms and drops songs the server no longer lists", async () => {
    const actions = start(db);
    expect(await actions.refreshSongs()).toEqual({ ok: true, data: { total: 3 } });
    expect((await db.songs.toArray()).map((s) => s.title).sort()).toEqual(["Morning Café", "Night Drive", "Quiet Desk"]);
    const meta = await db.meta.get("songs");
    expect(meta?.value).toMatchObject({ total: 3 });

    server.state.songs = [SONGS[0]!, { ...SONGS[2]!, title: "Quiet Desk (2026)" }];
    await actions.refreshSongs();
    expect((await db.songs.toArray()).map((s) => s.title).sort()).toEqual(["Morning Café", "Quiet Desk (2026)"]);
  });

  it("keeps the songs last seen when offline", async () => {
    const actions = start(db);
    await actions.refreshSongs();
    server.state.online = false;
    const result = await actions.refreshSongs();
    expect(result).toMatchObject({ ok: false, failure: { kind: "network" } });
    expect(await db.songs.count()).toBe(3);
  });
});

describe("picking a song (issue 15, through the outbox)", () => {
  it("sends the pick at once when online and writes the server's project", async () => {
    const actions = start(db);
    await actions.refreshSongs();
    const result = await actions.pickSong(PROJECT_ID, 2);
    expect(result).toMatchObject({ ok: true, data: { id: PROJECT_ID, bgm_id: 2, autobgm: 1 } });
    expect(result.queued).toBeUndefined();
    expect(server.state.applied).toEqual(["PUT /bgms/2"]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.projects.get(PROJECT_ID)).toMatchObject({ bgm_id: 2, autobgm: 1, needs_render: 1 });
  });

  it("shows an offline pick at once, keeps only the last pick of a project, and sends it once back online", async () => {
    const actions = start(db);
    await actions.refreshSongs();
    server.state.online = false;
    const first = await actions.pickSong(PROJECT_ID, 1);
    expect(first).toMatchObject({ ok: true, queued: true, data: { bgm_id: 1 } });
    expect((await db.projects.get(PROJECT_ID))?.bgm_id).toBe(1);
    await actions.pickSong(PROJECT_ID, 3);
    expect((await db.projects.get(PROJECT_ID))?.bgm_id).toBe(3);
    const waiting = await db.outbox.toArray();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ command: "pickSong", kind: "music", sceneId: 0, projectId: PROJECT_ID, request: { route: "bgms.pick", params: { id: 3 }, body: { project_id: PROJECT_ID } } });

    server.state.online = true;
    await actions.outbox.drain();
    expect(server.state.applied).toEqual(["PUT /bgms/3"]);
    expect(server.state.project.bgm_id).toBe(3);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.projects.get(PROJECT_ID))?.bgm_id).toBe(3);
  });

  it("keeps a waiting pick across a restart of the worker, and on top of a project refresh", async () => {
    let actions = start(db);
    await actions.refreshSongs();
    server.state.online = false;
    await actions.pickSong(PROJECT_ID, 2);
    for (const o of outboxes.splice(0)) o.dispose();

    // A new worker; the server answers reads but the pick has not gone yet.
    actions = start(new CutroomDb(db.name));
    server.state.online = true;
    const refreshed = await actions.refreshProject(PROJECT_ID);
    expect(refreshed).toMatchObject({ ok: true, data: { bgm_id: null } });
    expect((await db.projects.get(PROJECT_ID))?.bgm_id).toBe(2);
    await actions.refreshProjects();
    expect((await db.projects.get(PROJECT_ID))?.bgm_id).toBe(2);

    await actions.outbox.drain();
    expect(server.state.project.bgm_id).toBe(2);
    // The pick reached the server once, with the key made when it was queued.
    expect(server.state.applied).toEqual(["PUT /bgms/2"]);
  });

  it("rolls a refused pick back to the server's project and records why", async () => {
    const actions = start(db);
    await actions.refreshSongs();
    server.state.online = false;
    await actions.pickSong(PROJECT_ID, 1);
    // Meanwhile the project was finished elsewhere: the server refuses the pick.
    server.state.project = { ...server.state.project, status: "Render Ready", final_render: 1 };
    server.state.online = true;
    await actions.outbox.drain();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.projects.get(PROJECT_ID)).toMatchObject({ bgm_id: null, status: "Render Ready" });
    const failed = await db.failedEdits.toArray();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ projectId: PROJECT_ID, kind: "music", failure: { kind: "body", status: 409, body: { code: "project_finished" } } });
  });

  it("tells the view of a refusal directly when it still waits, and forgets a project the server no longer has", async () => {
    const actions = start(db);
    await actions.refreshSongs();
    server.state.deleted = true;
    const result = await actions.pickSong(PROJECT_ID, 1);
    expect(result).toMatchObject({ ok: false, failure: { kind: "body", status: 404 } });
    expect(await db.projects.get(PROJECT_ID)).toBeUndefined();
    expect(await db.failedEdits.count()).toBe(0);
  });

  it("refuses a song or project the mirror does not hold, sending nothing", async () => {
    const actions = start(db);
    await actions.refreshSongs();
    server.state.requests.length = 0;
    expect(await actions.pickSong(PROJECT_ID, 99)).toMatchObject({ ok: false, failure: { kind: "body", status: 404 } });
    expect(await actions.pickSong(999, 1)).toMatchObject({ ok: false, failure: { kind: "body", status: 404 } });
    expect(server.state.requests).toEqual([]);
  });

  it("puts the last waiting pick of the project on top of the server's project, and nothing for another project", () => {
    const rows = [
      { command: "pickSong", projectId: PROJECT_ID, args: { projectId: PROJECT_ID, songId: 1 } },
      { command: "setSceneText", projectId: PROJECT_ID, args: { lines: [] } },
      { command: "pickSong", projectId: PROJECT_ID, args: { projectId: PROJECT_ID, songId: 3 } },
      { command: "pickSong", projectId: 7, args: { projectId: 7, songId: 2 } },
    ] as never[];
    expect(waitingPick(PROJECT_ID, rows)).toEqual({ projectId: PROJECT_ID, songId: 3 });
    expect(withWaitingPick({ id: PROJECT_ID, bgm_id: null, autobgm: 0 }, rows)).toEqual({ id: PROJECT_ID, bgm_id: 3, autobgm: 1 });
    expect(withWaitingPick({ id: 8, bgm_id: 5, autobgm: 1 }, rows)).toEqual({ id: 8, bgm_id: 5, autobgm: 1 });
  });
});
