import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_POCKETSPHINX } from "../../server/speech/pocketsphinx";
import { readSrt, readVtt } from "../../server/speech/subtitle-files";
import { bearer, jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { requireTool } from "./spoken-talk";
import { tusUpload } from "./tus";

/**
 * Issue 14: a project made from a spoken file gets subtitle lines from speech recognition (the local engine,
 * pocketsphinx, on tests/fixtures/talk.mp4, espeak-ng sentences); a language no engine knows completes all
 * the same, with no lines and the reason on the project.
 */

const TALK = path.resolve(__dirname, "../fixtures/talk.mp4");

let server: TestServer;
let base: string;
let token: string;
let englishId: number;
const setPlan = (email: string, plan: string) => server.db.updateTable("users").set({ plan_id: plan }).where("email", "=", email).execute();
const api = jsonApi(() => base, () => token);

interface Line {
  start: number;
  end: number;
  text: string;
}

/** The project as first seen Preview Ready, before its subtitles (recognised after the preview, issue 14). */
const atPreview = new Map<number, { subtitles_pending: number; scenes: { text: Line[] }[] }>();

async function talkProject(name: string, locale: string): Promise<number> {
  const uploaded = await tusUpload(base, token, TALK, { name: `${name}.mp4` });
  const media = await api("POST", "/library", { media_file: uploaded.id, name: `${name}.mp4`, locale, has_speech: 1 });
  expect(media.status).toBe(201);
  const created = await api("POST", "/createproject", { name, locale, style: "video", media: [media.body.media_file.id] });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  await waitFor(async () => {
    const body = (await api("GET", `/projects/${id}`)).body;
    if (body.status === "Failed") throw new Error(`project ${name} failed`);
    if (body.status === "Preview Ready" && !atPreview.has(id)) atPreview.set(id, { subtitles_pending: body.subtitles_pending, scenes: await scenesOf(id) });
    return body.status === "Preview Ready" && !body.subtitles_pending ? true : undefined;
  }, 180_000, 50);
  return id;
}

const scenesOf = async (id: number) =>
  (await api("POST", `/projects/${id}/storyboard`, {})).body.timeline.scenes as { start: number; end: number; trim_start: number; trim_end: number; text: Line[] }[];

beforeAll(async () => {
  requireTool(DEFAULT_POCKETSPHINX.binary, "pocketsphinx pocketsphinx-en-us");
  server = await startTestServer({ STT: "on" });
  base = await listen(server);
  const me = await server.signUp();
  token = me.token;
  await setPlan(me.email, "starter_month");
});
afterAll(() => server?.close());

describe("subtitles from speech", () => {
  it("fills an English talk's scenes with draft caption lines from pocketsphinx and counts them", async () => {
    const id = await talkProject("English talk", "en-US");
    englishId = id;
    // The preview did not wait for speech recognition: Preview Ready came first, without lines, marked pending.
    expect(atPreview.get(id)).toMatchObject({ subtitles_pending: 1 });
    expect(atPreview.get(id)!.scenes.every((s) => s.text.length === 0)).toBe(true);
    const project = (await api("GET", `/projects/${id}`)).body;
    expect(project.subtitles_unavailable).toBeNull();
    expect(project.subtitles_draft).toBe(1);

    const scenes = await scenesOf(id);
    const lines = scenes.flatMap((s) => s.text.map((line) => ({ line, scene: s })));
    expect(lines.length).toBeGreaterThan(3);
    for (const { line, scene } of lines) {
      expect([...line.text].length).toBeLessThanOrEqual(35);
      expect(line.text.trim()).toBe(line.text);
      expect(line.end).toBeGreaterThan(line.start);
      // Clipped to the scene it belongs to.
      expect(line.start).toBeGreaterThanOrEqual(scene.start - 1e-6);
      expect(line.end).toBeLessThanOrEqual(scene.end + 1e-6);
    }
    // Recognised words of the script (a draft gets many wrong, but not all).
    const text = lines.map(({ line }) => line.text.toLowerCase()).join(" ");
    expect(text).toMatch(/\b(the|and|to|of|a)\b/);

    const highlights = (await api("GET", `/projects/${id}/highlights`)).body;
    expect(highlights.subtitlesLinesCount).toBe(lines.filter(({ line, scene }) => line.end > scene.trim_start && line.start < scene.trim_end).length);
    expect(highlights.subtitlesLinesCount).toBeGreaterThan(0);
  }, 240_000);

  it("fills lines that come after Preview Ready only into scenes without lines, keeping what the person wrote, once", async () => {
    const rows = () => server.db.selectFrom("scenes").select(["id", "text"]).where("project_id", "=", englishId).where("parent_scene_id", "is", null).orderBy("order").execute();
    const original = await rows();
    const withLines = original.filter((s) => (JSON.parse(s.text) as Line[]).length > 0);
    expect(withLines.length).toBeGreaterThan(1);
    const mine = withLines[0]!;
    const first = (JSON.parse(mine.text) as Line[])[0]!;
    const written = [{ start: first.start, end: first.end, text: "My own words" }];
    // As if the words came after this storyboard was made: no lines, one scene written by hand meanwhile, pending.
    await server.db.updateTable("scenes").set({ text: "[]" }).where("project_id", "=", englishId).execute();
    await server.db.updateTable("scenes").set({ text: JSON.stringify(written) }).where("id", "=", mine.id).execute();
    await server.db.updateTable("projects").set({ subtitles_pending: 1, subtitles_lines_count: 0 }).where("id", "=", englishId).execute();
    const before = (await api("GET", `/projects/${englishId}`)).body;
    expect(before.subtitles_pending).toBe(1);

    const job = await server.queue.enqueue("transcribe", { projectId: englishId }, { group: `project:${englishId}` });
    expect(job.created).toBe(true);
    const after = await waitFor(async () => {
      const body = (await api("GET", `/projects/${englishId}`)).body;
      return body.subtitles_pending === 0 ? body : undefined;
    }, 60_000);
    // The apps' sync sees the project change and reloads its scenes.
    expect(after.updated_at > before.updated_at).toBe(true);
    const filled = await rows();
    expect(JSON.parse(filled.find((s) => s.id === mine.id)!.text)).toEqual(written);
    for (const scene of filled) if (scene.id !== mine.id) expect(scene.text).toBe(original.find((s) => s.id === scene.id)!.text);
    const shown = await scenesOf(englishId);
    const counted = shown.flatMap((s) => s.text.filter((line) => line.end > s.trim_start && line.start < s.trim_end)).length;
    expect((await api("GET", `/projects/${englishId}/highlights`)).body.subtitlesLinesCount).toBe(counted);

    // Once filled, a run again (a kill before the job was marked done) changes nothing.
    await server.db.updateTable("scenes").set({ text: "[]" }).where("id", "=", withLines[1]!.id).execute();
    await server.queue.enqueue("transcribe", { projectId: englishId }, { group: `project:${englishId}` });
    await waitFor(async () => ((await server.queue.get(`transcribe:projectId=${englishId}`))?.status === "done" ? true : undefined), 30_000);
    expect((await rows()).find((s) => s.id === withLines[1]!.id)!.text).toBe("[]");
    await server.db.updateTable("scenes").set({ text: withLines[1]!.text }).where("id", "=", withLines[1]!.id).execute();
  }, 120_000);

  it("completes a German talk with no engine for German: no lines, and the reason on the project", async () => {
    const id = await talkProject("German talk", "de-DE");
    const project = (await api("GET", `/projects/${id}`)).body;
    expect(project.status).toBe("Preview Ready");
    expect(project.subtitles_unavailable).toEqual({ reason: "no_engine_for_language", language: "de-DE" });
    expect(project.subtitles_draft).toBe(0);
    const scenes = await scenesOf(id);
    expect(scenes.length).toBeGreaterThan(0);
    expect(scenes.every((s) => s.text.length === 0)).toBe(true);
    expect((await api("GET", `/projects/${id}/highlights`)).body.subtitlesLinesCount).toBe(0);
  }, 240_000);
});

describe("subtitle tracks of the players (SPEC §2 preview, §6 share page)", () => {
  it("writes the preview render's track beside it, with the lines the highlights count", async () => {
    const project = (await api("GET", `/projects/${englishId}`)).body;
    expect(project.subtitles_track_url).toMatch(/^\/api\/v1\/files\/projects\/\d+\/\d+\/preview-\d+\.vtt\?expires=\d+&signature=/);
    const res = await fetch(new URL(project.subtitles_track_url, base));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/vtt");
    const cues = readVtt(await res.text());
    expect(cues.length).toBe((await api("GET", `/projects/${englishId}/highlights`)).body.subtitlesLinesCount);
    expect(cues.at(-1)!.end).toBeLessThanOrEqual(project.duration_out_seconds + 0.01);
  });

  it("lists the final render's track on its share page, and only that render's", async () => {
    expect((await api("POST", `/projects/${englishId}/render`, { final: 1, tier: 1 })).status).toBe(200);
    const finished = await waitFor(async () => {
      const body = (await api("GET", `/projects/${englishId}`)).body;
      if (body.status === "Failed") throw new Error("render failed");
      return body.status === "Render Ready" && !body.is_queued ? body : undefined;
    }, 150_000);
    const shared = (await api("PUT", `/projects/${englishId}/share`, { privacy: "unlisted" })).body;
    const page = (await (await fetch(`${base}/api/v1/share/${shared.share_token}`)).json()) as { tracks: { locale: string; label: string; url: string }[] };
    expect(page.tracks).toHaveLength(1);
    expect(page.tracks[0]).toMatchObject({ locale: "en-US" });
    expect(page.tracks[0]!.label).toMatch(/English/);
    const track = await fetch(new URL(page.tracks[0]!.url, base));
    expect(track.status).toBe(200);
    expect(readVtt(await track.text()).length).toBe((await api("GET", `/projects/${englishId}/highlights`)).body.subtitlesLinesCount);
    // The preview's track went with the preview render.
    const folder = path.join(server.config.storeDir, path.dirname(new URL(finished.export_url, base).pathname.replace(/^\/api\/v1\/files\//, "")));
    expect(fs.readdirSync(folder).filter((n) => n.endsWith(".vtt") && n.startsWith("preview-"))).toEqual([]);
    // Editable again for the tests below.
    expect((await api("GET", `/projects/${englishId}/reopen`)).body.status).toBe("Preview Ready");
  }, 200_000);
});

describe("the subtitles link (SPEC §7 subtitles)", () => {
  const link = (id: number, as: string | undefined, query = "") =>
    fetch(`${base}/api/v1/projects/${id}/subtitles${query}`, { redirect: "manual", headers: { accept: "application/json", ...(as ? bearer(as) : {}) } });

  it("hands the owner a signed WebVTT link named after the project, whose cues are the shown scenes' lines in the edit's time", async () => {
    const res = await link(englishId, token);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { url: string; filename: string; expires_at: string };
    expect(answer.filename).toBe("English talk.vtt");
    expect(answer.url).not.toContain(token);
    const file = await fetch(new URL(answer.url, base));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain('filename="English talk.vtt"');
    const cues = readVtt(await file.text());
    const highlights = (await api("GET", `/projects/${englishId}/highlights`)).body;
    expect(cues.length).toBe(highlights.subtitlesLinesCount);
    const project = (await api("GET", `/projects/${englishId}`)).body;
    for (const [i, cue] of cues.entries()) {
      expect(cue.end).toBeGreaterThan(cue.start);
      expect(cue.end).toBeLessThanOrEqual(project.duration_out_seconds + 0.01);
      if (i > 0) expect(cue.start).toBeGreaterThanOrEqual(cues[i - 1]!.start);
    }
    // The same cues as SRT.
    const srt = (await (await link(englishId, token, "?format=srt")).json()) as { url: string; filename: string };
    expect(srt.filename).toBe("English talk.srt");
    expect(readSrt(await (await fetch(new URL(srt.url, base))).text())).toEqual(cues);
    expect((await link(englishId, token, "?format=doc")).status).toBe(422);
  });

  it("follows an edit: lines taken off a scene leave the file", async () => {
    const scenes = await scenesOf(englishId);
    const withLines = (scenes as unknown as { id: number; text: Line[] }[]).find((s) => s.text.length > 0)!;
    const before = readVtt(await (await fetch(new URL(((await (await link(englishId, token)).json()) as { url: string }).url, base))).text());
    expect((await api("PUT", `/scenes/${withLines.id}`, { text: [] })).status).toBe(200);
    const after = readVtt(await (await fetch(new URL(((await (await link(englishId, token)).json()) as { url: string }).url, base))).text());
    expect(after.length).toBe(before.length - withLines.text.length);
    expect(after.map((c) => c.text)).not.toContain(withLines.text[0]!.text);
  });

  it("is 404 for another user, 401 without a bearer, no_subtitles without lines, and upgrade_required on the free plan", async () => {
    const other = await server.signUp();
    await setPlan(other.email, "starter_month");
    const theirs = await link(englishId, other.token);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toMatchObject({ code: "not_found" });
    expect((await link(englishId, undefined)).status).toBe(401);

    // A free user's German talk (no engine, no lines), then a line typed in by hand.
    const free = await server.signUp();
    const previous = token;
    token = free.token;
    try {
      const id = await talkProject("Free talk", "de-DE");
      const none = await link(id, free.token);
      expect(none.status).toBe(404);
      expect(await none.json()).toMatchObject({ code: "no_subtitles" });
      const scene = (await scenesOf(id))[0] as unknown as { id: number; trim_start: number };
      expect((await api("PUT", `/scenes/${scene.id}`, { text: [{ start: scene.trim_start, end: scene.trim_start + 1, text: "Hallo zusammen" }] })).status).toBe(200);
      const refused = await link(id, free.token);
      expect(refused.status).toBe(402);
      expect(await refused.json()).toMatchObject({ code: "upgrade_required" });
    } finally {
      token = previous;
    }
  }, 240_000);
});

describe("with speech recognition turned off (STT=off)", () => {
  let off: TestServer;
  let offBase: string;
  let offToken: string;
  beforeAll(async () => {
    off = await startTestServer();
    offBase = await listen(off);
    offToken = (await off.signUp()).token;
  });
  afterAll(() => off?.close());

  it("says so on the project instead of a silent 0 lines", async () => {
    const offApi = jsonApi(() => offBase, () => offToken);
    const uploaded = await tusUpload(offBase, offToken, TALK, { name: "talk.mp4" });
    const media = await offApi("POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 });
    const id = (await offApi("POST", "/createproject", { name: "Off", locale: "en-US", style: "video", media: [media.body.media_file.id] })).body.id as number;
    const project = await waitFor(async () => {
      const body = (await offApi("GET", `/projects/${id}`)).body;
      return body.status === "Preview Ready" && !body.subtitles_pending ? body : undefined;
    }, 180_000);
    expect(project.subtitles_unavailable).toEqual({ reason: "speech_off", language: "en-US" });
  }, 240_000);
});
