import { describe, expect, it } from "vitest";
import {
  canInsert,
  EMPTY_SELECTION,
  insertHint,
  isFullyProcessed,
  pickedSceneCount,
  toggleItem,
  toggleScene,
  type InsertMode,
} from "../../src/features/library/selection";

const insert: InsertMode = { kind: "insert", projectId: 1, order: 4 };
const overlay: InsertMode = { kind: "overlay", projectId: 1, order: 3, sceneId: 77 };
const ready = { id: 10, scenes_count: 5, raw_preview_render: 1 as const, progress: 100 };
const other = { id: 11, scenes_count: 2, raw_preview_render: 1 as const, progress: 100 };

describe("which library items can be picked (SPEC §5: only fully processed files)", () => {
  it("needs the raw preview rendered and the progress at 100", () => {
    expect(isFullyProcessed(ready)).toBe(true);
    expect(isFullyProcessed({ raw_preview_render: 0, progress: 100 })).toBe(false);
    expect(isFullyProcessed({ raw_preview_render: 1, progress: 99.9 })).toBe(false);
  });

  it("ignores a pick of an item or a scene still being processed", () => {
    const processing = { ...ready, progress: 40 };
    expect(toggleItem(EMPTY_SELECTION, processing, insert)).toEqual(EMPTY_SELECTION);
    expect(toggleScene(EMPTY_SELECTION, { id: 1, projectId: 10 }, processing, insert)).toEqual(EMPTY_SELECTION);
    expect(toggleScene(EMPTY_SELECTION, { id: 1, projectId: 10 }, { ...ready, raw_preview_render: 0 }, overlay)).toEqual(EMPTY_SELECTION);
  });
});

describe("whole items and single scenes exclude each other (SPEC §2)", () => {
  it("picking a whole item drops its scenes picked one by one, and keeps other items' scenes", () => {
    let s = toggleScene(EMPTY_SELECTION, { id: 1, projectId: 10 }, ready, insert);
    s = toggleScene(s, { id: 2, projectId: 10 }, ready, insert);
    s = toggleScene(s, { id: 3, projectId: 11 }, other, insert);
    s = toggleItem(s, ready, insert);
    expect(s.items).toEqual([{ id: 10, scenesCount: 5 }]);
    expect(s.scenes).toEqual([{ id: 3, projectId: 11 }]);
    expect(pickedSceneCount(s)).toBe(6);
  });

  it("picking a scene of a whole item unpicks the item", () => {
    let s = toggleItem(EMPTY_SELECTION, ready, insert);
    s = toggleItem(s, other, insert);
    s = toggleScene(s, { id: 1, projectId: 10 }, ready, insert);
    expect(s.items).toEqual([{ id: 11, scenesCount: 2 }]);
    expect(s.scenes).toEqual([{ id: 1, projectId: 10 }]);
  });

  it("a second toggle unpicks", () => {
    const s = toggleItem(EMPTY_SELECTION, ready, insert);
    expect(toggleItem(s, ready, insert)).toEqual(EMPTY_SELECTION);
    const t = toggleScene(EMPTY_SELECTION, { id: 1, projectId: 10 }, ready, insert);
    expect(toggleScene(t, { id: 1, projectId: 10 }, ready, insert)).toEqual(EMPTY_SELECTION);
  });
});

describe("overlay mode takes one scene (SPEC §2)", () => {
  it("replaces the picked scene with the new one, across items", () => {
    let s = toggleScene(EMPTY_SELECTION, { id: 1, projectId: 10 }, ready, overlay);
    s = toggleScene(s, { id: 9, projectId: 11 }, other, overlay);
    expect(s).toEqual({ items: [], scenes: [{ id: 9, projectId: 11 }] });
    expect(canInsert(s, overlay)).toBe(true);
  });

  it("does not pick whole items", () => {
    expect(toggleItem(EMPTY_SELECTION, ready, overlay)).toEqual(EMPTY_SELECTION);
  });

  it("can insert only with exactly one scene; a normal insert with anything", () => {
    expect(canInsert(EMPTY_SELECTION, overlay)).toBe(false);
    expect(canInsert(EMPTY_SELECTION, insert)).toBe(false);
    expect(canInsert(toggleItem(EMPTY_SELECTION, ready, insert), insert)).toBe(true);
    expect(canInsert({ items: [], scenes: [{ id: 1, projectId: 10 }, { id: 2, projectId: 10 }] }, overlay)).toBe(false);
  });
});

describe("where the scenes go (SPEC §2 Media library hint)", () => {
  it("says at the start for order 1", () => {
    expect(insertHint({ kind: "insert", projectId: 1, order: 1 })).toEqual({ kind: "start" });
  });
  it("says after scene N-1 otherwise", () => {
    expect(insertHint(insert)).toEqual({ kind: "after", scene: 3 });
  });
  it("says over scene N in overlay mode, N the scene's own order when known", () => {
    expect(insertHint(overlay)).toEqual({ kind: "over", scene: 3 });
    expect(insertHint(overlay, 5)).toEqual({ kind: "over", scene: 5 });
  });
});
