import { describe, expect, it } from "vitest";
import { clipLines, linesForScenes, linesFromWords, timelineLines } from "../../server/speech/lines";
import { fitWordsToSpeech, isFiller, normaliseWords, type SpokenWord } from "../../server/speech/words";

/** Words spoken one after another from `at`, each `seconds` long with `gap` between them. */
function spoken(text: string, at = 0, seconds = 0.3, gap = 0.1): SpokenWord[] {
  return text.split(" ").map((word, i) => ({ start: at + i * (seconds + gap), end: at + i * (seconds + gap) + seconds, text: word, confidence: 0.9 }));
}
const texts = (lines: { text: string }[]) => lines.map((l) => l.text);

describe("lines from words", () => {
  it("keeps every line within 35 characters and never splits a word", () => {
    const words = spoken(
      "Cutroom removes the silences of a talk and builds a storyboard of scenes with subtitles that anyone can edit afterwards without trouble at all",
    );
    const lines = linesFromWords(words);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect([...line.text].length).toBeLessThanOrEqual(35);
    // every word appears whole, once, in order
    expect(lines.flatMap((l) => l.text.split(" "))).toEqual(words.map((w) => w.text));
  });

  it("fills lines as far as 35 characters allow", () => {
    const lines = linesFromWords(spoken("aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii"));
    // 7 words of 4 letters with spaces = 34 characters; an 8th would make 39
    expect(texts(lines)).toEqual(["aaaa bbbb cccc dddd eeee ffff gggg", "hhhh iiii"]);
  });

  it("counts characters, not UTF-16 units, as the scene text rule does", () => {
    const lines = linesFromWords(spoken("ação ação ação ação ação ação ação ação"));
    expect(lines[0]!.text).toBe("ação ação ação ação ação ação ação");
    const emoji = linesFromWords(spoken("🎬🎬🎬🎬 🎬🎬🎬🎬 🎬🎬🎬🎬 🎬🎬🎬🎬 🎬🎬🎬🎬 🎬🎬🎬🎬 🎬🎬🎬🎬"));
    expect(emoji).toHaveLength(1);
  });

  it("takes each line's start from its first word and its end from its last", () => {
    const words = [...spoken("first line here", 1), ...spoken("second line", 4)];
    const lines = linesFromWords(words);
    expect(lines).toEqual([
      { start: 1, end: 2.1, text: "first line here" },
      { start: 4, end: 4.7, text: "second line" },
    ]);
  });

  it("breaks at a pause of half a second, not at a shorter one", () => {
    const words: SpokenWord[] = [
      { start: 0, end: 0.4, text: "one", confidence: 1 },
      { start: 0.8, end: 1.2, text: "two", confidence: 1 }, // 0.4 s gap: same line
      { start: 1.7, end: 2, text: "three", confidence: 1 }, // 0.5 s gap: new line
    ];
    expect(texts(linesFromWords(words))).toEqual(["one two", "three"]);
    expect(texts(linesFromWords(words, { pauseSeconds: 0.3 }))).toEqual(["one", "two", "three"]);
  });

  it("breaks after the end of a sentence even without a pause", () => {
    expect(texts(linesFromWords(spoken("It works. Does it? Yes!")))).toEqual(["It works.", "Does it?", "Yes!"]);
    expect(texts(linesFromWords(spoken('He said "stop." Then left')))).toEqual(['He said "stop."', "Then left"]);
  });

  it("breaks a full line after a comma when the comma is far enough along", () => {
    const lines = linesFromWords(spoken("When the talk ends, everyone claps and leaves the room"));
    expect(texts(lines)).toEqual(["When the talk ends,", "everyone claps and leaves the room"]);
    // a comma near the start is not worth a short line
    expect(texts(linesFromWords(spoken("So, the talk ends and everyone claps loudly now")))).toEqual([
      "So, the talk ends and everyone", "claps loudly now",
    ]);
  });

  it("starts a new line when one would stay on screen too long", () => {
    const slow = spoken("a b c d e f g h", 0, 0.5, 0.4); // 0.9 s a word
    const lines = linesFromWords(slow, { maxLineSeconds: 3 });
    for (const line of lines) expect(line.end - line.start).toBeLessThanOrEqual(3);
    expect(lines.flatMap((l) => l.text.split(" "))).toHaveLength(8);
  });

  it("leaves hesitations out unless asked to keep them", () => {
    const words = normaliseWords(spoken("so um this uh works"), "en-US");
    expect(words.filter((w) => w.filler).map((w) => w.text)).toEqual(["um", "uh"]);
    expect(texts(linesFromWords(words))).toEqual(["so this works"]);
    expect(texts(linesFromWords(words, { keepFillers: true }))).toEqual(["so um this uh works"]);
  });

  it("cuts a word longer than a whole line into line-sized pieces, its time shared out", () => {
    const long = "x".repeat(50);
    const lines = linesFromWords([
      { start: 0, end: 0.5, text: "see", confidence: 1 },
      { start: 0.6, end: 1.6, text: long, confidence: 1 },
    ]);
    expect(lines).toEqual([
      { start: 0, end: 0.5, text: "see" },
      { start: 0.6, end: 1.3, text: "x".repeat(35) },
      { start: 1.3, end: 1.6, text: "x".repeat(15) },
    ]);
  });

  it("answers no lines for no words", () => {
    expect(linesFromWords([])).toEqual([]);
  });
});

describe("lines in scenes", () => {
  const words = [...spoken("hello there friends", 1), ...spoken("welcome to the show", 3)];

  it("clips lines to a scene's start and end, dropping those outside", () => {
    const lines = [
      { start: 0.5, end: 1.5, text: "across the start" },
      { start: 2, end: 3, text: "inside" },
      { start: 3.5, end: 5, text: "across the end" },
      { start: 6, end: 7, text: "outside" },
    ];
    expect(clipLines(lines, { start: 1, end: 4 })).toEqual([
      { start: 1, end: 1.5, text: "across the start" },
      { start: 2, end: 3, text: "inside" },
      { start: 3.5, end: 4, text: "across the end" },
    ]);
  });

  it("gives each scene the lines of the words spoken in it, clipped to it", () => {
    // scene 1 ends inside "friends" (1.8–2.1: its middle 1.95 is after 1.9), scene 2 takes it
    const [first, second, empty] = linesForScenes(words, [
      { start: 0.8, end: 1.9 },
      { start: 1.9, end: 6 },
      { start: 8, end: 9 },
    ]);
    expect(first).toEqual([{ start: 1, end: 1.7, text: "hello there" }]);
    expect(second).toEqual([
      { start: 1.9, end: 2.1, text: "friends" },
      { start: 3, end: 4.5, text: "welcome to the show" },
    ]);
    expect(empty).toEqual([]);
  });

  it("gives a duplicated scene the same lines as its original", () => {
    const [a, b] = linesForScenes(words, [{ start: 3, end: 5 }, { start: 3, end: 5 }]);
    expect(a).toEqual(b);
    expect(a!.length).toBe(1);
  });
});

describe("lines in the edit's time", () => {
  it("places each visible scene's lines where the scene plays, clipped to its trim", () => {
    const scenes = [
      { trim_start: 2, trim_end: 5, text: [{ start: 1.5, end: 3, text: "starts before the trim" }, { start: 3.5, end: 4.5, text: "inside" }] },
      { trim_start: 10, trim_end: 12, hidden: true, text: [{ start: 10, end: 11, text: "cut" }] },
      { trim_start: 20, trim_end: 22, text: [{ start: 21, end: 23, text: "runs past the trim" }] },
    ];
    expect(timelineLines(scenes)).toEqual([
      { start: 0, end: 1, text: "starts before the trim" },
      { start: 1.5, end: 2.5, text: "inside" },
      { start: 4, end: 5, text: "runs past the trim" },
    ]);
    // after a 3 s intro
    expect(timelineLines(scenes, 3)[0]).toEqual({ start: 3, end: 4, text: "starts before the trim" });
  });
});

describe("words", () => {
  it("adds a piece's offset, trims text, drops empty words and sorts by time", () => {
    const words = normaliseWords(
      [
        { start: 1, end: 1.2, text: " world", confidence: 0.5 },
        { start: 0.2, end: 0.5, text: " Hello", confidence: 2 },
        { start: 0.6, end: 0.7, text: "  ", confidence: 1 },
        { start: Number.NaN, end: 1, text: "bad", confidence: 1 },
      ],
      "en-US",
      10,
    );
    expect(words).toEqual([
      { start: 10.2, end: 10.5, text: "Hello", confidence: 1 },
      { start: 11, end: 11.2, text: "world", confidence: 0.5 },
    ]);
  });

  it("cuts a word that reaches into a silence back to the speech it overlaps", () => {
    const speech = [{ start: 0.45, end: 2 }, { start: 3, end: 4 }];
    const words = [
      { start: 0.04, end: 0.67, text: "Good", confidence: 1 }, // swallowed the lead-in silence
      { start: 1.8, end: 2.4, text: "day", confidence: 1 }, // runs into the pause
      { start: 2.2, end: 2.5, text: "hm", confidence: 1 }, // under the threshold: left alone
      { start: 3.5, end: 3.8, text: "inside", confidence: 1 },
    ];
    expect(fitWordsToSpeech(words, speech).map((w) => [w.start, w.end])).toEqual([
      [0.45, 0.67],
      [1.8, 2],
      [2.2, 2.5],
      [3.5, 3.8],
    ]);
  });

  it("knows the hesitations of each language", () => {
    expect(isFiller("Um,", "en-US")).toBe(true);
    expect(isFiller("euh", "fr-FR")).toBe(true);
    expect(isFiller("ähm", "de-DE")).toBe(true);
    expect(isFiller("é", "pt-BR")).toBe(true);
    expect(isFiller("é", "en-US")).toBe(false);
    expect(isFiller("umbrella", "en-US")).toBe(false);
  });
});
