import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIBRARY_PAGE_SIZE } from "../../api/media";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

const fixture = (name: string) => path.resolve(__dirname, "../fixtures", name);

let server: TestServer;
let base: string;
let token: string;
let other: string;

const api = jsonApi(() => base, () => token);
const stored = (key: string) => path.join(server.dataDir, "store", key);

interface Added {
  mediaId: number;
  projectId: number;
}
const added: Record<"talk" | "voice" | "still", Added> = {} as never;

const addToLibrary = async (file: string, name: string, extra: Record<string, unknown> = {}, as = token) => {
  const uploaded = await tusUpload(base, as, fixture(file), { name });
  const res = await api("POST", "/library", { media_file: uploaded.id, name, locale: "en-US", process: 1, has_speech: 1, ...extra }, as);
  expect(res.status).toBe(201);
  return res.body.media_file as { id: number; name: string; kind: string };
};

const libraryProject = (mediaId: number) =>
  server.db.selectFrom("projects").selectAll().where("library_media_file_id", "=", mediaId).execute();

const search = async (type: string, query = "", page = 1, as = token) => {
  const res = await api("GET", `/library/projects/search?type=${type}&query=${encodeURIComponent(query)}&page=${page}`, undefined, as);
  expect(res.status).toBe(200);
  return res.body as { data: any[]; current_page: number; last_page: number; total: number };
};

const waitReady = (projectId: number) =>
  waitFor(async () => {
    const { body } = await api("GET", `/projects/${projectId}`);
    if (body.status === "Failed") throw new Error(body.failure);
    return body.status === "Preview Ready" ? body : undefined;
  });

const allScenes = async (projectId: number) => {
  const first = (await api("GET", `/library/projects/${projectId}/scenes?page=1`)).body;
  const rest = [];
  for (let page = 2; page <= first.last_page; page++) rest.push(...(await api("GET", `/library/projects/${projectId}/scenes?page=${page}`)).body.data);
  return [...first.data, ...rest] as any[];
};

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
  token = (await server.signUp()).token;
  other = (await server.signUp()).token;
});
afterAll(() => server.close());

describe("library projects", () => {
  it("gives every upload a library project that reaches Preview Ready with its scenes, charged once", async () => {
    const quotasBefore = (await api("GET", "/user/quotas")).body;
    const files = [
      ["talk", await addToLibrary("talk.mp4", "Talk.mp4")],
      ["voice", await addToLibrary("voice.m4a", "Voice.m4a")],
      ["still", await addToLibrary("still.png", "Still.png", { has_speech: 0, locale: null })],
    ] as const;
    for (const [key, media] of files) {
      const projects = await libraryProject(media.id);
      expect(projects).toHaveLength(1);
      added[key] = { mediaId: media.id, projectId: projects[0]!.id };
    }

    const talk = await waitReady(added.talk.projectId);
    expect(talk).toMatchObject({ type: "library", name: "Talk.mp4", locale: "en-US", working_progress: 100, working_progress_raw: 100, raw_preview_render: 1, is_queued: 0 });
    // The raw preview is the file's proxy: no second encode.
    expect(talk.export_raw_url).toContain(`media/`);
    expect(talk.export_raw_url).toContain(`/${added.talk.mediaId}/proxy.mp4?`);
    expect(talk.thumbnailPath).toMatch(/^\/api\/v1\/files\//);
    const voice = await waitReady(added.voice.projectId);
    const still = await waitReady(added.still.projectId);
    expect(voice.audioonly).toBe(1);

    const talkScenes = await allScenes(added.talk.projectId);
    expect(talkScenes.length).toBeGreaterThan(3);
    expect(talk.scenes_count).toBe(talkScenes.length);
    // Silences are cut, as in a new project.
    expect((await api("GET", `/projects/${added.talk.projectId}/highlights`)).body.removedLength).toBeGreaterThan(2);
    expect(talkScenes.map((s) => s.order)).toEqual(talkScenes.map((_, i) => i + 1));
    expect(talkScenes[0]).toMatchObject({ isScene: true, project_id: added.talk.projectId, media_file_id: added.talk.mediaId, media_file: { raw_preview_offset: 0 }, overscene: null });
    expect(talkScenes[0].thumbnail).toMatch(/^\/api\/v1\/files\//);
    expect((await allScenes(added.voice.projectId)).length).toBeGreaterThanOrEqual(1);
    const stillScenes = await allScenes(added.still.projectId);
    expect(stillScenes).toHaveLength(1);
    expect(stillScenes[0].trim_end - stillScenes[0].trim_start).toBe(4);
    expect(still.raw_preview_render).toBe(1);

    // Library projects are never queued as projects (only the spoken uploads' words are recognised after them,
    // issue 14), and minutes are charged once per upload.
    const projectJobs = await server.db.selectFrom("jobs").select("id").where("type", "not in", ["ingest-media", "transcribe"]).execute();
    expect(projectJobs).toEqual([]);
    const transcribeJobs = await server.db.selectFrom("jobs").select("group_key").where("type", "=", "transcribe").execute();
    for (const job of transcribeJobs) expect([`project:${added.talk.projectId}`, `project:${added.voice.projectId}`]).toContain(job.group_key);
    // The spoken upload's words are recognised after its item is ready; speech recognition is off here, and it says so.
    const talkSubtitles = await waitFor(async () => {
      const { body } = await api("GET", `/projects/${added.talk.projectId}`);
      return body.subtitles_pending === 0 ? body : undefined;
    });
    expect(talkSubtitles.subtitles_unavailable).toEqual({ reason: "speech_off", language: "en-US" });
    const quotasAfter = (await api("GET", "/user/quotas")).body;
    expect(quotasBefore.processingMinutes - quotasAfter.processingMinutes).toBeCloseTo((18.765 + 3.5) / 60, 2);
    // Storage counts each file once: the library project adds no bytes.
    const sizes = ["talk.mp4", "voice.m4a", "still.png"].reduce((sum, f) => sum + fs.statSync(fixture(f)).size, 0);
    expect((await api("GET", "/user")).body.total_used_storage).toBe(sizes);
    expect(quotasBefore.storageBytes - quotasAfter.storageBytes).toBe(sizes);
  });

  it("finishes again without a second project or doubled scenes when the ingest job runs again", async () => {
    const { mediaId, projectId } = added.talk;
    const before = await allScenes(projectId);
    // As if the job stopped after the scenes were built but before the project was marked ready.
    await server.db.updateTable("projects").set({ status: "Working" }).where("id", "=", projectId).execute();
    const { id } = await server.queue.enqueue("ingest-media", { mediaFileId: mediaId });
    await waitFor(async () => ((await server.queue.get(id))?.status === "done" ? true : undefined));
    expect(await libraryProject(mediaId)).toHaveLength(1);
    const after = await allScenes(projectId);
    expect(after.length).toBe(before.length);
    expect((await api("GET", `/projects/${projectId}`)).body.status).toBe("Preview Ready");
    const rows = await server.db.selectFrom("project_media").selectAll().where("project_id", "=", projectId).execute();
    expect(rows).toEqual([{ project_id: projectId, media_file_id: mediaId, position: 0, role: "main" }]);
  });

  it("marks the library project Failed when the file breaks during processing", async () => {
    const media = await addToLibrary("voice.m4a", "Breaks.m4a");
    const [project] = await libraryProject(media.id);
    await waitReady(project!.id);
    const row = await server.db.selectFrom("media_files").selectAll().where("id", "=", media.id).executeTakeFirstOrThrow();
    fs.writeFileSync(stored(row.storage_key), Buffer.alloc(4096, 7));
    fs.rmSync(stored(row.proxy_key!), { force: true });
    await server.db.updateTable("media_files").set({ status: "processing", raw_preview_render: 0, proxy_key: null, analysis: null }).where("id", "=", media.id).execute();
    await server.db.updateTable("projects").set({ status: "Working" }).where("id", "=", project!.id).execute();
    await server.queue.enqueue("ingest-media", { mediaFileId: media.id });
    const failed = await waitFor(async () => {
      const { body } = await api("GET", `/projects/${project!.id}`);
      return body.status === "Failed" ? body : undefined;
    });
    expect(failed.failure).toBe("Uploaded file may be corrupted or not be compatible");
    expect((await api("GET", `/library/${media.id}`)).body.status).toBe("failed");
    // A failed item can be removed.
    expect((await api("DELETE", `/projects/${project!.id}`)).status).toBe(200);
  });
});

describe("library search", () => {
  let normalId: number;

  it("lists each tab's items, newest first, with what the library page shows", async () => {
    const videos = await search("video");
    expect(videos).toMatchObject({ current_page: 1, last_page: 1, total: 1 });
    expect(videos.data[0]).toMatchObject({
      id: added.talk.projectId,
      name: "Talk.mp4",
      type: "library",
      kind: "video",
      media_file_id: added.talk.mediaId,
      raw_preview_render: 1,
      progress: 100,
      used_in_projects: 0,
    });
    expect(videos.data[0].duration).toBeCloseTo(18.765, 1);
    expect(videos.data[0].scenes_count).toBeGreaterThan(3);
    expect(videos.data[0].preview_url).toMatch(/proxy\.mp4\?expires=\d+&signature=/);
    expect(videos.data[0].thumbnail_url).toMatch(/^\/api\/v1\/files\//);
    expect((await search("audio")).data.map((i) => i.name)).toEqual(["Voice.m4a"]);
    const images = await search("image");
    expect(images.data.map((i) => i.name)).toEqual(["Still.png"]);
    expect(images.data[0]).toMatchObject({ kind: "image", preview_url: null, scenes_count: 1, raw_preview_render: 1, progress: 100 });
    expect((await search("scenes")).data).toEqual([]);
    // Defaults: the videos tab, page 1, everything.
    expect((await api("GET", "/library/projects/search")).body.data.map((i: any) => i.id)).toEqual([added.talk.projectId]);
  });

  it("lists the user's own projects with scenes in the scenes tab, and counts where a file is used", async () => {
    const created = await api("POST", "/createproject", { name: "Edited talk", locale: "en-US", style: "video", media: [added.talk.mediaId] });
    normalId = created.body.id;
    await waitReady(normalId);
    const scenesTab = await search("scenes");
    expect(scenesTab.data).toHaveLength(1);
    expect(scenesTab.data[0]).toMatchObject({ id: normalId, name: "Edited talk", type: "project", kind: null, media_file_id: null, used_in_projects: 0, progress: 100, raw_preview_render: 1 });
    expect(scenesTab.data[0].scenes_count).toBeGreaterThan(0);
    expect((await search("video")).data[0].used_in_projects).toBe(1);
    expect((await search("scenes", "edited")).data.map((i) => i.id)).toEqual([normalId]);
    expect((await search("scenes", "talk.mp4")).data).toEqual([]);
  });

  it("matches names in any case, and takes % and _ literally", async () => {
    expect((await search("video", "tAL")).data.map((i) => i.id)).toEqual([added.talk.projectId]);
    expect(await search("video", "nothing like it")).toMatchObject({ data: [], total: 0, current_page: 1, last_page: 1 });
    expect((await search("video", "%")).data).toEqual([]);
    expect((await search("video", "_")).data).toEqual([]);
    const odd = await addToLibrary("still.png", "Half_50% off.png", { has_speech: 0, locale: null });
    const [project] = await libraryProject(odd.id);
    await waitReady(project!.id);
    for (const query of ["%", "50%", "_", "f_5"]) expect((await search("image", query)).data.map((i) => i.name), query).toEqual(["Half_50% off.png"]);
    expect((await search("image", "")).data.map((i) => i.name)).toEqual(["Half_50% off.png", "Still.png"]);
  });

  it("gives older files their library project when the library is listed, and pages by LIBRARY_PAGE_SIZE", async () => {
    const legacy = await server.signUp();
    const user = await server.db.selectFrom("users").select("id").where("email", "=", legacy.email).executeTakeFirstOrThrow();
    const count = LIBRARY_PAGE_SIZE + 2;
    const now = new Date().toISOString();
    for (let i = 1; i <= count; i++) {
      // A file from before library projects: ready, with no project of its own.
      const row = await server.db
        .insertInto("media_files")
        .values({
          user_id: user.id, name: `Old ${String(i).padStart(2, "0")}.png`, kind: "image", type: "library", mime: "image/png", size_bytes: 1488,
          duration_seconds: 0, width: 64, height: 64, fps: null, has_audio: 0, has_speech: 0, language: null, storage_key: "pending",
          proxy_key: null, thumbnail_key: null, analysis: null, status: "ready", progress: 100, raw_preview_render: 1, created_at: now, updated_at: now, deleted_at: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const key = `media/${user.id}/${row.id}/source.png`;
      fs.mkdirSync(path.dirname(stored(key)), { recursive: true });
      fs.copyFileSync(fixture("still.png"), stored(key));
      await server.db.updateTable("media_files").set({ storage_key: key }).where("id", "=", row.id).execute();
    }
    const ids = (await server.db.selectFrom("media_files").select("id").where("user_id", "=", user.id).execute()).map((r) => r.id);
    const projectsOf = () => server.db.selectFrom("projects").selectAll().where("user_id", "=", user.id).execute();
    expect(await projectsOf()).toEqual([]);

    // GET /library (and the tabs) create the missing projects, once.
    const list = (await api("GET", "/library?page=1", undefined, legacy.token)).body;
    expect(list).toMatchObject({ current_page: 1, last_page: 2, total: count });
    await api("GET", "/library?page=2", undefined, legacy.token);
    const projects = await projectsOf();
    expect(projects).toHaveLength(count);
    expect(new Set(projects.map((p) => p.library_media_file_id))).toEqual(new Set(ids));
    expect(projects.every((p) => p.type === "library" && p.status === "Preview Ready" && p.scenes_count === 1)).toBe(true);

    const page1 = await search("image", "", 1, legacy.token);
    expect(page1).toMatchObject({ current_page: 1, last_page: 2, total: count });
    expect(page1.data).toHaveLength(LIBRARY_PAGE_SIZE);
    const page2 = await search("image", "", 2, legacy.token);
    expect(page2).toMatchObject({ current_page: 2, last_page: 2 });
    expect(page2.data.map((i) => i.name)).toEqual(["Old 02.png", "Old 01.png"]);
    expect(page1.data[0].name).toBe(`Old ${count}.png`);
    expect((await search("image", "old 1", 1, legacy.token)).total).toBe(10);
    // Still exactly one project per file after listing again.
    await search("image", "", 1, legacy.token);
    expect(await projectsOf()).toHaveLength(count);
  });

  it("never queues, renders or reopens a library item", async () => {
    const id = added.talk.projectId;
    const before = (await api("GET", `/projects/${id}`)).body;
    for (const [method, path, body] of [
      ["POST", `/projects/${id}/render`, { final: false }],
      ["POST", `/projects/${id}/renderraw`, undefined],
      ["POST", `/projects/${id}/restart`, undefined],
      ["GET", `/projects/${id}/reopen`, undefined],
      ["POST", `/projects/${id}/recreatestoryboard`, { autocutsilences: 1, smoothcuts: 1 }],
    ] as const) {
      expect((await api(method, path, body)).status, path).toBe(400);
    }
    expect((await api("GET", `/projects/${id}`)).body).toMatchObject({ status: before.status, is_queued: 0, needs_render: 0 });
  });

  it("keeps library projects out of the project list and its count", async () => {
    const list = (await api("GET", "/projects?page=1")).body;
    expect(list.data.map((p: any) => p.id)).toEqual([normalId]);
    expect(list.total).toBe(1);
    expect((await api("GET", "/projects?count=1")).body.count).toBe(1);
  });
});

describe("scenes of a library item", () => {
  it("pages the main scenes in order, without overlays", async () => {
    const { projectId } = added.talk;
    const first = await allScenes(projectId);
    // More scenes than a page: duplicate through the scene call.
    while ((await allScenes(projectId)).length <= LIBRARY_PAGE_SIZE) {
      const res = await api("POST", `/scenes/${first[0].id}/duplicate`);
      expect(res.status).toBe(200);
    }
    const total = (await allScenes(projectId)).length;
    // An overlay row sits over scene 1 and is not a scene of the list.
    const main = await server.db.selectFrom("scenes").selectAll().where("id", "=", first[1].id).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = main;
    await server.db.insertInto("scenes").values({ ...copy, order: 0, type: "overscene", parent_scene_id: main.id }).execute();

    const page1 = (await api("GET", `/library/projects/${projectId}/scenes`)).body;
    expect(page1).toMatchObject({ current_page: 1, last_page: Math.ceil(total / LIBRARY_PAGE_SIZE), total });
    expect(page1.data).toHaveLength(LIBRARY_PAGE_SIZE);
    const page2 = (await api("GET", `/library/projects/${projectId}/scenes?page=2`)).body;
    expect(page2).toMatchObject({ current_page: 2, total });
    expect(page2.data).toHaveLength(total - LIBRARY_PAGE_SIZE);
    const orders = [...page1.data, ...page2.data].map((s: any) => s.order);
    expect(orders).toEqual(orders.map((_: number, i: number) => i + 1));
    // The covered scene carries its overlay, as in the storyboard.
    const covered = [...page1.data, ...page2.data].filter((s: any) => s.overscene);
    expect(covered.map((s: any) => s.id)).toEqual([main.id]);
    expect((await api("GET", `/library/projects/${projectId}/scenes?page=0`)).status).toBe(400);
  });

  it("searches the scenes' text lines, in any case, never the JSON around them", async () => {
    const { projectId } = added.talk;
    const scenes = await allScenes(projectId);
    const line = (scene: any, text: string) => ({ start: scene.trim_start, end: scene.trim_end, text });
    expect((await api("PUT", `/scenes/${scenes[2].id}`, { text: [line(scenes[2], "Hello World"), line(scenes[2], "second line")] })).status).toBe(200);
    expect((await api("PUT", `/scenes/${scenes[4].id}`, { text: [line(scenes[4], "AÇÃO rápida 100%")] })).status).toBe(200);
    const find = async (query: string, page = 1) => (await api("GET", `/library/projects/${projectId}/search?query=${encodeURIComponent(query)}&page=${page}`)).body;

    expect((await find("world")).data.map((s: any) => s.id)).toEqual([scenes[2].id]);
    expect((await find("HELLO w")).data.map((s: any) => s.id)).toEqual([scenes[2].id]);
    expect((await find("ação")).data.map((s: any) => s.id)).toEqual([scenes[4].id]);
    expect((await find("100%")).data.map((s: any) => s.id)).toEqual([scenes[4].id]);
    expect((await find("ON")).data.map((s: any) => s.id)).toEqual([scenes[2].id]);
    for (const key of ["start", "text", "end", '"', "{", ":"]) expect((await find(key)).data, key).toEqual([]);
    expect(await find("nowhere")).toMatchObject({ data: [], total: 0, current_page: 1, last_page: 1 });
    // An empty query lists every scene, a page at a time.
    const everything = await find("");
    expect(everything).toMatchObject({ total: scenes.length, last_page: 2 });
    expect(everything.data).toHaveLength(LIBRARY_PAGE_SIZE);
    expect((await find("", 2)).data).toHaveLength(scenes.length - LIBRARY_PAGE_SIZE);
  });
});

describe("rename and remove", () => {
  it("renames a library item and its file, refusing a name already in the library", async () => {
    const { projectId, mediaId } = added.still;
    const renamed = await api("PUT", `/projects/${projectId}`, { name: "Cover.png" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Cover.png");
    expect((await api("GET", `/library/${mediaId}`)).body.name).toBe("Cover.png");
    expect((await search("image", "cover")).data.map((i) => i.id)).toEqual([projectId]);

    const clash = await api("PUT", `/projects/${projectId}`, { name: "Voice.m4a" });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe("duplicate_name");
    expect((await api("GET", `/projects/${projectId}`)).body.name).toBe("Cover.png");
    expect((await api("GET", `/library/${mediaId}`)).body.name).toBe("Cover.png");
    // Renaming to its own name is no clash.
    expect((await api("PUT", `/projects/${projectId}`, { name: "Cover.png" })).status).toBe(200);
  });

  it("removes an unused library item with its stored files", async () => {
    const { projectId, mediaId } = added.voice;
    const row = await server.db.selectFrom("media_files").selectAll().where("id", "=", mediaId).executeTakeFirstOrThrow();
    const keys = [row.storage_key, row.proxy_key!, row.thumbnail_key!];
    for (const key of keys) expect(fs.existsSync(stored(key)), key).toBe(true);
    const storageBefore = (await api("GET", "/user")).body.total_used_storage;
    const minutesBefore = (await api("GET", "/user/quotas")).body.processingMinutes;

    const removed = await api("DELETE", `/projects/${projectId}`);
    expect(removed.status).toBe(200);
    expect(removed.body.deleted_at).toBeTruthy();
    for (const key of keys) expect(fs.existsSync(stored(key)), key).toBe(false);
    expect(fs.existsSync(stored(`media/${row.user_id}/${mediaId}`))).toBe(false);
    expect((await search("audio")).data).toEqual([]);
    expect((await api("GET", "/library?type=audio")).body.data.map((m: any) => m.id)).not.toContain(mediaId);
    expect((await api("GET", `/library/${mediaId}`)).status).toBe(404);
    expect((await api("GET", `/library/projects/${projectId}/scenes`)).status).toBe(404);
    expect((await api("GET", "/user")).body.total_used_storage).toBe(storageBefore - Number(row.size_bytes));
    // The minutes were spent on processing: removing the file does not give them back.
    expect((await api("GET", "/user/quotas")).body.processingMinutes).toBe(minutesBefore);
    // Its name is free again.
    const again = await addToLibrary("voice.m4a", "Voice.m4a");
    await waitReady((await libraryProject(again.id))[0]!.id);
  });

  it("refuses to remove a file a project uses (409 media_in_use) and removes nothing", async () => {
    const { projectId, mediaId } = added.talk;
    const row = await server.db.selectFrom("media_files").selectAll().where("id", "=", mediaId).executeTakeFirstOrThrow();
    const res = await api("DELETE", `/projects/${projectId}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "media_in_use", message: "This file is used in a project and cannot be removed" });
    expect(fs.existsSync(stored(row.storage_key))).toBe(true);
    expect(fs.existsSync(stored(row.proxy_key!))).toBe(true);
    expect((await api("GET", `/projects/${projectId}`)).body.deleted_at).toBeNull();
    expect((await search("video")).data.map((i) => i.id)).toEqual([projectId]);

    // Deleting the normal project keeps its usual behaviour; then the file can go.
    const normal = (await search("scenes")).data[0];
    const deleted = await api("DELETE", `/projects/${normal.id}`);
    expect(deleted.body.deleted_at).toBeTruthy();
    expect(fs.existsSync(stored(row.storage_key))).toBe(true);
    expect((await search("scenes")).data).toEqual([]);
    expect((await search("video")).data[0].used_in_projects).toBe(0);
    expect((await api("DELETE", `/projects/${projectId}`)).status).toBe(200);
    expect(fs.existsSync(stored(row.storage_key))).toBe(false);
  });
});

describe("ownership", () => {
  it("answers 404 for another user's items on every library route, and lists none of them", async () => {
    const { projectId, mediaId } = added.still;
    const scenes = await allScenes(projectId);
    for (const [method, url, body] of [
      ["GET", `/library/projects/${projectId}/scenes`],
      ["GET", `/library/projects/${projectId}/search?query=a`],
      ["GET", `/library/projects/${projectId}/search`],
      ["PUT", `/projects/${projectId}`, { name: "Mine now.png" }],
      ["DELETE", `/projects/${projectId}`],
      ["GET", `/library/${mediaId}`],
    ] as const) {
      const res = await api(method, url, body, other);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain("Cover");
    }
    for (const tab of ["video", "audio", "image", "scenes"]) expect((await search(tab, "", 1, other)).data).toEqual([]);
    expect((await api("GET", `/projects/${projectId}`)).body).toMatchObject({ name: "Cover.png", deleted_at: null });
    expect(await allScenes(projectId)).toHaveLength(scenes.length);
    expect((await api("GET", "/library/projects/search?type=films")).status).toBe(400);
  });
});
