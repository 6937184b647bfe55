import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

const fixture = (name: string) => path.resolve(__dirname, "../fixtures", name);

let server: TestServer;
let base: string;
let token: string;
let other: string;
/** A: talk.mp4 cut into scenes. B: still.png, one still scene. O: another user's still. */
let talkProject: number;
let stillProject: number;
let othersProject: number;
let talk: any;
let still: any;
/** The still scene of project B, as first made. */
let picture: any;

const api = jsonApi(() => base, () => token);
const storyboard = async (id: number, as = token) => (await api("POST", `/projects/${id}/storyboard?offset=0&limit=250`, {}, as)).body.timeline as { scenes: any[]; projectScenesTotal: number };
const scenesOf = async (id: number, as = token) => (await storyboard(id, as)).scenes;
const project = async (id: number, as = token) => (await api("GET", `/projects/${id}`, undefined, as)).body;
const settled = (id: number, status: string, as = token) => waitFor(async () => ((await project(id, as)).status === status ? true : undefined), 120_000);
const overlayRowsOf = (parentId: number) => server.db.selectFrom("scenes").selectAll().where("parent_scene_id", "=", parentId).execute();

async function addMedia(file: string, name: string, speech: boolean, as = token) {
  const uploaded = await tusUpload(base, as, fixture(file), { name });
  const res = await api("POST", "/library", { media_file: uploaded.id, name, locale: speech ? "en-US" : null, has_speech: speech ? 1 : 0 }, as);
  return res.body.media_file;
}
const createProject = async (name: string, media: number[], as = token) =>
  (await api("POST", "/createproject", { name, locale: "en-US", style: "video", media }, as)).body.id as number;

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
  token = (await server.signUp()).token;
  other = (await server.signUp()).token;
  talk = await addMedia("talk.mp4", "talk.mp4", true);
  still = await addMedia("still.png", "still.png", false);
  const theirs = await addMedia("still.png", "their-still.png", false, other);
  talkProject = await createProject("Talk", [talk.id]);
  stillProject = await createProject("Still", [still.id]);
  othersProject = await createProject("Theirs", [theirs.id], other);
  await Promise.all([settled(talkProject, "Preview Ready"), settled(stillProject, "Preview Ready"), settled(othersProject, "Preview Ready", other)]);
  [picture] = await scenesOf(stillProject);
}, 180_000);
afterAll(() => server.close());

describe("library import", () => {
  it("inserts at order 1 from a second project, linking its file and resetting the raw preview", async () => {
    const before = await scenesOf(talkProject);
    expect((await project(talkProject)).raw_preview_render).toBe(1);
    const res = await api("POST", `/projects/${talkProject}/library/import`, { order: 1, scenes: [picture.id] });
    expect(res.status).toBe(200);
    const [inserted] = res.body.scenes;
    // The still joins the raw preview after the talk.
    expect(inserted).toMatchObject({ order: 1, media_file_id: still.id, visibility: 1, trim_start: picture.trim_start, trim_end: picture.trim_end, media_file: { raw_preview_offset: talk.duration } });
    expect(inserted.trim_start_raw).toBeCloseTo(talk.duration + picture.trim_start, 3);
    expect(inserted.thumbnail).toMatch(/^\/api\/v1\/files\//);
    expect((await project(talkProject))).toMatchObject({ raw_preview_render: 0, working_progress_raw: 0, needs_render: 1, scenes_count: before.length + 1 });
    const after = await scenesOf(talkProject);
    expect(after.map((s) => s.id)).toEqual([inserted.id, ...before.map((s) => s.id)]);
    expect(after.map((s) => s.order)).toEqual(after.map((_, i) => i + 1));

    // The reference player asks for the raw preview again, and gets it.
    await api("POST", `/projects/${talkProject}/renderraw`);
    await waitFor(async () => ((await project(talkProject)).raw_preview_render === 1 ? true : undefined));
  });

  it("appends past the end, takes whole projects' shown scenes, and leaves the raw preview alone for linked files", async () => {
    const before = await scenesOf(talkProject);
    const mine = before[3];
    const res = await api("POST", `/projects/${talkProject}/library/import`, { order: 999, scenes: [mine.id], projects: [stillProject] });
    const [copy, picture] = res.body.scenes;
    expect(copy).toMatchObject({ order: before.length + 1, media_file_id: talk.id, trim_start: mine.trim_start, trim_end: mine.trim_end, trim_start_raw: mine.trim_start_raw });
    expect(picture).toMatchObject({ order: before.length + 2, media_file_id: still.id });
    expect((await project(talkProject)).raw_preview_render).toBe(1);

    // A removed scene of a whole project stays behind.
    const hidden = before.find((s) => s.media_file_id === talk.id && !s.overscene)!;
    await api("GET", `/scenes/${hidden.id}/hide`);
    const shown = before.filter((s) => s.id !== hidden.id && s.visibility === 1).length;
    const whole = await api("POST", `/projects/${stillProject}/library/import`, { order: 1, projects: [talkProject] });
    expect(whole.body.scenes).toHaveLength(shown + 2);
    expect(whole.body.scenes.map((s: any) => s.order)).toEqual(whole.body.scenes.map((_: any, i: number) => i + 1));
    expect((await project(stillProject))).toMatchObject({ raw_preview_render: 0, scenes_count: shown + 3 });
    await api("GET", `/scenes/${hidden.id}/show`);
  });

  it("copies a scene's overlay, attributes and text along with it", async () => {
    const [, target] = await scenesOf(talkProject);
    await api("POST", `/projects/${talkProject}/library/import/overscene`, { sceneid: target.id, scenes: [picture.id], overscene_type: "fullscrn" });
    const lines = [{ start: target.trim_start, end: target.trim_end, text: "hello" }];
    await api("PUT", `/scenes/${target.id}`, { text: lines, punch_in: 2, crop: true, mediaAudio: "loud" });
    const [copy] = (await api("POST", `/projects/${stillProject}/library/import`, { order: 1, scenes: [target.id] })).body.scenes;
    expect(copy).toMatchObject({ text: lines, punch_in: 2, crop: true, mediaAudio: "loud", overscene_type: "fullscrn", overscene_bg: 1, overscene: { media_file_id: still.id } });
    expect(copy.overscene.id).not.toBe((await api("GET", `/scenes/${target.id}`)).body.overscene.id);
    await api("DELETE", `/scenes/${target.id}/overscene`);
    await api("PUT", `/scenes/${target.id}`, { text: [], punch_in: 1, crop: false, mediaAudio: "standard" });
  });

  it("takes scenes from a library item (the project of an upload), but adds none to one", async () => {
    const item = await server.db
      .selectFrom("projects")
      .innerJoin("project_media", "project_media.project_id", "projects.id")
      .select("projects.id")
      .where("projects.type", "=", "library")
      .where("project_media.media_file_id", "=", talk.id)
      .executeTakeFirstOrThrow();
    await settled(item.id, "Preview Ready");
    const [first] = await scenesOf(item.id);
    const res = await api("POST", `/projects/${stillProject}/library/import`, { order: 1, scenes: [first.id] });
    expect(res.body.scenes[0]).toMatchObject({ order: 1, media_file_id: talk.id, trim_start: first.trim_start, trim_end: first.trim_end });
    const refused = await api("POST", `/projects/${item.id}/library/import`, { order: 1, scenes: [picture.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("bad_request");
  });

  it("keeps another user's ids and projects out with 404, and inserts nothing", async () => {
    const [theirScene] = await scenesOf(othersProject, other);
    const [mine] = await scenesOf(talkProject);
    const total = (await storyboard(talkProject)).projectScenesTotal;
    for (const [url, body, as] of [
      [`/projects/${talkProject}/library/import`, { order: 1, scenes: [theirScene.id] }, token],
      [`/projects/${talkProject}/library/import`, { order: 1, projects: [othersProject] }, token],
      [`/projects/${talkProject}/library/import`, { order: 1, scenes: [mine.id, 99_999_999] }, token],
      [`/projects/${talkProject}/library/import`, { order: 1, scenes: [theirScene.id] }, other],
      [`/projects/${talkProject}/library/import/overscene`, { sceneid: mine.id, scenes: [theirScene.id] }, token],
      [`/projects/${othersProject}/library/import/overscene`, { sceneid: theirScene.id, scenes: [mine.id] }, token],
      // The scene under the overlay must be one of this project's.
      [`/projects/${stillProject}/library/import/overscene`, { sceneid: mine.id, scenes: [mine.id] }, token],
      [`/projects/${talkProject}/cuts`, { name: "x", scenes: [theirScene.id] }, token],
      [`/projects/${talkProject}/cuts`, { name: "x", scenes: [mine.id] }, other],
      [`/projects/${stillProject}/cuts`, { name: "x", scenes: [mine.id] }, token],
    ] as [string, unknown, string][]) {
      const res = await api("POST", url, body, as);
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain("still");
    }
    expect((await storyboard(talkProject)).projectScenesTotal).toBe(total);
  });

  it("refuses bad bodies and files still being processed", async () => {
    const [mine] = await scenesOf(talkProject);
    for (const body of [{ order: 0, scenes: [mine.id] }, { order: 1 }, { order: 1, scenes: [] }, { order: "first", scenes: [mine.id] }]) {
      expect((await api("POST", `/projects/${talkProject}/library/import`, body)).status, JSON.stringify(body)).toBe(422);
    }
    for (const body of [{ sceneid: mine.id, scenes: [] }, { sceneid: mine.id, scenes: [mine.id, mine.id] }, { sceneid: mine.id, scenes: [mine.id], overscene_type: "corner" }]) {
      expect((await api("POST", `/projects/${talkProject}/library/import/overscene`, body)).status, JSON.stringify(body)).toBe(422);
    }
    await server.db.updateTable("media_files").set({ status: "processing" }).where("id", "=", still.id).execute();
    const refused = await api("POST", `/projects/${talkProject}/library/import`, { order: 1, scenes: [picture.id] });
    await server.db.updateTable("media_files").set({ status: "ready" }).where("id", "=", still.id).execute();
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("media_not_ready");
  });
});

describe("overlays", () => {
  /** The talk scene the overlays go over. */
  let target: any;
  const plainTalkScenes = async () => (await scenesOf(talkProject)).filter((s) => s.media_file_id === talk.id && s.text.length === 0 && !s.overscene);
  const fresh = async () => (await api("GET", `/scenes/${target.id}`)).body;

  it("go over a scene with each position's background, replacing the one before", async () => {
    target = (await plainTalkScenes())[1];
    const backgrounds = { fullscrn: 1, autozoom: 1, pip_tl: 0, pip_tr: 0, pip_bl: 0, pip_br: 0 } as const;
    for (const [type, bg] of Object.entries(backgrounds)) {
      const res = await api("POST", `/projects/${talkProject}/library/import/overscene`, { sceneid: target.id, scenes: [picture.id], overscene_type: type });
      expect(res.status, type).toBe(200);
      expect(res.body).toMatchObject({ id: target.id, overscene_type: type, overscene_bg: bg, overscene_fade: 0, overscene_overflow: 0 });
      expect(res.body.overscene).toMatchObject({ media_file_id: still.id, start: picture.start, end: picture.end, trim_start: picture.trim_start, trim_end: picture.trim_end });
      expect(await overlayRowsOf(target.id)).toHaveLength(1);
    }
    await server.db.updateTable("projects").set({ needs_render: 0 }).where("id", "=", talkProject).execute();
    const byDefault = await api("POST", `/projects/${talkProject}/library/import/overscene`, { sceneid: target.id, scenes: [picture.id] });
    expect(byDefault.body).toMatchObject({ overscene_type: "pip_br", overscene_bg: 0 });
    // An image has no proxy: its preview is the picture, reachable through the signed link.
    expect(byDefault.body.overscene.preview_url).toMatch(/^\/api\/v1\/files\//);
    expect((await fetch(`${base}${byDefault.body.overscene.preview_url}`)).status).toBe(200);
    expect((await project(talkProject)).needs_render).toBe(1);
  });

  it("play a video overlay from its proxy, and stay out of the storyboard list and the counts", async () => {
    const before = await storyboard(talkProject);
    const [source, other] = await plainTalkScenes();
    const res = await api("POST", `/projects/${talkProject}/library/import/overscene`, { sceneid: other.id, scenes: [source.id], overscene_type: "autozoom" });
    expect(res.body.overscene).toMatchObject({ media_file_id: talk.id, trim_start: source.trim_start, trim_end: source.trim_end });
    const preview = await fetch(`${base}${res.body.overscene.preview_url}`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toContain("video");

    const after = await storyboard(talkProject);
    expect(after.projectScenesTotal).toBe(before.projectScenesTotal);
    expect(after.scenes.map((s) => s.id)).toEqual(before.scenes.map((s) => s.id));
    expect(after.scenes.map((s) => s.id)).not.toContain(res.body.overscene.id);
    expect(after.scenes.map((s) => s.order)).toEqual(after.scenes.map((_, i) => i + 1));
    expect((await project(talkProject)).scenes_count).toBe(before.projectScenesTotal);
    expect(after.scenes.find((s) => s.id === other.id).overscene.id).toBe(res.body.overscene.id);
    await api("DELETE", `/scenes/${other.id}/overscene`);
  });

  it("take option updates by the background rule, and refuse them on a scene without an overlay", async () => {
    const url = `/scenes/${target.id}`;
    expect((await api("PUT", url, { overscene_fade: 1, overscene_overflow: 1 })).body).toMatchObject({ overscene_type: "pip_br", overscene_fade: 1, overscene_overflow: 1, overscene_bg: 0 });
    expect((await api("PUT", url, { overscene_type: "fullscrn" })).body).toMatchObject({ overscene_type: "fullscrn", overscene_bg: 1, overscene_fade: 1 });
    expect((await api("PUT", url, { overscene_type: "pip_tl" })).body.overscene_bg).toBe(0);
    expect((await api("PUT", url, { overscene_type: "pip_tr", overscene_bg: 1 })).body).toMatchObject({ overscene_type: "pip_tr", overscene_bg: 1 });
    expect((await api("PUT", url, { overscene_bg: 0 })).body).toMatchObject({ overscene_type: "pip_tr", overscene_bg: 0 });
    expect((await api("PUT", url, { overscene_type: "middle" })).status).toBe(422);
    const [plain] = await plainTalkScenes();
    const refused = await api("PUT", `/scenes/${plain.id}`, { overscene_fade: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("bad_request");
  });

  it("are trimmed through their own id; structural calls on them are refused", async () => {
    const overlay = (await fresh()).overscene;
    const trimmed = await api("PUT", `/scenes/${overlay.id}/trim`, { trim_start: 0.5, trim_end: 3 });
    expect(trimmed.body).toMatchObject({ id: target.id, overscene: { id: overlay.id, trim_start: 0.5, trim_end: 3 } });
    for (const [method, url] of [
      ["GET", `/scenes/${overlay.id}/hide`],
      ["POST", `/scenes/${overlay.id}/duplicate`],
      ["GET", `/scenes/${overlay.id}/order/1`],
      ["POST", `/scenes/${overlay.id}/splitbyposition/1`],
    ] as const) {
      const res = await api(method, url);
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe("bad_request");
    }
  });

  it("stay on the first part of a split, are copied by duplicate, and survive a merge", async () => {
    const total = (await storyboard(talkProject)).projectScenesTotal;
    const scene = await fresh();
    const overlayId = scene.overscene.id;
    const half = (scene.trim_end - scene.trim_start) / 2;
    const [first, second] = (await api("POST", `/scenes/${scene.id}/splitbyposition/${half}`)).body.scenes;
    expect(first).toMatchObject({ id: scene.id, overscene: { id: overlayId }, overscene_type: scene.overscene_type });
    expect(second).toMatchObject({ overscene: null, overscene_type: null, overscene_bg: 0, overscene_fade: 0 });

    const [original, copy] = (await api("POST", `/scenes/${scene.id}/duplicate`)).body.scenes;
    expect(original.overscene.id).toBe(overlayId);
    expect(copy.overscene).toMatchObject({ media_file_id: scene.overscene.media_file_id, trim_start: scene.overscene.trim_start, trim_end: scene.overscene.trim_end });
    expect(copy.overscene.id).not.toBe(overlayId);
    expect(copy.overscene_type).toBe(scene.overscene_type);
    expect((await storyboard(talkProject)).projectScenesTotal).toBe(total + 2);

    // The copy sits between the parts: put it out of the way, then merge the parts back.
    await api("GET", `/scenes/${copy.id}/order/999`);
    const merged = await api("POST", `/scenes/${scene.id}/mergenextscene`);
    expect(merged.body).toMatchObject({ id: scene.id, trim_end: scene.trim_end, overscene: { id: overlayId } });
    expect(await overlayRowsOf(second.id)).toHaveLength(0);
  });

  it("merging a scene without an overlay into one with it keeps the next one's overlay", async () => {
    const [, , scene] = await plainTalkScenes();
    const half = (scene.trim_end - scene.trim_start) / 2;
    const [, second] = (await api("POST", `/scenes/${scene.id}/splitbyposition/${half}`)).body.scenes;
    const over = await api("POST", `/projects/${talkProject}/library/import/overscene`, { sceneid: second.id, scenes: [picture.id], overscene_type: "autozoom" });
    const merged = await api("POST", `/scenes/${scene.id}/mergenextscene`);
    expect(merged.body).toMatchObject({ id: scene.id, overscene: { id: over.body.overscene.id }, overscene_type: "autozoom", overscene_bg: 1 });
    await api("DELETE", `/scenes/${scene.id}/overscene`);
  });

  it("go away on DELETE, with their options", async () => {
    const removed = await api("DELETE", `/scenes/${target.id}/overscene`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ overscene: null, overscene_type: null, overscene_fade: 0, overscene_overflow: 0, overscene_bg: 0 });
    expect(await overlayRowsOf(target.id)).toHaveLength(0);
    expect((await api("DELETE", `/scenes/${target.id}/overscene`)).status).toBe(200);
    expect((await api("PUT", `/scenes/${target.id}`, { overscene_type: "pip_tl" })).status).toBe(400);
  });
});

describe("clips projects", () => {
  it("refuse bad requests with 422", async () => {
    const [a] = await scenesOf(talkProject);
    for (const body of [{ scenes: [a.id] }, { name: "", scenes: [a.id] }, { name: "x".repeat(141), scenes: [a.id] }, { name: "Clips", scenes: [] }, { name: "Clips", scenes: [a.id], aspect: "4x3" }, { name: "Clips", scenes: [a.id], final: 2 }]) {
      const res = await api("POST", `/projects/${talkProject}/cuts`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }
  });

  it("are new projects of the selected scenes in the given order, rendered to Preview Ready or Render Ready", async () => {
    const all = (await scenesOf(talkProject)).filter((s) => s.media_file_id === talk.id);
    const picked = [all[3], all[1], all[2]];
    const preview = await api("POST", `/projects/${talkProject}/cuts`, { name: "Clips preview", final: 0, scenes: picked.map((s) => s.id), aspect: "9x16", autocrop: 0 });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ status: "success", cutsproject_id: expect.any(Number) });
    const final = await api("POST", `/projects/${talkProject}/cuts`, { name: "Clips final", scenes: picked.map((s) => s.id) });
    const previewId = preview.body.cutsproject_id;
    const finalId = final.body.cutsproject_id;

    // While the source renders it is busy: imports wait.
    expect((await api("POST", `/projects/${talkProject}/render`, { final: false })).status).toBe(200);
    const busy = await api("POST", `/projects/${talkProject}/library/import`, { order: 1, scenes: [all[0].id] });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe("project_busy");

    expect(await project(previewId)).toMatchObject({ name: "Clips preview", type: "project", cuts_project: 1, aspect: "9x16", autocrop: 0, scenes_count: 3, locale: "en-US" });
    expect(["Rendering", "Preview Ready"]).toContain((await project(previewId)).status);
    expect(await project(finalId)).toMatchObject({ cuts_project: 1, aspect: "", autocrop: 1 });
    await Promise.all([settled(previewId, "Preview Ready"), settled(finalId, "Render Ready"), settled(talkProject, "Preview Ready")]);

    for (const id of [previewId, finalId]) {
      const clips = await scenesOf(id);
      expect(clips.map((s) => [s.order, s.visibility, s.media_file_id, s.trim_start, s.trim_end])).toEqual(picked.map((s, i) => [i + 1, 1, talk.id, s.trim_start, s.trim_end]));
      // The talk comes first among the clips project's files: its raw preview starts with it.
      for (const s of clips) expect(s.trim_start_raw).toBeCloseTo(s.trim_start, 3);
      expect(clips.some((s) => s.id === picked[0].id)).toBe(false);
      const done = await project(id);
      expect(done.export_url).toMatch(/^\/api\/v1\/files\//);
      await waitFor(async () => ((await project(id)).raw_preview_render === 1 ? true : undefined));
    }
    expect((await project(finalId)).final_render).toBe(1);
    // The source is untouched.
    expect((await scenesOf(talkProject)).filter((s) => s.media_file_id === talk.id).map((s) => s.id)).toEqual(all.map((s) => s.id));
  }, 180_000);
});
