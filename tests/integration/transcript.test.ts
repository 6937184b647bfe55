import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_POCKETSPHINX } from "../../server/speech/pocketsphinx";
import { jsonApi, listen, processedTalkProject, startTestServer, type TestServer } from "./helpers";
import { requireTool } from "./spoken-talk";
import type { Scene } from "../../api/scenes";
import type { Word } from "../../api/subtitles";

/**
 * Issue 14, edit by transcript: GET /projects/{id}/words gives the words pocketsphinx recognised in the
 * project's file; POST /scenes/{id}/cutrange cuts two of them out of a scene with text lines (a split at the
 * word edges, the middle hidden, the lines divided), and showing the cut and merging brings the scene back.
 */

type SceneJson = Scene;

let server: TestServer;
let base: string;
let token: string;
let otherToken: string;
let projectId: number;
const api = jsonApi(() => base, () => token);
const scenesOf = async () => (await api("POST", `/projects/${projectId}/storyboard?offset=0&limit=250`, {})).body.timeline.scenes as SceneJson[];
const middle = (w: Word) => (w.start + w.end) / 2;

beforeAll(async () => {
  requireTool(DEFAULT_POCKETSPHINX.binary, "pocketsphinx pocketsphinx-en-us");
  server = await startTestServer({ STT: "on" });
  base = await listen(server);
  token = (await server.signUp()).token;
  otherToken = (await server.signUp()).token;
  projectId = await processedTalkProject(base, token, "Transcript talk");
}, 240_000);
afterAll(() => server?.close());

describe("GET /projects/{id}/words", () => {
  it("answers the recognised words of the project's file, in its times, to its owner only", async () => {
    const res = await api("GET", `/projects/${projectId}/words`);
    expect(res.status).toBe(200);
    const scenes = await scenesOf();
    expect(res.body.media).toHaveLength(1);
    const [file] = res.body.media as { media_file_id: number; language: string; draft: number; words: Word[] }[];
    expect(file).toMatchObject({ media_file_id: scenes[0]!.media_file_id, language: "en-US", draft: 1 });
    expect(file!.words.length).toBeGreaterThan(5);
    for (const w of file!.words) {
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.text.trim()).not.toBe("");
      // the engine's markers are cleaned out
      expect(w.text).not.toMatch(/<s>|<sil>|\[NOISE\]|\(\d\)/);
    }

    expect((await api("GET", `/projects/${projectId}/words`, undefined, otherToken)).status).toBe(404);
    expect((await api("GET", `/projects/999999/words`)).status).toBe(404);
  });
});

describe("POST /scenes/{id}/cutrange", () => {
  it("cuts two words out of a scene with text, and restoring merges it back", async () => {
    const words = ((await api("GET", `/projects/${projectId}/words`)).body.media[0].words as Word[]).slice().sort((a, b) => a.start - b.start);
    const before = await scenesOf();
    // A shown scene with text and at least four words inside its trim: cut its 2nd and 3rd words.
    const target = before.find((s) => s.visibility === 1 && s.text.length > 0 && words.filter((w) => middle(w) >= s.trim_start && middle(w) < s.trim_end).length >= 4)!;
    expect(target).toBeDefined();
    const inside = words.filter((w) => middle(w) >= target.trim_start && middle(w) < target.trim_end);
    const [, first, second] = inside as [Word, Word, Word];

    const res = await api("POST", `/scenes/${target.id}/cutrange`, { from: first.start, to: second.end });
    expect(res.status).toBe(200);
    const parts = res.body.scenes as SceneJson[];
    expect(parts).toHaveLength(3);
    const [head, cut, tail] = parts as [SceneJson, SceneJson, SceneJson];
    expect(head).toMatchObject({ id: target.id, visibility: 1, start: target.start, trim_start: target.trim_start, trim_end: first.start, trim_end_default: first.start });
    expect(cut).toMatchObject({ visibility: 0, trim_start: first.start, trim_end: second.end });
    expect(tail).toMatchObject({ visibility: 1, trim_start: second.end, trim_end: target.trim_end, end: target.end });
    // the raw preview's times move with the media's
    expect(cut.trim_start_raw - cut.trim_start).toBeCloseTo(target.trim_start_raw - target.trim_start, 3);
    // lines are divided at the cut, 35 characters at most, each inside its part
    for (const part of parts) {
      for (const line of part.text) {
        expect([...line.text].length).toBeLessThanOrEqual(35);
        expect(line.start).toBeGreaterThanOrEqual(part.start - 1e-6);
        expect(line.end).toBeLessThanOrEqual(part.end + 1e-6);
      }
    }
    expect(cut.text.map((l) => l.text).join(" ")).toBe(`${first.text} ${second.text}`);

    const after = await scenesOf();
    expect(after).toHaveLength(before.length + 2);
    expect(after.map((s) => s.order)).toEqual(after.map((_, i) => i + 1));
    const at = after.findIndex((s) => s.id === target.id);
    expect(after.slice(at, at + 3).map((s) => s.id)).toEqual(parts.map((p) => p.id));
    expect((await api("GET", `/projects/${projectId}`)).body.needs_render).toBe(1);

    // Restore: show the cut, then merge the three parts back into one.
    expect((await api("GET", `/scenes/${cut.id}/show`)).status).toBe(200);
    expect((await api("POST", `/scenes/${head.id}/mergenextscene`)).status).toBe(200);
    const merged = await api("POST", `/scenes/${head.id}/mergenextscene`);
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ id: target.id, visibility: 1, start: target.start, end: target.end, trim_start: target.trim_start, trim_end: target.trim_end });
    expect(await scenesOf()).toHaveLength(before.length);
  });

  it("refuses an empty cut, and another user's scene", async () => {
    const [scene] = await scenesOf();
    const empty = await api("POST", `/scenes/${scene!.id}/cutrange`, { from: scene!.trim_start + 0.1, to: scene!.trim_start + 0.1 });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe("cut_empty");
    const theirs = await api("POST", `/scenes/${scene!.id}/cutrange`, { from: scene!.trim_start, to: scene!.trim_end }, otherToken);
    expect(theirs.status).toBe(404);
    expect((await scenesOf())[0]).toMatchObject({ id: scene!.id, visibility: 1 });
  });
});
