import { describe, expect, it } from "vitest";
import { formatTimestamp, parseTimestamp, readSrt, readVtt, SubtitleFormatError, writeSrt, writeVtt } from "../../server/speech/subtitle-files";

const lines = [
  { start: 0, end: 1.5, text: "Hello, and welcome." },
  { start: 1.75, end: 3.001, text: "Tom & Jerry <3 > all" },
  { start: 3600 + 62.042, end: 3600 + 64.5, text: "x --> y, ação 🎬" },
];

describe("timestamps", () => {
  it("writes HH:MM:SS.mmm for WebVTT and HH:MM:SS,mmm for SRT", () => {
    expect(formatTimestamp(0, ".")).toBe("00:00:00.000");
    expect(formatTimestamp(3723.5, ".")).toBe("01:02:03.500");
    expect(formatTimestamp(3723.5, ",")).toBe("01:02:03,500");
    expect(formatTimestamp(59.9996, ".")).toBe("00:01:00.000");
    expect(formatTimestamp(100 * 3600 + 1, ",")).toBe("100:00:01,000");
    expect(formatTimestamp(-2, ".")).toBe("00:00:00.000");
  });

  it("reads both separators, and minutes-only WebVTT times", () => {
    expect(parseTimestamp("01:02:03.500")).toBe(3723.5);
    expect(parseTimestamp("01:02:03,5")).toBe(3723.5);
    expect(parseTimestamp("02:03.042")).toBe(123.042);
    expect(parseTimestamp("1:2:3.5")).toBeUndefined();
    expect(parseTimestamp("00:61:00.000")).toBeUndefined();
  });
});

describe("WebVTT", () => {
  it("writes a header and numbered cues with escaped text", () => {
    expect(writeVtt(lines.slice(0, 2))).toBe(
      "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.500\nHello, and welcome.\n\n2\n00:00:01.750 --> 00:00:03.001\nTom &amp; Jerry &lt;3 &gt; all\n",
    );
  });

  it("reads back what it wrote", () => {
    expect(readVtt(writeVtt(lines))).toEqual(lines);
  });

  it("writes cues in time order and no blank line inside a cue", () => {
    const written = writeVtt([
      { start: 5, end: 6, text: "later" },
      { start: 1, end: 2, text: "first\n\nsecond row" },
    ]);
    expect(readVtt(written)).toEqual([
      { start: 1, end: 2, text: "first\nsecond row" },
      { start: 5, end: 6, text: "later" },
    ]);
  });

  it("reads files from elsewhere: BOM, CRLF, notes, styles, settings, tags and character references", () => {
    const file =
      "\uFEFFWEBVTT - made elsewhere\r\n\r\nNOTE a comment\r\nover two lines\r\n\r\nSTYLE\r\n::cue { color: red }\r\n\r\n" +
      "00:01.000 --> 00:02.000 align:start line:0\r\n<v Ana>Hi <b>there</b>&nbsp;&#x1F3AC;</v>\r\n<i>second</i> &amp; last\r\n\r\n" +
      "intro\r\n00:00:03.000 --> 00:00:04.000\r\nA &lt;tag&gt;\r\n";
    expect(readVtt(file)).toEqual([
      { start: 1, end: 2, text: "Hi there\u00A0🎬\nsecond & last" },
      { start: 3, end: 4, text: "A <tag>" },
    ]);
  });

  it("refuses a file without the WEBVTT header, and a broken timing, saying where", () => {
    expect(() => readVtt("1\n00:00:01.000 --> 00:00:02.000\nhi\n")).toThrow(SubtitleFormatError);
    try {
      readVtt("WEBVTT\n\n00:00:01.000 --> soon\nhi\n");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SubtitleFormatError);
      expect((error as SubtitleFormatError).line).toBe(3);
    }
    expect(() => readVtt("WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nbackwards\n")).toThrow(/ends before it starts/);
  });
});

describe("SRT", () => {
  it("writes numbered cues with comma timestamps and text as is", () => {
    expect(writeSrt(lines.slice(0, 2))).toBe(
      "1\n00:00:00,000 --> 00:00:01,500\nHello, and welcome.\n\n2\n00:00:01,750 --> 00:00:03,001\nTom & Jerry <3 > all\n",
    );
    expect(writeSrt([])).toBe("");
  });

  it("reads back what it wrote", () => {
    expect(readSrt(writeSrt(lines))).toEqual(lines);
  });

  it("reads files from elsewhere: CRLF, missing counters, formatting tags, extra blank lines", () => {
    const file =
      "\r\n1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> <font color=\"#fff\">there</font>\r\n\r\n\r\n" +
      "00:00:03,000 --> 00:00:04,000 X1:0 X2:10\r\n{\\an8}On top\r\n";
    expect(readSrt(file)).toEqual([
      { start: 1, end: 2.5, text: "Hello there" },
      { start: 3, end: 4, text: "On top" },
    ]);
  });

  it("refuses a broken timing, saying where", () => {
    expect(() => readSrt("1\n00:00:01,000 -> 00:00:02,000\nhi\n")).toThrow(/line 2/);
  });
});
