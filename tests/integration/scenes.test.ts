import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";

let server: TestServer;
let base: string;
let token: string;
let other: string;
let projectId: number;

const api = jsonApi(() => base, () => token);
const scenes = async () => (await api("POST", `/projects/${projectId}/storyboard?offset=0&limit=250`, {})).body.timeline.scenes as any[];

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
  token = (await server.signUp()).token;
  other = (await server.signUp()).token;
  projectId = await processedTalkProject(base, token, "Edit me");
});
afterAll(() => server.close());

describe("the storyboard loader", () => {
  it("answers slices with hasMoreScenes until the end, and by ids", async () => {
    const all = await scenes();
    expect(all.length).toBeGreaterThan(3);
    const first = (await api("POST", `/projects/${projectId}/storyboard?offset=0&limit=2`, {})).body;
    expect(first).toMatchObject({ projectId, offset: 0, limit: 2, hasMoreScenes: true, timeline: { projectScenesTotal: all.length } });
    expect(first.timeline.scenes.map((s: any) => s.order)).toEqual([1, 2]);
    const rest = (await api("POST", `/projects/${projectId}/storyboard?offset=2&limit=250`, {})).body;
    expect(rest.hasMoreScenes).toBe(false);
    expect(rest.timeline.scenes).toHaveLength(all.length - 2);
    const byIds = (await api("POST", `/projects/${projectId}/storyboard`, { scenesIds: [all[1].id] })).body;
    expect(byIds.timeline.scenes.map((s: any) => s.id)).toEqual([all[1].id]);
    expect(all[0]).toMatchObject({ isScene: true, type: "default", visibility: 1, media_file: { raw_preview_offset: 0 } });
    expect(all[0].thumbnail).toMatch(/^\/api\/v1\/files\//);
  });
});

describe("scene calls", () => {
  it("keep another user's scenes out: 404 and nothing of theirs, and nothing changes", async () => {
    const before = await scenes();
    const [scene] = before;
    for (const [method, url, body] of [
      ["GET", `/scenes/${scene.id}`],
      ["PUT", `/scenes/${scene.id}`, { mediaAudio: "mute", crop: true }],
      ["PUT", `/scenes/${scene.id}/trim`, { trim_start: scene.start, trim_end: scene.end }],
      ["POST", `/scenes/${scene.id}/removelines`],
      ["POST", `/scenes/${scene.id}/splitbyline/2`],
      ["POST", `/scenes/${scene.id}/splitbyposition/0.5`],
      ["POST", `/scenes/${scene.id}/mergenextscene`],
      ["GET", `/scenes/${scene.id}/hide`],
      ["GET", `/scenes/${scene.id}/show`],
      ["GET", `/scenes/${scene.id}/order/3`],
      ["GET", `/scenes/${scene.id}/type`],
      ["GET", `/scenes/${scene.id}/type/intro`],
      ["DELETE", `/scenes/${scene.id}/overscene`],
      ["POST", `/scenes/${scene.id}/duplicate`],
      ["POST", `/projects/${projectId}/storyboard`, {}],
    ] as [string, string, unknown?][]) {
      const res = await api(method, url, body, other);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.code).toBe("not_found");
      expect(JSON.stringify(res.body)).not.toContain("talk");
    }
    expect(await scenes()).toEqual(before);
  });

  it("refusals carry the rule's code", async () => {
    const all = await scenes();
    const scene = all[4];
    const expectRefusal = async (method: string, url: string, code: string, body?: unknown) => {
      const res = await api(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.code, `${method} ${url}`).toBe(code);
    };
    await expectRefusal("PUT", `/scenes/${scene.id}/trim`, "markers_cross", { trim_start: scene.end - 0.2, trim_end: scene.start + 0.2 });
    await expectRefusal("PUT", `/scenes/${scene.id}/trim`, "out_of_bounds", { trim_start: scene.start, trim_end: scene.end + 5 });
    await expectRefusal("POST", `/scenes/${scene.id}/splitbyposition/0`, "split_at_edge");
    await expectRefusal("POST", `/scenes/${scene.id}/splitbyposition/-1`, "split_at_edge");
    await expectRefusal("POST", `/scenes/${scene.id}/splitbyposition/abc`, "bad_request");
    await expectRefusal("POST", `/scenes/${scene.id}/splitbyline/2`, "split_needs_two_lines");
    await expectRefusal("GET", `/scenes/${scene.id}/order/first`, "bad_request");
    await expectRefusal("POST", `/scenes/${all[0].id}/mergenextscene`, "not_mergeable");
    await expectRefusal("POST", `/scenes/${all.at(-1).id}/mergenextscene`, "not_mergeable");
    await expectRefusal("PUT", `/scenes/${scene.id}`, "bad_request", { overscene_type: "pip_tl" });

    const third = (scene.trim_end - scene.trim_start) / 3;
    const lines = [0, 1, 2].map((i) => ({ start: scene.trim_start + i * third, end: scene.trim_start + (i + 1) * third, text: `line ${i + 1}` }));
    await api("PUT", `/scenes/${scene.id}`, { text: lines });
    await expectRefusal("POST", `/scenes/${scene.id}/splitbyposition/0.2`, "split_needs_no_text");
    await expectRefusal("POST", `/scenes/${scene.id}/splitbyline/1`, "split_at_edge");
    await expectRefusal("POST", `/scenes/${scene.id}/splitbyline/4`, "split_at_edge");
    await api("POST", `/scenes/${scene.id}/removelines`);
    expect(await scenes()).toHaveLength(all.length);
  });

  it("attributes round-trip: faces, punch-in, crop and volumes", async () => {
    const [, , scene] = await scenes();
    const faces = [
      { BoundingBox: { Left: 0.1, Top: 0.2, Width: 0.3, Height: 0.4 }, visibility: 1 },
      { BoundingBox: { Left: 0.5, Top: 0.1, Width: 0.2, Height: 0.2 }, visibility: 0 },
    ];
    const put = await api("PUT", `/scenes/${scene.id}`, { selected_faces: faces, punch_in: 2, crop: true, mediaAudio: "extraloud", musicType: "mainmusic" });
    expect(put.status).toBe(200);
    const expected = { selected_faces: faces, punch_in: 2, crop: true, mediaAudio: "extraloud", musicType: "mainmusic" };
    expect(put.body).toMatchObject(expected);
    expect((await api("GET", `/scenes/${scene.id}`)).body).toMatchObject(expected);
    // A partial update leaves the rest as it was.
    const partial = await api("PUT", `/scenes/${scene.id}`, { punch_in: 0, crop: false });
    expect(partial.body).toMatchObject({ ...expected, punch_in: 0, crop: false });
    expect((await api("PUT", `/scenes/${scene.id}`, { punch_in: 3 })).status).toBe(422);
    expect((await api("PUT", `/scenes/${scene.id}`, { selected_faces: [{ BoundingBox: { Left: 2, Top: 0, Width: 0.1, Height: 0.1 }, visibility: 1 }] })).status).toBe(422);
    expect((await api("PUT", `/scenes/${scene.id}`, { mediaAudio: "deafening" })).status).toBe(422);
    await api("PUT", `/scenes/${scene.id}`, { selected_faces: [], mediaAudio: "standard", musicType: "bgmstandard", punch_in: 1 });
  });

  it("trim: markers move inside the media and cannot cross", async () => {
    const [scene] = await scenes();
    const trimmed = await api("PUT", `/scenes/${scene.id}/trim`, { trim_start: scene.start + 0.1, trim_end: scene.end - 0.1 });
    expect(trimmed.status).toBe(200);
    expect(trimmed.body.trim_start).toBeCloseTo(scene.start + 0.1, 3);
    expect(trimmed.body.trim_start_raw - trimmed.body.trim_start).toBeCloseTo(scene.trim_start_raw - scene.trim_start, 3);
    expect((await api("PUT", `/scenes/${scene.id}/trim`, { trim_start: scene.end - 0.2, trim_end: scene.start + 0.2 })).status).toBe(400);
    expect((await api("PUT", `/scenes/${scene.id}/trim`, { trim_start: scene.start + 0.5, trim_end: scene.start + 0.5 })).status).toBe(400);
    expect((await api("PUT", `/scenes/${scene.id}/trim`, { trim_start: scene.start - 1, trim_end: scene.end })).status).toBe(400);
    expect((await api("PUT", `/scenes/${scene.id}/trim`, { trim_start: "x", trim_end: 1 })).status).toBe(422);
  });

  it("text lines: 35 characters pass, 36 are refused; removelines clears them", async () => {
    const [, scene] = await scenes();
    const ok = await api("PUT", `/scenes/${scene.id}`, { text: [{ start: scene.start, end: scene.end, text: "a".repeat(35) }] });
    expect(ok.body.text[0].text).toHaveLength(35);
    const long = await api("PUT", `/scenes/${scene.id}`, { text: [{ start: scene.start, end: scene.end, text: "a".repeat(36) }] });
    expect(long.status).toBe(422);
    expect(long.body.fields).toEqual({ "text.0.text": "too_long" });
    expect((await api("POST", `/scenes/${scene.id}/removelines`)).body.text).toEqual([]);
  });

  it("split by position, then merge back to the original", async () => {
    const before = await scenes();
    const scene = before[2];
    expect((await api("POST", `/scenes/${scene.id}/splitbyposition/0`)).status).toBe(400);
    expect((await api("POST", `/scenes/${scene.id}/splitbyposition/${scene.trim_end - scene.trim_start}`)).status).toBe(400);
    expect((await api("POST", `/scenes/${scene.id}/splitbyposition/abc`)).status).toBe(400);
    const half = (scene.trim_end - scene.trim_start) / 2;
    const split = await api("POST", `/scenes/${scene.id}/splitbyposition/${half}`);
    expect(split.status).toBe(200);
    const [a, b] = split.body.scenes;
    expect(a.trim_end).toBeCloseTo(scene.trim_start + half, 3);
    expect(b.trim_start).toBe(a.trim_end);
    const after = await scenes();
    expect(after).toHaveLength(before.length + 1);
    expect(after.map((s) => s.order)).toEqual(after.map((_, i) => i + 1));
    expect(after[3].id).toBe(b.id);

    const merged = await api("POST", `/scenes/${a.id}/mergenextscene`);
    expect(merged.body).toMatchObject({ id: scene.id, trim_start: scene.trim_start, trim_end: scene.trim_end });
    expect(await scenes()).toHaveLength(before.length);
    // Scenes made by the automatic cut do not meet: no merge across a removed silence.
    expect((await api("POST", `/scenes/${before[0].id}/mergenextscene`)).status).toBe(400);
  });

  it("split by line needs two lines; split by position needs none", async () => {
    const scene = (await scenes())[3];
    const third = (scene.trim_end - scene.trim_start) / 3;
    const lines = [0, 1, 2].map((i) => ({ start: scene.trim_start + i * third, end: scene.trim_start + (i + 1) * third, text: `line ${i + 1}` }));
    await api("PUT", `/scenes/${scene.id}`, { text: lines.slice(0, 1) });
    expect((await api("POST", `/scenes/${scene.id}/splitbyline/2`)).status).toBe(400);
    await api("PUT", `/scenes/${scene.id}`, { text: lines });
    expect((await api("POST", `/scenes/${scene.id}/splitbyposition/0.5`)).status).toBe(400);
    const split = await api("POST", `/scenes/${scene.id}/splitbyline/3`);
    expect(split.body.scenes.map((s: any) => s.text.map((l: any) => l.text))).toEqual([["line 1", "line 2"], ["line 3"]]);
  });

  it("hide, restore, change type, reorder and duplicate", async () => {
    const before = await scenes();
    const scene = before[1];
    expect((await api("GET", `/scenes/${scene.id}/hide`)).body.visibility).toBe(0);
    expect((await api("GET", `/scenes/${scene.id}/show`)).body.visibility).toBe(1);
    expect((await api("GET", `/scenes/${scene.id}/type/intro`)).body.type).toBe("intro");
    expect((await api("GET", `/scenes/${scene.id}/type/outro`)).body.type).toBe("outro");
    expect((await api("GET", `/scenes/${scene.id}/type`)).body.type).toBe("default");
    expect((await api("GET", `/scenes/${scene.id}/type/middle`)).status).toBe(400);

    const last = before.at(-1);
    const moved = await api("GET", `/scenes/${last.id}/order/1`);
    expect(moved.body.scenes[0].id).toBe(last.id);
    expect(moved.body.scenes.map((s: any) => s.order)).toEqual(before.map((_, i) => i + 1));

    const copy = await api("POST", `/scenes/${scene.id}/duplicate`);
    const [original, duplicate] = copy.body.scenes;
    expect(duplicate.order).toBe(original.order + 1);
    expect([duplicate.trim_start, duplicate.trim_end]).toEqual([original.trim_start, original.trim_end]);
    expect(await scenes()).toHaveLength(before.length + 1);
    expect((await api("GET", `/projects/${projectId}`)).body.scenes_count).toBe(before.length + 1);
  });
});

describe("storyboard-wide calls", () => {
  it("recreate rebuilds the scenes from the analysis: one per file with auto cut off, per stretch of speech with it on", async () => {
    const whole = await api("POST", `/projects/${projectId}/recreatestoryboard`, { autocutsilences: false, smoothcuts: true });
    expect(whole.body).toMatchObject({ autocutsilences: 0, smoothcuts: 1, scenes_count: 1 });
    const [single] = await scenes();
    expect(single.trim_start).toBe(0);
    const cut = await api("POST", `/projects/${projectId}/recreatestoryboard`, { autocutsilences: 1, smoothcuts: 0 });
    expect(cut.body.scenes_count).toBeGreaterThan(3);
    expect((await scenes()).every((s) => s.text.length === 0 && s.visibility === 1)).toBe(true);
  });

  it("reset volumes puts every scene back to standard and sets auto-duck", async () => {
    const [scene] = await scenes();
    await api("PUT", `/scenes/${scene.id}`, { mediaAudio: "loud", musicType: "bgmlow" });
    const reset = await api("GET", `/projects/${projectId}/reset/volumes?autoduck=false`);
    expect(reset.body.autoduck).toBe(0);
    expect((await scenes()).every((s) => s.mediaAudio === "standard" && s.musicType === "bgmstandard")).toBe(true);
    expect((await api("GET", `/projects/${projectId}/reset/volumes?autoduck=maybe`)).status).toBe(400);
  });

  it("settings: booleans become 1/0, and intro/outro modes clear when automatic music is off", async () => {
    const updated = await api("PUT", `/projects/${projectId}`, { mute_videos: true, render_notifications: false, autobgm: 0, intro_mode: "music" });
    expect(updated.body).toMatchObject({ mute_videos: 1, render_notifications: 0, intro_mode: "" });
    expect((await api("PUT", `/projects/${projectId}`, { autobgm: 1, intro_mode: "music" })).body.intro_mode).toBe("music");
    expect((await api("PUT", `/projects/${projectId}`, { name: "" })).status).toBe(422);
  });
});

describe("needs-render", () => {
  const project = async () => (await api("GET", `/projects/${projectId}`)).body;
  const clear = () => server.db.updateTable("projects").set({ needs_render: 0 }).where("id", "=", projectId).execute();

  it("is set by every scene edit and settings change, not by a rename, and cleared by a render request", async () => {
    const all = await scenes();
    const [a, b] = all;
    const half = (all[2].trim_end - all[2].trim_start) / 2;
    const lines = [{ start: b.trim_start, end: b.trim_end - 0.1, text: "one" }, { start: b.trim_end - 0.1, end: b.trim_end, text: "two" }];
    const edits: [string, string, unknown?][] = [
      ["PUT", `/scenes/${a.id}`, { mediaAudio: "low" }],
      ["PUT", `/scenes/${a.id}/trim`, { trim_start: a.start + 0.05, trim_end: a.end }],
      ["PUT", `/scenes/${b.id}`, { text: lines }],
      ["POST", `/scenes/${b.id}/splitbyline/2`],
      ["POST", `/scenes/${b.id}/removelines`],
      ["POST", `/scenes/${all[2].id}/splitbyposition/${half}`],
      ["POST", `/scenes/${all[2].id}/mergenextscene`],
      ["GET", `/scenes/${a.id}/hide`],
      ["GET", `/scenes/${a.id}/show`],
      ["GET", `/scenes/${a.id}/type/intro`],
      ["GET", `/scenes/${a.id}/type`],
      ["GET", `/scenes/${a.id}/order/2`],
      ["POST", `/scenes/${a.id}/duplicate`],
      ["PUT", `/projects/${projectId}`, { smoothcuts: 0 }],
      ["GET", `/projects/${projectId}/reset/volumes?autoduck=true`],
      ["POST", `/projects/${projectId}/recreatestoryboard`, { autocutsilences: 1, smoothcuts: 1 }],
    ];
    for (const [method, url, body] of edits) {
      await clear();
      const res = await api(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(200);
      expect((await project()).needs_render, `${method} ${url}`).toBe(1);
    }
    await clear();
    expect((await api("PUT", `/projects/${projectId}`, { name: "Renamed" })).body).toMatchObject({ name: "Renamed", needs_render: 0 });

    const [fresh] = await scenes();
    expect((await api("GET", `/scenes/${fresh.id}/hide`)).status).toBe(200);
    expect((await project()).needs_render).toBe(1);
    const render = await api("POST", `/projects/${projectId}/render`, { final: false });
    expect(render.body).toMatchObject({ status: "Rendering", needs_render: 0 });
    await waitFor(async () => ((await project()).status === "Preview Ready" ? true : undefined));
    expect((await project()).needs_render).toBe(0);
  });
});
