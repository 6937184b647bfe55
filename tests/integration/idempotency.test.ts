import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneIdempotencyKeys } from "../../server/db/idempotency";
import { IDEMPOTENCY_RETENTION_MS } from "../../server/http/idempotency";
import { bearer, jsonApi, listen, processedTalkProject, startTestServer, type TestServer } from "./helpers";

let server: TestServer;
let base: string;
let token: string;
let other: string;
let projectId: number;

const api = jsonApi(() => base, () => token);
const scenes = async () => (await api("POST", `/projects/${projectId}/storyboard?offset=0&limit=250`, {})).body.timeline.scenes as any[];

/** One call with an Idempotency-Key, over real HTTP; answers status, body and whether it was a replay. */
async function keyed(method: string, url: string, key: string, body?: unknown, as = token) {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { ...bearer(as), "idempotency-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, replayed: res.headers.get("idempotent-replayed") === "true" };
}

const sceneRow = (id: number) => server.db.selectFrom("scenes").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const projectRow = () => server.db.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirstOrThrow();
const clearNeedsRender = () => server.db.updateTable("projects").set({ needs_render: 0 }).where("id", "=", projectId).execute();
const storedKeys = async (key: string) => server.db.selectFrom("idempotency_keys").selectAll().where("key", "=", key).execute();

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
  token = (await server.signUp()).token;
  other = (await server.signUp()).token;
  projectId = await processedTalkProject(base, token, "Replays");
});
afterAll(() => server.close());

describe("an Idempotency-Key", () => {
  it("applies a trim once: the replay answers the same response with Idempotent-Replayed and changes nothing", async () => {
    const [scene] = await scenes();
    const key = randomUUID();
    const trim = { trim_start: scene.start + 0.15, trim_end: scene.end - 0.1 };
    const first = await keyed("PUT", `/scenes/${scene.id}/trim`, key, trim);
    expect(first.status).toBe(200);
    expect(first.replayed).toBe(false);
    expect(first.body.trim_start).toBeCloseTo(trim.trim_start, 3);

    const afterFirst = await sceneRow(scene.id);
    await clearNeedsRender();
    const projectBefore = await projectRow();
    await new Promise((r) => setTimeout(r, 20)); // a second run would write a later updated_at

    const again = await keyed("PUT", `/scenes/${scene.id}/trim`, key, trim);
    expect(again).toEqual({ status: 200, body: first.body, replayed: true });
    expect(await sceneRow(scene.id)).toEqual(afterFirst);
    const projectAfter = await projectRow();
    expect(projectAfter.needs_render).toBe(0);
    expect(projectAfter.updated_at).toBe(projectBefore.updated_at);
  });

  it("works on SPEC §7's state-changing GETs: a replayed hide does not hide the restored scene again", async () => {
    const [, scene] = await scenes();
    const key = randomUUID();
    const hidden = await keyed("GET", `/scenes/${scene.id}/hide`, key);
    expect(hidden).toMatchObject({ status: 200, replayed: false, body: { visibility: 0 } });
    expect((await api("GET", `/scenes/${scene.id}/show`)).body.visibility).toBe(1);

    const replay = await keyed("GET", `/scenes/${scene.id}/hide`, key);
    expect(replay).toEqual({ status: 200, body: hidden.body, replayed: true });
    expect((await sceneRow(scene.id)).visibility).toBe(1);
  });

  it("duplicates a scene exactly once, also when both copies of the request arrive together", async () => {
    const before = await scenes();
    const scene = before[2];
    const key = randomUUID();
    const first = await keyed("POST", `/scenes/${scene.id}/duplicate`, key);
    const second = await keyed("POST", `/scenes/${scene.id}/duplicate`, key);
    expect(first.status).toBe(200);
    expect(second).toEqual({ status: 200, body: first.body, replayed: true });
    expect(await scenes()).toHaveLength(before.length + 1);

    // The outbox and background sync may deliver the same edit at the same moment.
    const together = randomUUID();
    const both = await Promise.all([keyed("POST", `/scenes/${scene.id}/duplicate`, together), keyed("POST", `/scenes/${scene.id}/duplicate`, together)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both[0]!.body).toEqual(both[1]!.body);
    expect(both.filter((r) => r.replayed)).toHaveLength(1);
    expect(await scenes()).toHaveLength(before.length + 2);
  });

  it("keeps a refused edit refused: a 400 markers_cross replays as the same 400", async () => {
    const [scene] = await scenes();
    const key = randomUUID();
    const crossed = { trim_start: scene.end - 0.2, trim_end: scene.start + 0.2 };
    const first = await keyed("PUT", `/scenes/${scene.id}/trim`, key, crossed);
    expect(first).toMatchObject({ status: 400, replayed: false, body: { code: "markers_cross" } });
    const again = await keyed("PUT", `/scenes/${scene.id}/trim`, key, crossed);
    expect(again).toEqual({ status: 400, body: first.body, replayed: true });
  });

  it("is scoped per user: another user's identical key runs on its own", async () => {
    const key = randomUUID();
    const mine = await keyed("PUT", "/user/rename", key, { first_name: "Ana", last_name: "Mine" });
    const theirs = await keyed("PUT", "/user/rename", key, { first_name: "Bea", last_name: "Theirs" }, other);
    expect(mine).toMatchObject({ status: 200, replayed: false, body: { first_name: "Ana", last_name: "Mine" } });
    expect(theirs).toMatchObject({ status: 200, replayed: false, body: { first_name: "Bea", last_name: "Theirs" } });
    expect((await api("GET", "/user", undefined, other)).body.last_name).toBe("Theirs");
    // Another user's key never reveals the first user's answer, and their scene stays theirs.
    const [scene] = await scenes();
    const trimKey = randomUUID();
    await keyed("PUT", `/scenes/${scene.id}/trim`, trimKey, { trim_start: scene.trim_start, trim_end: scene.trim_end });
    const foreign = await keyed("PUT", `/scenes/${scene.id}/trim`, trimKey, { trim_start: scene.trim_start, trim_end: scene.trim_end }, other);
    expect(foreign).toMatchObject({ status: 404, replayed: false, body: { code: "not_found" } });
  });

  it("refuses the same key on another call with 422 idempotency_key_reused, and keys over 255 characters with 400", async () => {
    const [a, b] = await scenes();
    const key = randomUUID();
    expect((await keyed("GET", `/scenes/${a.id}/type/intro`, key)).status).toBe(200);
    const otherPath = await keyed("GET", `/scenes/${b.id}/type/intro`, key);
    expect(otherPath).toMatchObject({ status: 422, replayed: false, body: { code: "idempotency_key_reused" } });
    const otherMethod = await keyed("POST", `/scenes/${a.id}/duplicate`, key);
    expect(otherMethod).toMatchObject({ status: 422, body: { code: "idempotency_key_reused" } });
    expect((await sceneRow(b.id)).type).toBe("default");
    expect((await api("GET", `/scenes/${a.id}/type`)).body.type).toBe("default");

    expect((await keyed("GET", `/scenes/${a.id}/type`, "k".repeat(256))).body.code).toBe("bad_request");
    expect((await keyed("GET", `/scenes/${a.id}/type`, "k".repeat(255))).status).toBe(200);
  });

  it("stores nothing for reads, whatever their method", async () => {
    const [scene] = await scenes();
    const getKey = randomUUID();
    const storyboardKey = randomUUID();
    expect((await keyed("GET", `/scenes/${scene.id}`, getKey)).status).toBe(200);
    expect((await keyed("POST", `/projects/${projectId}/storyboard?offset=0&limit=2`, storyboardKey, {})).status).toBe(200);
    expect(await storedKeys(getKey)).toEqual([]);
    expect(await storedKeys(storyboardKey)).toEqual([]);
  });

  it("keeps answers for the background-sync retention (1440 minutes), then runs the key again and prunes it", async () => {
    const [, scene] = await scenes();
    const kept = randomUUID();
    const expired = randomUUID();
    const pruned = randomUUID();
    await keyed("GET", `/scenes/${scene.id}/hide`, kept);
    await keyed("GET", `/scenes/${scene.id}/hide`, expired);
    await keyed("GET", `/scenes/${scene.id}/hide`, pruned);
    await api("GET", `/scenes/${scene.id}/show`);
    const age = async (key: string, ms: number) =>
      server.db.updateTable("idempotency_keys").set({ created_at: new Date(Date.now() - ms).toISOString() }).where("key", "=", key).execute();
    await age(kept, 1440 * 60_000 + 60_000);
    await age(expired, IDEMPOTENCY_RETENTION_MS + 60_000);
    await age(pruned, IDEMPOTENCY_RETENTION_MS + 60_000);

    // Still within the retention: replayed, the scene stays visible.
    expect((await keyed("GET", `/scenes/${scene.id}/hide`, kept)).replayed).toBe(true);
    expect((await sceneRow(scene.id)).visibility).toBe(1);
    // Past it: the key is free again and the request runs.
    expect(await keyed("GET", `/scenes/${scene.id}/hide`, expired)).toMatchObject({ status: 200, replayed: false });
    expect((await sceneRow(scene.id)).visibility).toBe(0);
    await api("GET", `/scenes/${scene.id}/show`);

    const removed = await pruneIdempotencyKeys(server.db, new Date(Date.now() - IDEMPOTENCY_RETENTION_MS).toISOString());
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await storedKeys(pruned)).toEqual([]);
    expect(await storedKeys(kept)).toHaveLength(1);
  });
});
