import { describe, expect, it } from "vitest";
import { assColour, assLayout, assStyleColour, assTime, escapeAssText, filterGraphValue, shiftLines, wrapRows, writeAss } from "../../server/media/burned-subtitles";

const style = { color: "#ffd400", border_color: "#e53935", shadow_color: "#1e88e5", dropshadow: 1 as const };

describe("the ASS file of burned-in subtitles", () => {
  it("writes colours blue-green-red, as ASS reads them", () => {
    expect(assColour("#ffd400")).toBe("&H00D4FF&");
    expect(assColour("#1E88E5")).toBe("&HE5881E&");
    expect(assColour("#f80")).toBe("&H0088FF&");
    expect(assStyleColour("#e53935")).toBe("&H003539E5");
    expect(assStyleColour("#000000", 0x40)).toBe("&H40000000");
    // Anything that is not a colour is white, never text in the file.
    expect(assColour("red;}{\\p1}")).toBe("&HFFFFFF&");
  });

  it("writes times as H:MM:SS.cc, never negative", () => {
    expect(assTime(0)).toBe("0:00:00.00");
    expect(assTime(3723.456)).toBe("1:02:03.46");
    expect(assTime(-2)).toBe("0:00:00.00");
  });

  it("escapes override blocks, escapes and control characters out of a line's text", () => {
    expect(escapeAssText("Hi {\\fnEvil}there")).toBe("Hi \\{\\\u2060fnEvil\\}there");
    expect(escapeAssText("a\\Nb")).toBe("a\\\u2060Nb");
    expect(escapeAssText("one\ntwo\r\tthree")).toBe("one two three");
    // No "\N" (forced break), "\h" or "{" override survives: every backslash is followed by a word joiner or a brace.
    expect(escapeAssText("x\\h{\\p1}m 0 0 l 100 0")).not.toMatch(/\\[Nnh]|(?<!\\)\{/);
  });

  it("wraps on words, never splitting one", () => {
    expect(wrapRows("the quick brown fox jumps over the lazy dog", 15)).toEqual(["the quick brown", "fox jumps over", "the lazy dog"]);
    expect(wrapRows("supercalifragilistic is long", 10)).toEqual(["supercalifragilistic", "is long"]);
    expect(wrapRows("  ", 10)).toEqual([]);
  });

  it("sizes the text by the output's height, capped by its width, with a safe bottom margin", () => {
    const landscape = assLayout(1280, 720, true);
    expect(landscape.fontSize).toBe(36);
    expect(landscape.marginV).toBe(Math.round(720 * 0.08));
    expect(landscape.shadow).toBeGreaterThan(0);
    const portrait = assLayout(720, 1280, false);
    expect(portrait.fontSize).toBe(43);
    expect(portrait.shadow).toBe(0);
    // A 35-character line fits a 9:16 row in at most two rows.
    expect(wrapRows("Thirty five characters in this line", portrait.rowChars).length).toBeLessThanOrEqual(2);
  });

  it("writes the style from the Options and one event per line", () => {
    const ass = writeAss(
      [
        { start: 1, end: 2.5, text: "Hello {world}" },
        { start: 3, end: 3, text: "empty span" },
        { start: 4, end: 5, text: "  " },
      ],
      style,
      640,
      360,
    );
    expect(ass).toContain("PlayResX: 640\nPlayResY: 360");
    const styleLine = ass.split("\n").find((l) => l.startsWith("Style: Default,"))!;
    const fields = styleLine.slice("Style: ".length).split(",");
    expect(fields[3]).toBe("&H0000D4FF"); // primary: text
    expect(fields[5]).toBe("&H003539E5"); // outline: border
    expect(fields[6]).toBe("&H40E5881E"); // back: shadow
    expect(Number(fields[17])).toBeGreaterThan(0); // shadow depth
    const events = ass.split("\n").filter((l) => l.startsWith("Dialogue:"));
    expect(events).toEqual(["Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,Hello \\{world\\}"]);
    const flat = writeAss([{ start: 0, end: 1, text: "x" }], { ...style, dropshadow: 0 }, 640, 360);
    expect(flat.split("\n").find((l) => l.startsWith("Style:"))!.split(",")[17]).toBe("0");
  });

  it("moves lines onto a part's own clock", () => {
    const lines = [
      { start: 0.5, end: 1.5, text: "a" },
      { start: 2.5, end: 4.5, text: "b" },
      { start: 6, end: 7, text: "c" },
    ];
    expect(shiftLines(lines, 2, 3)).toEqual([{ start: 0.5, end: 2.5, text: "b" }]);
    expect(shiftLines(lines, 4, 3)).toEqual([
      { start: 0, end: 0.5, text: "b" },
      { start: 2, end: 3, text: "c" },
    ]);
  });

  it("escapes a path for a filter option inside a filter graph", () => {
    expect(filterGraphValue("/tmp/plain/subs.ass")).toBe("/tmp/plain/subs.ass");
    expect(filterGraphValue("/d/it's:a,b[c];d\\e")).toBe("/d/it\\\\\\'s\\\\:a\\,b\\[c\\]\\;d\\\\\\\\e");
  });
});
