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
  | "not_mergeable";

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
