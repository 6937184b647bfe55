/**
 * Burned-in subtitles (issue 14, SPEC §3 Subtitles: font colour, border colour, shadow colour, drop shadow,
 * embedded language). The render writes the lines to an ASS file of its own, in its own scratch folder, and
 * ffmpeg's libass (`ass` filter) draws them onto the picture after the overlays and under the watermark.
 *
 * Which flag asks for it: SPEC §3 lists render_subtitle and export_subtitle. The Options panel reads
 * render_subtitle as "show what is said on screen" (its subtitle style shows only with it, SPEC §5), and
 * export_subtitle as the transcript-driven cut options (smooth cuts, auto-cut silences show only with it). So
 * render_subtitle is burn-in. SPEC §2 has the preview player show the subtitles *as a track* "when
 * render_subtitle is set and the render is not final": a preview render therefore stays clean (the player's
 * captions menu shows the lines, in any ready language) and the final render carries them in its picture.
 *
 * The ASS file is written whole by us: every text is escaped so no override tag (`{\fn…}`, `{\p1}` drawings,
 * font or picture references) can come from a line's text, and libass only reads this file and system fonts.
 */
import type { TextLine } from "../../api/storyboard";

export interface BurnStyle {
  /** Text, border (outline) and shadow colours: "#rrggbb" (or "#rgb"). */
  color: string;
  border_color: string;
  shadow_color: string;
  /** 1: a drop shadow below-right of the text in shadow_color. */
  dropshadow: 0 | 1;
}

export interface BurnedSubtitles {
  lines: readonly TextLine[];
  style: BurnStyle;
}

/** A Debian font every install has (fonts-dejavu-core, which ffmpeg's libass pulls in through fontconfig). */
export const SUBTITLE_FONT = "DejaVu Sans";
/** Font size: a share of the output's height, but no more than this share of its width (portrait outputs). */
export const FONT_HEIGHT_SHARE = 0.05;
export const FONT_WIDTH_SHARE = 0.06;
/** The distance of the lowest row from the bottom edge, and of the text from the sides (title-safe area). */
export const BOTTOM_MARGIN_SHARE = 0.08;
export const SIDE_MARGIN_SHARE = 0.06;
/** Border and shadow thickness as shares of the font size. */
const OUTLINE_SHARE = 0.07;
const SHADOW_SHARE = 0.1;
/** An average DejaVu Sans character is about this share of the font size wide (used to wrap rows). */
const CHAR_WIDTH_SHARE = 0.56;

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** "#rrggbb" as the six hex digits of red, green and blue; white for anything else. */
function rgbOf(hex: string): [string, string, string] {
  const m = HEX.exec(hex.trim());
  if (!m) return ["FF", "FF", "FF"];
  const digits = m[1]!.length === 3 ? [...m[1]!].map((d) => d + d).join("") : m[1]!;
  const up = digits.toUpperCase();
  return [up.slice(0, 2), up.slice(2, 4), up.slice(4, 6)];
}

/** A colour as an ASS override colour: "#ffd400" → "&H00D4FF&" (blue, green, red). */
export function assColour(hex: string): string {
  const [r, g, b] = rgbOf(hex);
  return `&H${b}${g}${r}&`;
}

/** A colour as an ASS style colour with its alpha (00 opaque): "#ffd400" → "&H0000D4FF". */
export function assStyleColour(hex: string, alpha = 0): string {
  const [r, g, b] = rgbOf(hex);
  return `&H${alpha.toString(16).toUpperCase().padStart(2, "0")}${b}${g}${r}`;
}

/** Seconds as ASS time (H:MM:SS.cc), never below zero. */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(c).padStart(2, "0")}`;
}

/**
 * A line's text as ASS dialogue text that shows exactly what it says: braces are escaped (no override block
 * can open), a backslash can never start an escape (`\N`, `\h`) and control characters and line breaks become
 * spaces (rows are made by wrapRows only).
 */
export function escapeAssText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\\/g, "\\\u2060")
    .replace(/\{/g, "\\{")
    .replace(/\}/g, "\\}")
    .replace(/ {2,}/g, " ")
    .trim();
}

/** Words into rows of at most `maxChars` characters (a longer word stays whole on its own row). */
export function wrapRows(text: string, maxChars: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const rows: string[] = [];
  let row = "";
  for (const word of words) {
    if (!row) row = word;
    else if (row.length + 1 + word.length <= maxChars) row += ` ${word}`;
    else {
      rows.push(row);
      row = word;
    }
  }
  if (row) rows.push(row);
  return rows;
}

export interface AssLayout {
  fontSize: number;
  outline: number;
  shadow: number;
  marginV: number;
  marginH: number;
  /** Characters a row holds at this size. */
  rowChars: number;
}

/** Sizes for a width × height output: proportional to its height, capped by its width (portrait, square). */
export function assLayout(width: number, height: number, dropshadow: boolean): AssLayout {
  const fontSize = Math.max(8, Math.round(Math.min(height * FONT_HEIGHT_SHARE, width * FONT_WIDTH_SHARE)));
  const marginH = Math.round(width * SIDE_MARGIN_SHARE);
  return {
    fontSize,
    outline: Math.max(1, Math.round(fontSize * OUTLINE_SHARE)),
    shadow: dropshadow ? Math.max(2, Math.round(fontSize * SHADOW_SHARE)) : 0,
    marginV: Math.round(height * BOTTOM_MARGIN_SHARE),
    marginH,
    rowChars: Math.max(8, Math.floor((width - 2 * marginH) / (fontSize * CHAR_WIDTH_SHARE))),
  };
}

/** The whole ASS file for a width × height output: one style from the project's subtitle settings, one event per line. */
export function writeAss(lines: readonly TextLine[], style: BurnStyle, width: number, height: number): string {
  const layout = assLayout(width, height, style.dropshadow === 1);
  const primary = assStyleColour(style.color);
  const outline = assStyleColour(style.border_color);
  // With BorderStyle 1 the "back" colour is the shadow's; a little transparent, as a shadow is.
  const shadow = assStyleColour(style.shadow_color, style.dropshadow === 1 ? 0x40 : 0xff);
  const events = lines
    .filter((line) => line.end > line.start && line.text.trim())
    .map((line) => {
      const text = wrapRows(escapeAssText(line.text), layout.rowChars).join("\\N");
      return `Dialogue: 0,${assTime(line.start)},${assTime(line.end)},Default,,0,0,0,,${text}`;
    });
  return [
    "[Script Info]",
    "; Written by Cutroom for one render",
    "ScriptType: v4.00+",
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    // Rows are broken by us (wrapRows); libass still breaks a row our estimate let run too wide.
    "WrapStyle: 0",
    "ScaledBorderAndShadow: yes",
    "YCbCr Matrix: TV.709",
    "",
    "[V4+ Styles]",
    "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
    `Style: Default,${SUBTITLE_FONT},${layout.fontSize},${primary},${primary},${outline},${shadow},-1,0,0,0,100,100,0,0,1,${layout.outline},${layout.shadow},2,${layout.marginH},${layout.marginH},${layout.marginV},1`,
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ...events,
    "",
  ].join("\n");
}

/** The lines a part of the render shows (frames from `fromSeconds` for `seconds`), on that part's own clock. */
export function shiftLines(lines: readonly TextLine[], fromSeconds: number, seconds: number): TextLine[] {
  return lines
    .filter((line) => line.end > fromSeconds && line.start < fromSeconds + seconds)
    .map((line) => ({ ...line, start: Math.max(0, line.start - fromSeconds), end: Math.min(seconds, line.end - fromSeconds) }));
}

/**
 * A value for a filter option inside a filter graph (ffmpeg-filters "Notes on filtergraph escaping"): first
 * escaped for the option parser (`\ ' :`), then for the graph parser (`\ ' [ ] , ;`).
 */
export function filterGraphValue(value: string): string {
  const option = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** The `ass` filter drawing our file onto a picture (a chain link, without labels). */
export function assFilter(file: string): string {
  return `ass=filename=${filterGraphValue(file)}`;
}
