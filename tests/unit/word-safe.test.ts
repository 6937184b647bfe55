import { describe, expect, it } from "vitest";
import { fillerPieces, wordSafeSpan, wordSafeSpans, wordSafeTrimUpdates } from "../../server/domain/word-safe";
import { respectWords } from "../../server/services/storyboard-builder";

const words = [
  { start: 1.0, end: 1.4 },
  { start: 1.5, end: 2.0 },
  { start: 3.0, end: 3.3, filler: true },
  { start: 3.35, end: 3.9 },
  { start: 5.0, end: 5.6 },
];

describe("word-safe margins", () => {
  it("moves a start or end inside a word out to the word's edge, keeping the word whole", () => {
    expect(wordSafeSpan({ start: 1.2, end: 1.8 }, words, { start: 0, end: 10 })).toEqual({ start: 1.0, end: 2.0 });
  });

  it("leaves a span whose edges are between words alone (padding may be short, no word is clipped)", () => {
    expect(wordSafeSpan({ start: 1.45, end: 2.1 }, words, { start: 0, end: 10 })).toEqual({ start: 1.45, end: 2.1 });
  });

  it("gives the word to the neighbour instead of overlapping it", () => {
    // the previous scene ends at 1.1, inside the first word: this one starts after that word
    expect(wordSafeSpan({ start: 1.2, end: 2.0 }, words, { start: 1.1, end: 10 })).toEqual({ start: 1.4, end: 2.0 });
  });

  it("keeps a file's stretches apart and in order", () => {
    const spans = wordSafeSpans([{ start: 0.9, end: 1.2 }, { start: 1.2, end: 2.05 }], words, 10);
    expect(spans).toEqual([{ start: 0.9, end: 1.0 }, { start: 1.0, end: 2.05 }]);
    expect(spans.every((s) => words.every((w) => !(w.start < s.start && s.start < w.end) && !(w.start < s.end && s.end < w.end)))).toBe(true);
  });

  it("when words arrive later, moves only the scenes nobody touched, never into a neighbour", () => {
    const scene = (id: number, start: number, end: number, trims: Partial<{ trimStart: number; trimEnd: number; trimStartDefault: number; trimEndDefault: number }> = {}) => ({
      id, mediaFileId: 9, start, end, trimStart: start, trimEnd: end, trimStartDefault: start, trimEndDefault: end, ...trims,
    });
    const scenes = [
      scene(1, 1.2, 1.8), // inside words on both sides: grows to the words' edges
      scene(2, 2.9, 3.1, { trimStart: 3.0 }), // trimmed by the person: left alone
      scene(3, 5.3, 5.7), // starts inside the last word, where scene 4 ends: the word goes to one of them whole
      scene(4, 4.5, 5.2),
    ];
    expect(wordSafeTrimUpdates(scenes, () => words)).toEqual([
      { id: 1, start: 1.0, end: 2.0 },
      { id: 4, start: 4.5, end: 5.0 },
      { id: 3, start: 5.0, end: 5.7 },
    ]);
  });
});

describe("filler cuts", () => {
  it("cuts a filler out as a hidden piece between two shown ones whose edges meet", () => {
    const pieces = fillerPieces({ start: 0.9, end: 4.0 }, words);
    expect(pieces).toEqual([
      { start: 0.9, end: 3.0, shown: true },
      { start: 3.0, end: 3.35, shown: false },
      { start: 3.35, end: 4.0, shown: true },
    ]);
  });

  it("keeps a scene without fillers whole", () => {
    expect(fillerPieces({ start: 4.5, end: 6 }, words)).toEqual([{ start: 4.5, end: 6, shown: true }]);
  });

  it("hides the whole scene when it is only the filler", () => {
    expect(fillerPieces({ start: 2.98, end: 3.33 }, words)).toEqual([{ start: 2.98, end: 3.33, shown: false }]);
  });

  it("builds storyboard drafts with the filler hidden only when asked, raw times following", () => {
    const draft = { mediaFileId: 4, order: 1, start: 0.9, end: 4.0, trimStart: 0.9, trimEnd: 4.0, trimStartRaw: 10.9, trimEndRaw: 14.0 };
    const on = respectWords([draft], () => words, new Map([[4, 10]]), true);
    expect(on.map((d) => [d.start, d.end, !!d.hidden, d.order])).toEqual([[0.9, 3.0, false, 1], [3.0, 3.35, true, 2], [3.35, 4.0, false, 3]]);
    expect(on[1]).toMatchObject({ trimStartRaw: 13.0, trimEndRaw: 13.35 });
    const off = respectWords([draft], () => words, new Map([[4, 10]]), false);
    expect(off).toEqual([draft]);
  });
});
