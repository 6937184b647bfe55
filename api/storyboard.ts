/**
 * The storyboard's rules (SPEC §2 Storyboard, §4 Scenes, §5 Scenes): pure functions with no
 * imports beyond the contract, so the server's scene calls and the views apply the same rules.
 * Times are seconds in the scene's media file.
 */
import { SCENE_LINE_MAX } from "./limits";
import type { OverlayType } from "./scenes";

export interface TextLine {
  start: number;
  end: number;
  text: string;
}

export interface SceneTimes {
  media_file_id: number | null;
  visibility: number;
  start: number;
  end: number;
  trim_start: number;
  trim_end: number;
  trim_start_default: number;
  trim_end_default: number;
  text: readonly TextLine[];
}

/** The shortest scene a trim or a split may leave: one frame at 25 fps. */
export const MIN_SCENE_SECONDS = 0.04;

export type RuleRefusal =
  | "markers_cross"
  | "out_of_bounds"
  | "split_needs_two_lines"
  | "split_needs_no_text"
  | "split_at_edge"
  | "line_too_long"
  | "not_mergeable"
  | "cut_empty";

export type RuleResult<T> = { ok: true; value: T } | { ok: false; refusal: RuleRefusal };
const ok = <T>(value: T): RuleResult<T> => ({ ok: true, value });
const refuse = <T>(refusal: RuleRefusal): RuleResult<T> => ({ ok: false, refusal });
const round = (t: number) => Math.round(t * 1000) / 1000;

/** Trim markers stay inside the scene's media and cannot pass each other (equal counts as crossing). */
export function trim(scene: SceneTimes, trimStart: number, trimEnd: number): RuleResult<{ trim_start: number; trim_end: number }> {
  if (!Number.isFinite(trimStart) || !Number.isFinite(trimEnd)) return refuse("out_of_bounds");
  if (trimEnd - trimStart < MIN_SCENE_SECONDS) return refuse("markers_cross");
  if (trimStart < scene.start || trimEnd > scene.end) return refuse("out_of_bounds");
  return ok({ trim_start: round(trimStart), trim_end: round(trimEnd) });
}

/** Every text line at most 35 characters (SPEC §9). */
export function checkLines(lines: readonly TextLine[]): RuleResult<readonly TextLine[]> {
  return lines.every((line) => [...line.text].length <= SCENE_LINE_MAX) ? ok(lines) : refuse("line_too_long");
}

type SplitParts = [SceneTimes, SceneTimes];

/** Split at `position` seconds into the scene (from trim_start); only a scene with no text (SPEC §5). */
export function splitByPosition(scene: SceneTimes, position: number): RuleResult<SplitParts> {
  if (scene.text.length > 0) return refuse("split_needs_no_text");
  const at = scene.trim_start + position;
  if (!Number.isFinite(position) || at - scene.trim_start < MIN_SCENE_SECONDS || scene.trim_end - at < MIN_SCENE_SECONDS) return refuse("split_at_edge");
  return ok(cut(scene, round(at), [], []));
}

/** Split before line `line` (1-based, 2…n); only a scene with more than one text line (SPEC §5). */
export function splitByLine(scene: SceneTimes, line: number): RuleResult<SplitParts> {
  if (scene.text.length < 2) return refuse("split_needs_two_lines");
  const index = line - 1;
  const next = scene.text[index];
  if (!Number.isInteger(line) || index < 1 || !next) return refuse("split_at_edge");
  const at = round(Math.min(Math.max(next.start, scene.trim_start + MIN_SCENE_SECONDS), scene.trim_end - MIN_SCENE_SECONDS));
  return ok(cut(scene, at, scene.text.slice(0, index), scene.text.slice(index)));
}

/** Both halves meet at `at`, defaults included, so merging them back is allowed. */
function cut(scene: SceneTimes, at: number, firstText: readonly TextLine[], secondText: readonly TextLine[]): SplitParts {
  return [
    { ...scene, end: at, trim_end: at, trim_end_default: at, text: firstText },
    { ...scene, start: at, trim_start: at, trim_start_default: at, text: secondText },
  ];
}

/**
 * The merge-next button (SPEC §2): two adjacent scenes from the same media file whose defaults
 * meet, both shown — or hidden ones too when hidden scenes are on view.
 */
export function canMergeNext(first: SceneTimes, next: SceneTimes, hiddenOnView: boolean): boolean {
  const shown = (s: SceneTimes) => s.visibility === 1 || hiddenOnView;
  return (
    first.media_file_id !== null &&
    first.media_file_id === next.media_file_id &&
    Math.abs(first.trim_end_default - next.trim_start_default) < 1e-6 &&
    shown(first) &&
    shown(next)
  );
}

export function mergeNext(first: SceneTimes, next: SceneTimes, hiddenOnView = true): RuleResult<SceneTimes> {
  if (!canMergeNext(first, next, hiddenOnView)) return refuse("not_mergeable");
  return ok({
    ...first,
    end: next.end,
    trim_end: next.trim_end,
    trim_end_default: next.trim_end_default,
    text: [...first.text, ...next.text],
  });
}

/** Moves the item with `id` to 1-based position `order`, clamped to the list. */
export function reorder<T extends { id: number }>(items: readonly T[], id: number, order: number): T[] {
  const from = items.findIndex((item) => item.id === id);
  if (from < 0) return [...items];
  const rest = items.filter((item) => item.id !== id);
  const to = Math.min(Math.max(Math.trunc(order) - 1, 0), rest.length);
  return [...rest.slice(0, to), items[from]!, ...rest.slice(to)];
}

/** SPEC §4: autozoom and fullscreen hide the main scene behind the overlay (1); picture-in-picture keeps it (0). */
export function overlayBackground(type: OverlayType): 0 | 1 {
  return type === "autozoom" || type === "fullscrn" ? 1 : 0;
}

export interface OverlayOptions {
  overscene_type: OverlayType | null;
  overscene_fade: 0 | 1;
  overscene_overflow: 0 | 1;
  overscene_bg: 0 | 1;
}

/** The overlay options after an edit: a new type brings its background unless the edit gives one. */
export function overlayOptions(current: OverlayOptions, changes: Partial<OverlayOptions>): OverlayOptions {
  const type = changes.overscene_type ?? current.overscene_type;
  const typeChanged = changes.overscene_type !== undefined && changes.overscene_type !== null;
  return {
    overscene_type: type,
    overscene_fade: changes.overscene_fade ?? current.overscene_fade,
    overscene_overflow: changes.overscene_overflow ?? current.overscene_overflow,
    overscene_bg: changes.overscene_bg ?? (typeChanged && type ? overlayBackground(type) : current.overscene_bg),
  };
}

/** Where scenes inserted at 1-based `order` land among `count` scenes: 0 (the start) … count (the end). */
export function insertionIndex(count: number, order: number): number {
  if (!Number.isFinite(order)) return count;
  return Math.min(Math.max(Math.trunc(order) - 1, 0), count);
}

// ---- Edit by transcript (issue 14) ----

/** A recognised word: times in its media file, seconds (api/subtitles.ts `Word`). */
export interface TimedWord {
  start: number;
  end: number;
  text: string;
}

/** A silence at least this long between two words starts a new text line (as the captions are built). */
export const LINE_PAUSE_SECONDS = 0.5;

const middleOf = (w: TimedWord) => (w.start + w.end) / 2;

/**
 * The words a stretch of a media file plays: those whose middle lies in [from, to) (a word cut by an edge
 * belongs where most of it is, once), in time order. A scene's words are `wordsBetween(words, trim_start, trim_end)`.
 */
export function wordsBetween<W extends TimedWord>(words: readonly W[], from: number, to: number): W[] {
  return words.filter((w) => w.text.trim() !== "" && middleOf(w) >= from && middleOf(w) < to).sort((a, b) => a.start - b.start);
}

/**
 * Text lines from words (the 35-character rule): a line never splits a word, ends at a pause, and takes its
 * times from its first and last word, clipped to [from, to]. A word longer than a line is cut into pieces.
 */
export function packLines(words: readonly TimedWord[], from: number, to: number): TextLine[] {
  const lines: TextLine[] = [];
  let text = "";
  let start = 0;
  let end = 0;
  const push = () => {
    const s = round(Math.max(start, from));
    const e = round(Math.min(end, to));
    if (text && e > s) lines.push({ start: s, end: e, text });
    text = "";
  };
  for (const word of words) {
    const piece = word.text.trim();
    if (!piece) continue;
    const letters = [...piece];
    if (letters.length > SCENE_LINE_MAX) {
      push();
      const span = word.end - word.start;
      for (let at = 0; at < letters.length; at += SCENE_LINE_MAX) {
        const part = letters.slice(at, at + SCENE_LINE_MAX);
        text = part.join("");
        start = word.start + (span * at) / letters.length;
        end = word.start + (span * (at + part.length)) / letters.length;
        push();
      }
      continue;
    }
    if (text && ([...text].length + 1 + letters.length > SCENE_LINE_MAX || word.start - end >= LINE_PAUSE_SECONDS)) push();
    if (!text) {
      text = piece;
      start = word.start;
    } else text += ` ${piece}`;
    end = word.end;
  }
  push();
  return lines;
}

/**
 * A scene's text lines divided among consecutive parts of it (`edges`: the inner cut points, ascending). A line
 * wholly inside a part stays as it is; a line across an edge is made again, in each part, from the words it
 * covers there (35 characters a line); a line across an edge with no words under it (typed by hand) goes, clipped,
 * to the part that holds its middle.
 */
export function divideLines(lines: readonly TextLine[], words: readonly TimedWord[], edges: readonly number[], from: number, to: number): TextLine[][] {
  const bounds = [from, ...edges, to];
  const parts: TextLine[][] = edges.map(() => []).concat([[]]);
  const partOf = (t: number) => Math.max(0, Math.min(parts.length - 1, edges.filter((e) => t >= e).length));
  for (const line of lines) {
    const first = partOf(line.start);
    const last = partOf(Math.max(line.start, line.end - 1e-6));
    if (first === last) {
      parts[first]!.push(line);
      continue;
    }
    const under = wordsBetween(words, line.start, line.end + 1e-6);
    if (under.length === 0) {
      const at = partOf((line.start + line.end) / 2);
      const start = round(Math.max(line.start, bounds[at]!));
      const end = round(Math.min(line.end, bounds[at + 1]!));
      if (end > start) parts[at]!.push({ start, end, text: line.text });
      continue;
    }
    for (let p = first; p <= last; p++) {
      parts[p]!.push(...packLines(wordsBetween(under, bounds[p]!, bounds[p + 1]!), bounds[p]!, bounds[p + 1]!));
    }
  }
  return parts;
}

/** A transcript cut: the scene before the cut words, the cut words (hidden), the scene after; an empty side is null. */
export interface CutParts {
  before: SceneTimes | null;
  cut: SceneTimes;
  after: SceneTimes | null;
}

/**
 * Cuts [from, to] (seconds in the media, the selected words' edges) out of a scene: a split at each edge and
 * the middle hidden, so the storyboard shows the cut as a removed scene that "restore" brings back, and whose
 * neighbours it merges with again (the parts' defaults meet). Unlike a split by position, a scene with text
 * lines may be cut: its lines are divided at the edges (divideLines). A side shorter than one frame joins the
 * cut; a cut of the whole scene is just a hide. Refused: an empty stretch, or one outside the scene's trim.
 */
export function cutRange(scene: SceneTimes, from: number, to: number, words: readonly TimedWord[]): RuleResult<CutParts> {
  if (!Number.isFinite(from) || !Number.isFinite(to)) return refuse("out_of_bounds");
  const a = round(Math.max(from, scene.trim_start));
  const b = round(Math.min(to, scene.trim_end));
  if (b - a < MIN_SCENE_SECONDS) return refuse(to - from < MIN_SCENE_SECONDS ? "cut_empty" : "out_of_bounds");
  const hasBefore = a - scene.trim_start >= MIN_SCENE_SECONDS;
  const hasAfter = scene.trim_end - b >= MIN_SCENE_SECONDS;
  const edges = [...(hasBefore ? [a] : []), ...(hasAfter ? [b] : [])];
  const texts = divideLines(scene.text, words, edges, scene.start, scene.end);
  const textOf = (part: "before" | "cut" | "after") => texts[part === "before" ? 0 : part === "cut" ? (hasBefore ? 1 : 0) : edges.length]!;
  const cut: SceneTimes = {
    ...scene,
    visibility: 0,
    ...(hasBefore ? { start: a, trim_start: a, trim_start_default: a } : {}),
    ...(hasAfter ? { end: b, trim_end: b, trim_end_default: b } : {}),
    text: textOf("cut"),
  };
  return ok({
    before: hasBefore ? { ...scene, end: a, trim_end: a, trim_end_default: a, text: textOf("before") } : null,
    cut,
    after: hasAfter ? { ...scene, start: b, trim_start: b, trim_start_default: b, text: textOf("after") } : null,
  });
}

const SENTENCE_END = /[.!?…。！？]["'”’»)\]]*$/u;

/**
 * After a cut is restored and merged back: two neighbouring lines that the cut divided at one of `edges` become
 * one line again — when each is the words under it as recognised (not typed over), no word, pause or sentence
 * end lies between them, and together they keep to 35 characters.
 */
export function rejoinLines(lines: readonly TextLine[], words: readonly TimedWord[], edges: readonly number[]): TextLine[] {
  const out: TextLine[] = [];
  const under = (line: TextLine) => wordsBetween(words, line.start, line.end + 1e-6);
  const asSpoken = (line: TextLine, its: readonly TimedWord[]) => its.length > 0 && its.map((w) => w.text.trim()).join(" ") === line.text;
  for (const line of lines) {
    const previous = out[out.length - 1];
    if (previous && edges.some((e) => e >= previous.end - 1e-6 && e <= line.start + 1e-6)) {
      const a = under(previous);
      const b = under(line);
      const text = `${previous.text} ${line.text}`;
      if (
        asSpoken(previous, a) &&
        asSpoken(line, b) &&
        wordsBetween(words, a[a.length - 1]!.start, b[0]!.end).length === 2 &&
        b[0]!.start - a[a.length - 1]!.end < LINE_PAUSE_SECONDS &&
        !SENTENCE_END.test(previous.text) &&
        [...text].length <= SCENE_LINE_MAX
      ) {
        out[out.length - 1] = { start: previous.start, end: line.end, text };
        continue;
      }
    }
    out.push(line);
  }
  return out;
}
