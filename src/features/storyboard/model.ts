/**
 * What the Storyboard tab shows, as pure functions of the scenes in storyboard order (SPEC §2
 * Storyboard, Selection toolbar): which cards are listed, where merge buttons go, lengths, where a
 * dragged card lands, and the clips-project request. No React, no Dexie: the unit tests call these.
 */
import { canMergeNext } from "../../../api/storyboard";
import { BUSY_STATUSES, type Project } from "../../../api/projects";
import type { Scene } from "../../../api/scenes";
import { DRAG_SCROLL_SENSITIVITY } from "../../lib/constants";

type Timed = Pick<Scene, "trim_start" | "trim_end">;

/** A scene's length as it plays: trim end minus trim start. */
export const sceneLength = (scene: Timed) => Math.max(0, scene.trim_end - scene.trim_start);

export const totalLength = (scenes: readonly Timed[]) => scenes.reduce((sum, s) => sum + sceneLength(s), 0);

/** The project length: what the render holds, i.e. the visible scenes only. */
export const projectLength = (scenes: readonly Scene[]) => totalLength(scenes.filter((s) => s.visibility === 1));

/** The cards listed: every scene, or only the visible ones when "hide removed scenes" is on. */
export const shownScenes = (scenes: readonly Scene[], hideRemoved: boolean): readonly Scene[] =>
  hideRemoved ? scenes.filter((s) => s.visibility === 1) : scenes;

/**
 * `result[i]` is true when a merge-next button goes after shown card i (SPEC §2 merge rule): the next
 * card is also the scene's real next one in the storyboard (the server merges with that one), and the
 * pair passes `canMergeNext` with hidden scenes counted as shown only when they are on view.
 */
export function mergeAfter(all: readonly Scene[], shown: readonly Scene[], hideRemoved: boolean): boolean[] {
  const position = new Map(all.map((s, i) => [s.id, i]));
  return shown.map((scene, i) => {
    const next = shown[i + 1];
    if (!next || position.get(next.id) !== position.get(scene.id)! + 1) return false;
    return canMergeNext(scene, next, !hideRemoved);
  });
}

/** SPEC §2: a project being made, rendered or waiting in the queue cannot be edited. */
export const isBusy = (project: Pick<Project, "status" | "is_queued">) => BUSY_STATUSES.includes(project.status) || project.is_queued === 1;

/**
 * The 1-based order to send to `moveScene` when the scene `movedId` is dropped into gap `gap` of the
 * shown cards (gap 0 = before the first card, gap n = after the last), or null when it would not move.
 * `all` is the whole storyboard, hidden scenes included, in order.
 */
export function dropOrder(all: readonly { id: number }[], shownIds: readonly number[], movedId: number, gap: number): number | null {
  const from = shownIds.indexOf(movedId);
  if (from < 0 || shownIds.length === 0) return null;
  const at = Math.min(Math.max(Math.trunc(gap), 0), shownIds.length);
  if (at === from || at === from + 1) return null;
  const rest = all.filter((s) => s.id !== movedId).map((s) => s.id);
  if (at < shownIds.length) return rest.indexOf(shownIds[at]!) + 1;
  return rest.indexOf(shownIds[shownIds.length - 1]!) + 2;
}

/** Grid geometry: the card's least width and the gap between cards, in px. */
export const CARD_MIN_WIDTH = 232;
export const GRID_GAP = 12;

/** As many columns as cards of at least CARD_MIN_WIDTH fit: one at 360 px, more on wider screens. */
export const columnsFor = (width: number) => Math.max(1, Math.floor((width + GRID_GAP) / (CARD_MIN_WIDTH + GRID_GAP)));

export interface GridGeometry {
  columns: number;
  /** Width of one cell (without the gap). */
  cellWidth: number;
  /** Height of one row, gap included. */
  rowHeight: number;
  count: number;
}

/**
 * The gap (0…count) a pointer at (x, y), relative to the grid's top-left corner, points at: before
 * or after the card under it, by which half of the card it is over (left/right in a grid, top/bottom
 * in a single column).
 */
export function gapAt(x: number, y: number, grid: GridGeometry): number {
  const { columns, cellWidth, rowHeight, count } = grid;
  if (count === 0) return 0;
  const rows = Math.ceil(count / columns);
  const row = Math.min(Math.max(Math.floor(y / rowHeight), 0), rows - 1);
  if (columns === 1) {
    const lower = y - row * rowHeight > rowHeight / 2;
    return Math.min(row + (lower ? 1 : 0), count);
  }
  const column = Math.min(Math.max(Math.floor(x / (cellWidth + GRID_GAP)), 0), columns - 1);
  const index = row * columns + column;
  if (index >= count) return count;
  const right = x - column * (cellWidth + GRID_GAP) > cellWidth / 2;
  return index + (right ? 1 : 0);
}

/** How close to the scroller's top or bottom edge (px) dragging starts scrolling it. */
export const DRAG_SCROLL_EDGE_PX = 72;

/**
 * Auto-scroll while dragging: px/s, negative upwards, proportional to how far into the edge zone the
 * pointer is, reaching DRAG_SCROLL_SENSITIVITY at the edge (and beyond it).
 */
export function autoScrollSpeed(pointerY: number, top: number, bottom: number, edge = DRAG_SCROLL_EDGE_PX): number {
  if (pointerY < top + edge) return -DRAG_SCROLL_SENSITIVITY * Math.min(1, (top + edge - pointerY) / edge);
  if (pointerY > bottom - edge) return DRAG_SCROLL_SENSITIVITY * Math.min(1, (pointerY - (bottom - edge)) / edge);
  return 0;
}

/** The selected scenes, in storyboard order, among the cards on view. */
export const selectedInOrder = (shown: readonly Scene[], selected: ReadonlySet<number>) => shown.filter((s) => selected.has(s.id));

/** SPEC §9 Aspects: original (""), landscape 16x9, portrait 9x16, square 1x1. */
export type ClipsAspect = "" | "16x9" | "9x16" | "1x1";
export const CLIPS_ASPECTS: readonly ClipsAspect[] = ["", "16x9", "9x16", "1x1"];

export interface ClipsForm {
  name: string;
  aspect: ClipsAspect;
  autocrop: boolean;
  /** "Download ready": a final render (the app then goes to /open) rather than a storyboard to edit. */
  final: boolean;
}

export type ClipsRequest =
  | { ok: true; body: { name: string; final: boolean; scenes: number[]; aspect: ClipsAspect; autocrop: boolean } }
  | { ok: false; invalid: "name" | "scenes" };

/** SPEC §2 and §5: a name is required, scenes too; auto crop only applies when a size is chosen. */
export function clipsRequest(form: ClipsForm, sceneIds: readonly number[]): ClipsRequest {
  const name = form.name.trim();
  if (sceneIds.length === 0) return { ok: false, invalid: "scenes" };
  if (!name) return { ok: false, invalid: "name" };
  return { ok: true, body: { name, final: form.final, scenes: [...sceneIds], aspect: form.aspect, autocrop: form.aspect !== "" && form.autocrop } };
}
