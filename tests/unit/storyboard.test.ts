import { describe, expect, it } from "vitest";
import { buildScenes, highlightsOf, IMAGE_SCENE_SECONDS, type MediaForScenes } from "../../server/domain/storyboard";
import { applySettingsRules, DEFAULT_SETTINGS, displayedProgress } from "../../server/domain/project-settings";

const talk: MediaForScenes = {
  id: 1,
  kind: "video",
  durationSeconds: 20,
  speech: [
    { start: 0.5, end: 4 },
    { start: 5.2, end: 9.9 },
    { start: 12, end: 12.1 },
    { start: 13, end: 19.5 },
  ],
  rawOffset: 0,
};

describe("the first storyboard", () => {
  it("makes one scene per kept stretch of speech, in media order, skipping slivers", () => {
    const scenes = buildScenes([talk], true);
    expect(scenes.map((s) => [s.start, s.end])).toEqual([
      [0.5, 4],
      [5.2, 9.9],
      [13, 19.5],
    ]);
    expect(scenes.map((s) => s.order)).toEqual([1, 2, 3]);
    expect(scenes.every((s) => s.trimStart === s.start && s.trimEnd === s.end)).toBe(true);
  });

  it("keeps each file whole when auto cut is off", () => {
    expect(buildScenes([talk], false).map((s) => [s.start, s.end])).toEqual([[0, 20]]);
  });

  it("turns an image into a still scene and keeps a file without speech whole", () => {
    const still: MediaForScenes = { id: 2, kind: "image", durationSeconds: 0, rawOffset: 20 };
    const music: MediaForScenes = { id: 3, kind: "audio", durationSeconds: 30, speech: [], rawOffset: 24 };
    const scenes = buildScenes([talk, still, music], true);
    expect(scenes.slice(3).map((s) => [s.mediaFileId, s.start, s.end])).toEqual([
      [2, 0, IMAGE_SCENE_SECONDS],
      [3, 0, 30],
    ]);
    expect(scenes.map((s) => s.order)).toEqual([1, 2, 3, 4, 5]);
  });

  it("places raw trims at the file's offset inside the raw preview", () => {
    const second = { ...talk, id: 9, rawOffset: 20 };
    const [first] = buildScenes([second], true);
    expect([first!.trimStartRaw, first!.trimEndRaw]).toEqual([20.5, 24]);
  });

  it("counts the seconds removed and the jump cuts", () => {
    const scenes = buildScenes([talk], true);
    expect(highlightsOf([talk], scenes)).toEqual({ removedLength: 5.3, jumpCutsCreated: 2, outputSeconds: 14.7 });
  });
});

describe("project settings rules (SPEC §5)", () => {
  it("clears the intro and outro modes when automatic music is off", () => {
    expect(applySettingsRules({ ...DEFAULT_SETTINGS, autobgm: 0, intro_mode: "music", outro_mode: "silent" })).toMatchObject({ intro_mode: "", outro_mode: "" });
    expect(applySettingsRules({ ...DEFAULT_SETTINGS, autobgm: 1, intro_mode: "music" }).intro_mode).toBe("music");
  });
});

describe("the preview's progress (SPEC §2)", () => {
  it("is the mean of both progresses while the raw preview is under 100, then the working progress", () => {
    expect(displayedProgress(40, 60)).toBe(50);
    expect(displayedProgress(40, 100)).toBe(40);
    expect(displayedProgress(0, 0)).toBe(1);
  });
});
