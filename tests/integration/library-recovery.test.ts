import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobId } from "../../server/jobs/queue";
import { createServer } from "../../server/main";
import { recoverLibraryAdds } from "../../server/services/library-recovery";
import { localFileStore } from "../../server/storage/local";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

/**
 * Crash recovery of POST /library (issue 12): a server killed between the request's steps leaves a
 * file that would stay "processing" forever, or a name that blocks the retry. Each state is made as
 * the kill leaves it, then the start-up recovery runs.
 */

let server: TestServer;
let base: string;
let token: string;
const api = jsonApi(() => base, () => token);
const TALK = path.resolve(__dirname, "../fixtures/talk.mp4");

beforeAll(async () => {
  server = await startTestServer({}, { startRunner: false });
  base = await listen(server);
  token = (await server.signUp()).token;
});
afterAll(() => server.close());

const recover = () =>
  recoverLibraryAdds(
    {
      db: server.db,
      store: localFileStore(server.config.storeDir),
      enqueueIngest: async (mediaFileId, userId) => void (await server.queue.enqueue("ingest-media", { mediaFileId }, { owner: String(userId) })),
    },
    0,
    Date.now() + 1,
  );

const media = (id: number) => server.db.selectFrom("media_files").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("recovery of library adds a kill cut short", () => {
  it("undoes a row whose upload was not moved yet, so the same POST /library works again", async () => {
    const uploaded = await tusUpload(base, token, TALK, { name: "a.mp4" });
    // the row was inserted, then the server died before the upload moved
    const owner = await server.db.selectFrom("users").select("id").executeTakeFirstOrThrow(); // the one user of this server
    const now = new Date(Date.now() - 60_000).toISOString();
    const row = await server.db
      .insertInto("media_files")
      .values({ user_id: owner.id, name: "a.mp4", kind: "video", type: "library", mime: "video/mp4", size_bytes: 1, duration_seconds: 18, width: null, height: null, fps: null, has_audio: 1, has_speech: 1, language: "en-US", storage_key: "pending", proxy_key: null, thumbnail_key: null, analysis: null, status: "processing", progress: 0, raw_preview_render: 0, created_at: now, updated_at: now, deleted_at: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    const blocked = await api("POST", "/library", { media_file: uploaded.id, name: "a.mp4", locale: "en-US", has_speech: 1 });
    expect(blocked.status).toBe(409); // what the retry met before: and it removed the upload
    const again = await tusUpload(base, token, TALK, { name: "a.mp4" });

    expect(await recover()).toEqual({ undone: 1, keyed: 0, requeued: 0 });
    expect(await server.db.selectFrom("media_files").select("id").where("id", "=", row.id).executeTakeFirst()).toBeUndefined();
    const retried = await api("POST", "/library", { media_file: again.id, name: "a.mp4", locale: "en-US", has_speech: 1 });
    expect(retried.status).toBe(201);
  });

  it("is done at once by a server that starts alone on the data folder, for a row a kill left a moment ago", async () => {
    const uploaded = await tusUpload(base, token, TALK, { name: "d.mp4" });
    const owner = await server.db.selectFrom("users").select("id").executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await server.db
      .insertInto("media_files")
      .values({ user_id: owner.id, name: "d.mp4", kind: "video", type: "library", mime: "video/mp4", size_bytes: 1, duration_seconds: 18, width: null, height: null, fps: null, has_audio: 1, has_speech: 1, language: "en-US", storage_key: "pending", proxy_key: null, thumbnail_key: null, analysis: null, status: "processing", progress: 0, raw_preview_render: 0, created_at: now, updated_at: now, deleted_at: null })
      .execute();
    // the restarted server: same data folder, no other live process on it, not serving yet
    const restarted = await createServer(server.config, { mailer: { send: async () => {} } });
    try {
      expect(await server.db.selectFrom("media_files").select("id").where("name", "=", "d.mp4").executeTakeFirst()).toBeUndefined();
    } finally {
      await restarted.close();
    }
    expect((await api("POST", "/library", { media_file: uploaded.id, name: "d.mp4", locale: "en-US", has_speech: 1 })).status).toBe(201);
  });

  it("records the key of a file that was moved into the store, and queues its ingest", async () => {
    const uploaded = await tusUpload(base, token, TALK, { name: "b.mp4" });
    const added = await api("POST", "/library", { media_file: uploaded.id, name: "b.mp4", locale: "en-US", has_speech: 1 });
    const id = added.body.media_file.id as number;
    // as the kill left it: moved, but neither the key recorded nor the job queued
    await server.db.updateTable("media_files").set({ storage_key: "pending" }).where("id", "=", id).execute();
    await server.db.deleteFrom("jobs").where("id", "=", jobId("ingest-media", { mediaFileId: id })).execute();

    const done = await recover();
    expect(done.keyed).toBe(1);
    expect(done.requeued).toBeGreaterThanOrEqual(1);
    expect((await media(id)).storage_key).toMatch(new RegExp(`^media/\\d+/${id}/source\\.mp4$`));
    expect(fs.existsSync(path.join(server.config.storeDir, (await media(id)).storage_key))).toBe(true);
    expect((await server.queue.get(jobId("ingest-media", { mediaFileId: id })))?.status).toBe("queued");
  });

  it("queues the ingest of a file left processing without its job, and it ends ready", async () => {
    const uploaded = await tusUpload(base, token, TALK, { name: "c.mp4" });
    const added = await api("POST", "/library", { media_file: uploaded.id, name: "c.mp4", locale: "en-US", has_speech: 1 });
    const id = added.body.media_file.id as number;
    await server.db.deleteFrom("jobs").where("id", "=", jobId("ingest-media", { mediaFileId: id })).execute();

    expect((await recover()).requeued).toBeGreaterThanOrEqual(1);
    expect(await recover()).toEqual({ undone: 0, keyed: 0, requeued: 0 }); // once queued, left to the queue
    await server.startRunner();
    await waitFor(async () => ((await media(id)).status === "ready" ? true : undefined));
    const items = (await api("GET", "/library/projects/search?tab=videos&text=c.mp4")).body;
    expect(items.data.map((i: { name: string }) => i.name)).toContain("c.mp4");
  });
});
