import { describe, expect, it } from "vitest";
import type { Scene } from "../../api/scenes";
import type { Word } from "../../api/subtitles";
import { cutsOf, needsServer, selectedRuns, transcriptItems } from "../../src/features/storyboard/transcript-model";

/** Three scenes of media file 1 (0–4 s, 4–6 s removed, 6–10 s) and one silent still. */
const scene = (id: number, over: Partial<Scene>): Scene =>
  ({ id, project_id: 1, order: id, media_file_id: 1, visibility: 1, start: 0, end: 10, trim_start: 0, trim_end: 10, trim_start_default: 0, trim_end_default: 10, trim_start_raw: 0, trim_end_raw: 10, text: [], ...over }) as Scene;
const scenes = [
  scene(1, { start: 0, end: 4, trim_start: 0.2, trim_end: 4, trim_start_raw: 0.2 }),
  scene(2, { start: 4, end: 6, trim_start: 4, trim_end: 6, visibility: 0 }),
  scene(3, { start: 6, end: 10, trim_start: 6, trim_end: 9.8, trim_start_raw: 6 }),
  scene(4, { media_file_id: 2 }),
];
const w = (start: number, text: string): Word => ({ start, end: start + 0.4, text, confidence: 0.9 });
const words = new Map<number, Word[]>([[1, [w(0.5, "one"), w(1.5, "two"), w(2.5, "three"), w(4.5, "gone"), w(6.5, "four"), w(7.5, "five"), w(9.5, "six")]]]);

describe("transcriptItems", () => {
  it("lists the shown scenes' words in order, a removed scene with words as one cut, silent scenes not at all", () => {
    const items = transcriptItems(scenes, words);
    expect(items.map((i) => (i.kind === "word" ? i.word.text : `[${i.text}]`))).toEqual(["one", "two", "three", "[gone]", "four", "five", "six"]);
    // a word's place in the raw preview: the scene's raw start plus the word's offset in the scene
    expect(items.find((i) => i.kind === "word" && i.word.text === "two")).toMatchObject({ rawStart: 1.5 });
  });
});

describe("cutsOf", () => {
  const items = transcriptItems(scenes, words);
  const ids = (...texts: string[]) => new Set(items.filter((i) => i.kind === "word" && texts.includes(i.word.text)).map((i) => i.id));

  it("cuts words inside one scene from the first one's start to the last one's end", () => {
    expect(cutsOf(scenes, items, ids("two", "three"))).toEqual([{ sceneId: 1, from: 1.5, to: 2.9 }]);
  });

  it("keeps separate runs apart", () => {
    expect(selectedRuns(items, ids("one", "three")).map((run) => run.length)).toEqual([1, 1]);
    expect(cutsOf(scenes, items, ids("one", "three"))).toEqual([
      { sceneId: 1, from: 0.5, to: 0.9 },
      { sceneId: 1, from: 2.5, to: 2.9 },
    ]);
  });

  it("a run across scenes goes to the scenes' edges and skips the removed one between", () => {
    const cuts = cutsOf(scenes, items, ids("three", "four"));
    expect(cuts).toEqual([
      { sceneId: 1, from: 2.5, to: 4 },
      { sceneId: 3, from: 6, to: 6.9 },
    ]);
    expect(needsServer(scenes, cuts)).toBe(true);
  });

  it("all the words of a scene cut the scene whole, pauses included: a hide, which works offline", () => {
    const cuts = cutsOf(scenes, items, ids("four", "five", "six"));
    expect(cuts).toEqual([{ sceneId: 3, from: 6, to: 9.8 }]);
    expect(needsServer(scenes, cuts)).toBe(false);
    const both = cutsOf(scenes, items, ids("one", "two", "three", "four", "five", "six"));
    expect(both).toEqual([
      { sceneId: 1, from: 0.2, to: 4 },
      { sceneId: 3, from: 6, to: 9.8 },
    ]);
    expect(needsServer(scenes, both)).toBe(false);
  });
});
