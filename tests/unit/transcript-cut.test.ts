import { describe, expect, it } from "vitest";
import { canMergeNext, checkLines, cutRange, divideLines, mergeNext, packLines, rejoinLines, wordsBetween, type SceneTimes, type TimedWord } from "../../api/storyboard";

const scene = (over: Partial<SceneTimes> = {}): SceneTimes => ({
  media_file_id: 1,
  visibility: 1,
  start: 0,
  end: 10,
  trim_start: 0.5,
  trim_end: 9.5,
  trim_start_default: 0.5,
  trim_end_default: 9.5,
  text: [],
  ...over,
});

// "the quick brown fox jumps over the lazy dog" at 0.5 s steps from 1 s, then a long pause, then "and then it slept well"
const spoken = "the quick brown fox jumps over the lazy dog".split(" ");
const words: TimedWord[] = [
  ...spoken.map((text, i) => ({ start: 1 + i * 0.5, end: 1 + i * 0.5 + 0.4, text })),
  ...["and", "then", "it", "slept", "well"].map((text, i) => ({ start: 7 + i * 0.4, end: 7 + i * 0.4 + 0.3, text })),
];
// lines as the captions make them: 35 characters at most, a new line at the pause
const captions = packLines(words, 0, 10);

describe("wordsBetween and packLines", () => {
  it("gives a stretch the words whose middle lies in it, in order", () => {
    expect(wordsBetween(words, 2, 3.2).map((w) => w.text)).toEqual(["brown", "fox"]);
    // "fox" is 2.5–2.9: its middle (2.7) is outside [2, 2.6)
    expect(wordsBetween(words, 2, 2.6).map((w) => w.text)).toEqual(["brown"]);
  });
  it("packs words into lines of 35 characters at most, breaking at pauses and never inside a word", () => {
    expect(captions.map((l) => l.text)).toEqual(["the quick brown fox jumps over the", "lazy dog", "and then it slept well"]);
    expect(checkLines(captions).ok).toBe(true);
    expect(captions[0]).toMatchObject({ start: 1, end: 4.4 });
  });
  it("cuts a word longer than a line into line-sized pieces", () => {
    const long = packLines([{ start: 0, end: 4, text: "x".repeat(40) }], 0, 10);
    expect(long.map((l) => [...l.text].length)).toEqual([35, 5]);
    expect(long[1]!.end).toBe(4);
  });
});

describe("cutRange", () => {
  const s = scene({ text: captions });

  it("splits at the word edges and hides the middle, dividing the lines that cross the cut", () => {
    // cut "brown fox" (2–2.9)
    const result = cutRange(s, 2, 2.9, words);
    if (!result.ok) throw new Error(result.refusal);
    const { before, cut, after } = result.value;
    expect(before).toMatchObject({ start: 0, end: 2, trim_start: 0.5, trim_end: 2, trim_end_default: 2, visibility: 1 });
    expect(cut).toMatchObject({ start: 2, end: 2.9, trim_start: 2, trim_end: 2.9, visibility: 0 });
    expect(after).toMatchObject({ start: 2.9, end: 10, trim_start: 2.9, trim_end: 9.5, trim_start_default: 2.9, visibility: 1 });
    expect(before!.text.map((l) => l.text)).toEqual(["the quick"]);
    expect(cut.text.map((l) => l.text)).toEqual(["brown fox"]);
    expect(after!.text.map((l) => l.text)).toEqual(["jumps over the", "lazy dog", "and then it slept well"]);
    for (const part of [before!, cut, after!]) expect(checkLines(part.text).ok).toBe(true);
    // every line stays inside its part
    expect(after!.text[0]!.start).toBeGreaterThanOrEqual(2.9);
  });

  it("leaves parts that merge back into the scene it was", () => {
    const result = cutRange(s, 2, 2.9, words);
    if (!result.ok) throw new Error(result.refusal);
    const { before, cut, after } = result.value;
    expect(canMergeNext(before!, cut, true)).toBe(true);
    const first = mergeNext(before!, { ...cut, visibility: 1 });
    if (!first.ok) throw new Error(first.refusal);
    const whole = mergeNext(first.value, after!);
    if (!whole.ok) throw new Error(whole.refusal);
    expect(whole.value).toMatchObject({ start: 0, end: 10, trim_start: 0.5, trim_end: 9.5, trim_start_default: 0.5, trim_end_default: 9.5 });
    // the lines the cut divided are joined again
    expect(whole.value.text.map((l) => l.text)).toEqual(["the quick", "brown fox", "jumps over the", "lazy dog", "and then it slept well"]);
    expect(rejoinLines(whole.value.text, words, [2, 2.9])).toEqual(captions);
  });

  it("does not join lines that were typed over, or that a pause or a sentence end parts", () => {
    const typed = [{ start: 1, end: 1.9, text: "The quick" }, { start: 2, end: 2.9, text: "brown fox" }];
    expect(rejoinLines(typed, words, [2])).toEqual(typed);
    const paused = [{ start: 4, end: 4.9, text: "lazy dog" }, { start: 7, end: 8.9, text: "and then it slept well" }];
    expect(rejoinLines(paused, words, [5])).toEqual(paused);
    const sentence = [{ start: 1, end: 1.9, text: "the quick." }, { start: 2, end: 2.9, text: "brown fox" }];
    const dotted = words.map((w) => (w.text === "quick" ? { ...w, text: "quick." } : w));
    expect(rejoinLines(sentence, dotted, [2])).toEqual(sentence);
  });

  it("keeps lines that do not cross the cut as they are, edited text included", () => {
    const edited = scene({ text: [{ start: 1, end: 4.4, text: "The quick brown fox!" }, { start: 7, end: 8.9, text: "Then it slept." }] });
    const result = cutRange(edited, 5, 6, words);
    if (!result.ok) throw new Error(result.refusal);
    expect(result.value.before!.text).toEqual([{ start: 1, end: 4.4, text: "The quick brown fox!" }]);
    expect(result.value.cut.text).toEqual([]);
    expect(result.value.after!.text).toEqual([{ start: 7, end: 8.9, text: "Then it slept." }]);
  });

  it("puts a typed line with no words under it in the part holding its middle", () => {
    const typed = scene({ text: [{ start: 0.5, end: 3, text: "A title" }] });
    const result = divideLines(typed.text, [], [2.5], 0, 10);
    expect(result).toEqual([[{ start: 0.5, end: 2.5, text: "A title" }], []]);
  });

  it("cuts the head or the tail of a scene with one split, and the whole scene with a hide", () => {
    const head = cutRange(s, 0.5, 1.4, words);
    if (!head.ok) throw new Error(head.refusal);
    expect(head.value.before).toBeNull();
    expect(head.value.cut).toMatchObject({ start: 0, trim_start: 0.5, end: 1.4, visibility: 0 });
    expect(head.value.after).toMatchObject({ start: 1.4, trim_start: 1.4 });

    // a sliver shorter than a frame at the end joins the cut
    const tail = cutRange(s, 8.6, 9.48, words);
    if (!tail.ok) throw new Error(tail.refusal);
    expect(tail.value.after).toBeNull();
    expect(tail.value.cut).toMatchObject({ start: 8.6, end: 10, trim_end: 9.5, visibility: 0 });

    const all = cutRange(s, 0, 10, words);
    if (!all.ok) throw new Error(all.refusal);
    expect(all.value).toEqual({ before: null, cut: { ...s, visibility: 0 }, after: null });
  });

  it("refuses an empty stretch and one outside the scene", () => {
    expect(cutRange(s, 3, 3, words)).toEqual({ ok: false, refusal: "cut_empty" });
    expect(cutRange(s, 9.6, 9.9, words)).toEqual({ ok: false, refusal: "out_of_bounds" });
    expect(cutRange(s, Number.NaN, 3, words)).toEqual({ ok: false, refusal: "out_of_bounds" });
  });
});
