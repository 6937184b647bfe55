import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, jsonApi, listen, processedTalkProject, startTestServer, type TestServer } from "./helpers";

// Issue 19: API processes keep storyboard slices ready (server/http/prepared-answers.ts) while the project's
// storyboard_version (migration 0029's triggers) stays the same. Two servers on one database stand for two
// API processes in scale mode: what one of them (or a job, or anything writing the database) changes, the
// other's next read shows.
let first: TestServer;
let second: TestServer;
let base: string;
let secondBase: string;
let token: string;
let other: string;
let projectId: number;

const api = jsonApi(() => base, () => token);
const viaSecond = jsonApi(() => secondBase, () => token);
const slice = async (at = api) => (await at("POST", `/projects/${projectId}/storyboard?offset=0&limit=250`, {})).body;
const version = async () => (await first.db.selectFrom("projects").select("storyboard_version").where("id", "=", projectId).executeTakeFirstOrThrow()).storyboard_version;

beforeAll(async () => {
  first = await startTestServer();
  base = await listen(first);
  second = await startTestServer({ DATA_DIR: first.dataDir });
  secondBase = await listen(second);
  token = (await first.signUp()).token;
  other = (await first.signUp()).token;
  projectId = await processedTalkProject(base, token, "Kept slices");
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe("kept storyboard slices", () => {
  it("answer the same JSON again, plain, brotli or gzip as the client takes it", async () => {
    const url = `${base}/api/v1/projects/${projectId}/storyboard?offset=0&limit=250`;
    const read = async (encoding: string) => {
      const res = await fetch(url, { method: "POST", headers: { ...bearer(token), "content-type": "application/json", "accept-encoding": encoding }, body: "{}" });
      return { res, bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const plain = await read("identity");
    expect(plain.res.status).toBe(200);
    expect(plain.res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(plain.res.headers.get("cache-control")).toBe("no-store");
    const answer = JSON.parse(plain.bytes.toString("utf8"));
    expect(answer.timeline.scenes.length).toBeGreaterThan(3);
    // fetch undoes the encoding it asked for; the bytes on the wire are checked with a raw request below.
    for (const encoding of ["br", "gzip", "gzip;q=0.5, br;q=0.2", "identity"]) {
      const again = await read(encoding);
      expect(again.res.headers.get("vary")).toMatch(/accept-encoding/i);
      expect(JSON.parse(again.bytes.toString("utf8"))).toEqual(answer);
    }
    const raw = await first.app.inject({ method: "POST", url: `/api/v1/projects/${projectId}/storyboard?offset=0&limit=250`, headers: { ...bearer(token), "accept-encoding": "gzip;q=0.5, br;q=0.2" }, payload: {} });
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(zlib.gunzipSync(raw.rawPayload).toString("utf8"))).toEqual(answer);
    const brotli = await first.app.inject({ method: "POST", url: `/api/v1/projects/${projectId}/storyboard?offset=0&limit=250`, headers: { ...bearer(token), "accept-encoding": "gzip, br" }, payload: {} });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(zlib.brotliDecompressSync(brotli.rawPayload).toString("utf8"))).toEqual(answer);
  });

  it("stay the owner's: another user's read of a kept slice is a 404 with nothing of it", async () => {
    await slice();
    const res = await api("POST", `/projects/${projectId}/storyboard?offset=0&limit=250`, {}, other);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain("thumbnail");
  });

  it("show an edit made through the same process at the next read", async () => {
    const [scene] = (await slice()).timeline.scenes;
    expect((await api("PUT", `/scenes/${scene.id}`, { text: [{ start: scene.trim_start, end: scene.trim_end, text: "Kept, then edited" }] })).status).toBe(200);
    expect((await slice()).timeline.scenes[0].text).toEqual([{ start: scene.trim_start, end: scene.trim_end, text: "Kept, then edited" }]);
  });

  it("show an edit made through another API process at the next read", async () => {
    const before = (await slice()).timeline.scenes;
    expect((await slice(viaSecond)).timeline.scenes).toEqual(before);
    expect((await viaSecond("GET", `/scenes/${before[1].id}/hide`)).status).toBe(200);
    const after = (await slice()).timeline.scenes;
    expect(after[1]).toMatchObject({ id: before[1].id, visibility: 0 });
    const moved = (await viaSecond("GET", `/scenes/${before[2].id}/order/1`)).status;
    expect(moved).toBe(200);
    expect((await slice()).timeline.scenes[0].id).toBe(before[2].id);
    expect(await slice(viaSecond)).toEqual(await slice());
  });

  it("show writes made straight in the database (jobs, other processes) at the next read", async () => {
    const before = (await slice()).timeline.scenes;
    const { db } = second;
    await db.updateTable("scenes").set({ music_type: "bgmloud" }).where("id", "=", before[0].id).execute();
    expect((await slice()).timeline.scenes[0].musicType).toBe("bgmloud");

    await db.deleteFrom("scenes").where("id", "=", before[before.length - 1].id).execute();
    const shorter = await slice();
    expect(shorter.timeline.projectScenesTotal).toBe(before.length - 1);
    expect(shorter.timeline.scenes.map((s: any) => s.id)).not.toContain(before[before.length - 1].id);

    // Issue 17's faces arrive in a row of their own, after the scenes: the scenes show them once it lands.
    const mediaId = before[0].media_file_id as number;
    await db.deleteFrom("media_faces").where("media_file_id", "=", mediaId).execute();
    const tracks = JSON.stringify([{ id: 1, points: [before[0].trim_start, before[0].trim_end].map((t: number) => [t, 0.4, 0.2, 0.2, 0.3]) }]);
    await db.insertInto("media_faces").values({ media_file_id: mediaId, sample_fps: 2, tracks, thumbs: "{}", created_at: new Date().toISOString() }).execute();
    expect((await slice()).timeline.scenes[0].faces).toEqual([expect.objectContaining({ track: 1, BoundingBox: { Left: 0.4, Top: 0.2, Width: 0.2, Height: 0.3 } })]);
  });

  it("are made again after every kind of write the answer depends on, and only the project's own", async () => {
    const { db } = first;
    const [scene] = (await slice()).timeline.scenes;
    const mediaId = scene.media_file_id as number;
    const moves = async (write: () => Promise<unknown>) => {
      const was = await version();
      await write();
      return (await version()) > was;
    };
    expect(await moves(() => db.updateTable("scenes").set({ crop: 1 }).where("id", "=", scene.id).execute())).toBe(true);
    expect(await moves(() => db.updateTable("media_files").set({ updated_at: new Date().toISOString() }).where("id", "=", mediaId).execute())).toBe(true);
    expect(await moves(() => db.updateTable("media_faces").set({ thumbs: "{}" }).where("media_file_id", "=", mediaId).execute())).toBe(true);
    expect(await moves(() => db.deleteFrom("media_faces").where("media_file_id", "=", mediaId).execute())).toBe(true);
    expect(await moves(() => db.updateTable("project_media").set({ position: 7 }).where("project_id", "=", projectId).execute())).toBe(true);
    // Writes elsewhere leave it alone: the project's own row, other projects' scenes.
    expect(await moves(() => db.updateTable("projects").set({ name: "Renamed" }).where("id", "=", projectId).execute())).toBe(false);
    expect(await moves(() => db.updateTable("scenes").set({ crop: 1 }).where("project_id", "!=", projectId).execute())).toBe(false);
    const kept = await slice();
    expect(kept.timeline.scenes[0].crop).toBe(true);
    expect(await slice(viaSecond)).toEqual(kept);
  });
});
