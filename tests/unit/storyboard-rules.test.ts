import { describe, expect, it } from "vitest";
import { canMergeNext, checkLines, insertionIndex, mergeNext, MIN_SCENE_SECONDS, overlayBackground, overlayOptions, reorder, splitByLine, splitByPosition, trim, type OverlayOptions, type SceneTimes } from "../../api/storyboard";

const scene = (over: Partial<SceneTimes> = {}): SceneTimes => ({
  media_file_id: 1,
  visibility: 1,
  start: 2,
  end: 8,
  trim_start: 2,
  trim_end: 8,
  trim_start_default: 2,
  trim_end_default: 8,
  text: [],
  ...over,
});
const lines = (...texts: [number, number, string][]) => texts.map(([start, end, text]) => ({ start, end, text }));

describe("trim", () => {
  it("moves both markers inside the scene's media", () => {
    expect(trim(scene(), 2.5, 7)).toEqual({ ok: true, value: { trim_start: 2.5, trim_end: 7 } });
  });
  it("refuses markers that cross, and equal markers", () => {
    expect(trim(scene(), 6, 5)).toEqual({ ok: false, refusal: "markers_cross" });
    expect(trim(scene(), 5, 5)).toEqual({ ok: false, refusal: "markers_cross" });
    expect(trim(scene(), 5, 5 + MIN_SCENE_SECONDS / 2).ok).toBe(false);
  });
  it("refuses markers outside the media", () => {
    expect(trim(scene(), 1.9, 7)).toEqual({ ok: false, refusal: "out_of_bounds" });
    expect(trim(scene(), 3, 8.1)).toEqual({ ok: false, refusal: "out_of_bounds" });
    expect(trim(scene(), Number.NaN, 7)).toEqual({ ok: false, refusal: "out_of_bounds" });
  });
});

describe("text lines", () => {
  it("take 35 characters and refuse 36", () => {
    expect(checkLines(lines([0, 1, "a".repeat(35)])).ok).toBe(true);
    expect(checkLines(lines([0, 1, "a".repeat(36)]))).toEqual({ ok: false, refusal: "line_too_long" });
  });
  it("count characters, not bytes", () => {
    expect(checkLines(lines([0, 1, "ç".repeat(35)])).ok).toBe(true);
  });
});

describe("split by position", () => {
  it("cuts a scene without text into two that meet", () => {
    const result = splitByPosition(scene(), 2);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [a, b] = result.value;
    expect([a.trim_start, a.trim_end, b.trim_start, b.trim_end]).toEqual([2, 4, 4, 8]);
    expect(a.trim_end_default).toBe(b.trim_start_default);
  });
  it("refuses at 0 and at the end", () => {
    expect(splitByPosition(scene(), 0)).toEqual({ ok: false, refusal: "split_at_edge" });
    expect(splitByPosition(scene(), 6)).toEqual({ ok: false, refusal: "split_at_edge" });
    expect(splitByPosition(scene(), -1)).toEqual({ ok: false, refusal: "split_at_edge" });
  });
  it("refuses a scene with text", () => {
    expect(splitByPosition(scene({ text: lines([2, 3, "hi"]) }), 1)).toEqual({ ok: false, refusal: "split_needs_no_text" });
  });
});

describe("split by line", () => {
  const talk = scene({ text: lines([2, 3.5, "first"], [3.6, 5, "second"], [5.2, 8, "third"]) });
  it("cuts before the chosen line and shares the lines out", () => {
    const result = splitByLine(talk, 3);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [a, b] = result.value;
    expect(a.text.map((l) => l.text)).toEqual(["first", "second"]);
    expect(b.text.map((l) => l.text)).toEqual(["third"]);
    expect([a.trim_end, b.trim_start]).toEqual([5.2, 5.2]);
  });
  it("needs more than one line", () => {
    expect(splitByLine(scene({ text: lines([2, 3, "only"]) }), 2)).toEqual({ ok: false, refusal: "split_needs_two_lines" });
  });
  it("refuses the first line and lines that do not exist", () => {
    expect(splitByLine(talk, 1)).toEqual({ ok: false, refusal: "split_at_edge" });
    expect(splitByLine(talk, 4)).toEqual({ ok: false, refusal: "split_at_edge" });
  });
});

describe("merge next", () => {
  it("is offered when the trims' defaults meet on the same media file", () => {
    const split = splitByPosition(scene(), 3);
    if (!split.ok) throw new Error("split refused");
    const [a, b] = split.value;
    expect(canMergeNext(a, b, false)).toBe(true);
    const merged = mergeNext(a, b);
    expect(merged.ok && [merged.value.trim_start, merged.value.trim_end]).toEqual([2, 8]);
  });
  it("is not offered across different media files", () => {
    expect(canMergeNext(scene({ trim_end_default: 5 }), scene({ media_file_id: 2, trim_start_default: 5 }), false)).toBe(false);
  });
  it("is not offered when the defaults do not meet", () => {
    expect(canMergeNext(scene({ trim_end_default: 5 }), scene({ trim_start_default: 5.5 }), false)).toBe(false);
  });
  it("counts hidden scenes only while hidden scenes are on view", () => {
    const a = scene({ trim_end_default: 5 });
    const hidden = scene({ trim_start_default: 5, visibility: 0 });
    expect(canMergeNext(a, hidden, false)).toBe(false);
    expect(canMergeNext(a, hidden, true)).toBe(true);
    expect(mergeNext(a, hidden, false)).toEqual({ ok: false, refusal: "not_mergeable" });
  });
});

describe("reorder", () => {
  const items = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
  it("moves a scene to a 1-based position", () => {
    expect(reorder(items, 4, 1).map((i) => i.id)).toEqual([4, 1, 2, 3]);
    expect(reorder(items, 1, 3).map((i) => i.id)).toEqual([2, 3, 1, 4]);
  });
  it("clamps positions past either end and ignores unknown ids", () => {
    expect(reorder(items, 2, 99).map((i) => i.id)).toEqual([1, 3, 4, 2]);
    expect(reorder(items, 3, 0).map((i) => i.id)).toEqual([3, 1, 2, 4]);
    expect(reorder(items, 9, 1).map((i) => i.id)).toEqual([1, 2, 3, 4]);
  });
});

describe("overlay background", () => {
  it("hides the main scene for autozoom and fullscreen, shows it for picture-in-picture", () => {
    expect(overlayBackground("autozoom")).toBe(1);
    expect(overlayBackground("fullscrn")).toBe(1);
    for (const pip of ["pip_tl", "pip_tr", "pip_bl", "pip_br"] as const) expect(overlayBackground(pip)).toBe(0);
  });
});

describe("overlay options", () => {
  const current: OverlayOptions = { overscene_type: "pip_br", overscene_fade: 1, overscene_overflow: 0, overscene_bg: 0 };
  it("takes the background of a new type", () => {
    expect(overlayOptions(current, { overscene_type: "fullscrn" })).toEqual({ ...current, overscene_type: "fullscrn", overscene_bg: 1 });
    expect(overlayOptions({ ...current, overscene_type: "autozoom", overscene_bg: 1 }, { overscene_type: "pip_tl" }).overscene_bg).toBe(0);
  });
  it("keeps a background given with the type, and the other options as they were", () => {
    expect(overlayOptions(current, { overscene_type: "autozoom", overscene_bg: 0 }).overscene_bg).toBe(0);
    expect(overlayOptions(current, { overscene_bg: 1 })).toEqual({ ...current, overscene_bg: 1 });
    expect(overlayOptions(current, { overscene_overflow: 1 })).toEqual({ ...current, overscene_overflow: 1 });
  });
});

describe("insertion index", () => {
  it("puts order 1 at the start and an order past the end at the end", () => {
    expect(insertionIndex(5, 1)).toBe(0);
    expect(insertionIndex(5, 3)).toBe(2);
    expect(insertionIndex(5, 6)).toBe(5);
    expect(insertionIndex(5, 99)).toBe(5);
    expect(insertionIndex(0, 1)).toBe(0);
    expect(insertionIndex(5, 0)).toBe(0);
  });
});
