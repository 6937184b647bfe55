/**
 * WebVTT and SRT files: writers and readers (pure). A cue is a TextLine (start and end in seconds,
 * text). What one writer writes, its reader reads back the same (times to the millisecond).
 *
 * WebVTT escapes &, < and > as character references, so a line may say "a <b> c" or "x --> y".
 * SRT has no escaping at all: its text is written as is, and its reader removes the formatting
 * tags players know (<i>, <b>, <u>, <font …>, {\an8}); text that itself looks like such a tag does
 * not survive SRT, which is SRT's limit, not ours. In both formats a cue ends at a blank line, so
 * blank lines inside a cue's text are dropped on writing.
 */
import type { TextLine } from "../../api/storyboard";

export class SubtitleFormatError extends Error {
  constructor(
    message: string,
    /** 1-based line of the file where reading stopped. */
    readonly line: number,
  ) {
    super(`${message} (line ${line})`);
    this.name = "SubtitleFormatError";
  }
}

const MS_PER_SECOND = 1000;

/** Seconds → "HH:MM:SS.mmm" (WebVTT) or "HH:MM:SS,mmm" (SRT); hours grow past two digits when they must. */
export function formatTimestamp(seconds: number, separator: "." | ","): string {
  const totalMs = Math.max(0, Math.round((Number.isFinite(seconds) ? seconds : 0) * MS_PER_SECOND));
  const ms = totalMs % 1000;
  const totalSeconds = (totalMs - ms) / 1000;
  const s = totalSeconds % 60;
  const m = Math.floor(totalSeconds / 60) % 60;
  const h = Math.floor(totalSeconds / 3600);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(h)}:${two(m)}:${two(s)}${separator}${String(ms).padStart(3, "0")}`;
}

/** "HH:MM:SS.mmm", "MM:SS.mmm" (WebVTT allows dropping the hours) or with "," (SRT) → seconds. */
export function parseTimestamp(text: string): number | undefined {
  const match = /^(?:(\d+):)?([0-5]\d):([0-5]\d)[.,](\d{1,3})$/.exec(text.trim());
  if (!match) return undefined;
  const [, h = "0", m = "0", s = "0", fraction = "0"] = match;
  const totalMs = (Number(h) * 3600 + Number(m) * 60 + Number(s)) * MS_PER_SECOND + Number(fraction.padEnd(3, "0"));
  return totalMs / MS_PER_SECOND;
}

/** A cue's text as lines with no blank one among them (a blank line would end the cue). */
const textLines = (text: string) =>
  text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "");

const escapeVtt = (line: string) => line.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Cues in time order. */
const ordered = (lines: readonly TextLine[]) => [...lines].sort((a, b) => a.start - b.start || a.end - b.end);

export function writeVtt(lines: readonly TextLine[]): string {
  const blocks = ["WEBVTT"];
  for (const line of ordered(lines)) {
    const text = textLines(line.text).map(escapeVtt);
    if (text.length === 0) continue;
    blocks.push(`${blocks.length}\n${formatTimestamp(line.start, ".")} --> ${formatTimestamp(Math.max(line.end, line.start), ".")}\n${text.join("\n")}`);
  }
  return blocks.join("\n\n") + "\n";
}

export function writeSrt(lines: readonly TextLine[]): string {
  const blocks: string[] = [];
  for (const line of ordered(lines)) {
    const text = textLines(line.text);
    if (text.length === 0) continue;
    blocks.push(`${blocks.length + 1}\n${formatTimestamp(line.start, ",")} --> ${formatTimestamp(Math.max(line.end, line.start), ",")}\n${text.join("\n")}`);
  }
  return blocks.length === 0 ? "" : blocks.join("\n\n") + "\n";
}

/** A file's text as blocks separated by blank lines, each with the 1-based line it starts on. */
function blocksOf(text: string): { lines: string[]; firstLine: number }[] {
  const all = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const blocks: { lines: string[]; firstLine: number }[] = [];
  let current: { lines: string[]; firstLine: number } | undefined;
  all.forEach((line, i) => {
    if (line.trim() === "") {
      current = undefined;
      return;
    }
    if (!current) {
      current = { lines: [], firstLine: i + 1 };
      blocks.push(current);
    }
    current.lines.push(line);
  });
  return blocks;
}

const TIMING = /^\s*(\S+)\s+-->\s+(\S+)(?:\s+.*)?$/;

function readTiming(line: string, lineNumber: number): { start: number; end: number } {
  const match = TIMING.exec(line);
  const start = match ? parseTimestamp(match[1]!) : undefined;
  const end = match ? parseTimestamp(match[2]!) : undefined;
  if (start === undefined || end === undefined) throw new SubtitleFormatError(`Not a cue timing: "${line.slice(0, 60)}"`, lineNumber);
  if (end < start) throw new SubtitleFormatError("A cue ends before it starts", lineNumber);
  return { start, end };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00A0", lrm: "\u200E", rlm: "\u200F" };

/** WebVTT cue text → plain text: tags (<b>, <c.x>, <v Name>, <00:01.000>) removed, character references read. */
function vttPlainText(line: string): string {
  return line
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

export function readVtt(text: string): TextLine[] {
  const blocks = blocksOf(text);
  const header = blocks[0];
  if (!header || !/^WEBVTT(?:[ \t].*)?$/.test(header.lines[0]!)) throw new SubtitleFormatError("A WebVTT file starts with WEBVTT", 1);
  const cues: TextLine[] = [];
  for (const block of blocks.slice(1)) {
    const first = block.lines[0]!;
    if (/^(NOTE|STYLE|REGION)(\s|$)/.test(first)) continue;
    // an optional identifier line comes before the timing
    const timingIndex = first.includes("-->") ? 0 : 1;
    const timingLine = block.lines[timingIndex];
    if (timingLine === undefined) throw new SubtitleFormatError("A cue has no timing", block.firstLine);
    const { start, end } = readTiming(timingLine, block.firstLine + timingIndex);
    cues.push({ start, end, text: block.lines.slice(timingIndex + 1).map(vttPlainText).join("\n") });
  }
  return cues;
}

/** SRT formatting players know: <i>, <b>, <u>, <font …> and ASS overrides such as {\an8}. */
const srtPlainText = (line: string) => line.replace(/<\/?(?:i|b|u|font)(?:\s[^>]*)?>/gi, "").replace(/\{\\[^}]*\}/g, "");

export function readSrt(text: string): TextLine[] {
  const cues: TextLine[] = [];
  for (const block of blocksOf(text)) {
    // the counter line is optional in the wild; the timing is what counts
    const timingIndex = block.lines[0]!.includes("-->") ? 0 : 1;
    const timingLine = block.lines[timingIndex];
    if (timingLine === undefined) throw new SubtitleFormatError("A cue has no timing", block.firstLine);
    const { start, end } = readTiming(timingLine, block.firstLine + timingIndex);
    cues.push({ start, end, text: block.lines.slice(timingIndex + 1).map(srtPlainText).join("\n") });
  }
  return cues;
}
