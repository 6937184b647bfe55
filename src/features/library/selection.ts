import type { LibraryItem } from "../../../api/media";
import type { OverlayType } from "../../../api/scenes";
import { PROGRESS_DONE } from "../../lib/constants";

/**
 * Where the picked scenes go (SPEC §2 routes): before the scene at `order` (1 = at the start), or over
 * the project's scene `sceneId` (overlay mode).
 */
export type InsertMode =
  | { kind: "insert"; projectId: number; order: number }
  | { kind: "overlay"; projectId: number; order: number; sceneId: number };

/** A whole item brings all its scenes; counted with them in the toolbar. */
export interface PickedItem {
  id: number;
  scenesCount: number;
}
export interface PickedScene {
  id: number;
  /** The item (library or project) the scene belongs to. */
  projectId: number;
}
export interface Selection {
  items: readonly PickedItem[];
  scenes: readonly PickedScene[];
}

export const EMPTY_SELECTION: Selection = { items: [], scenes: [] };
/** SPEC §2 overlay: picture in picture at the bottom right unless the user picks another place. */
export const DEFAULT_OVERLAY_TYPE: OverlayType = "pip_br";

type Processing = Pick<LibraryItem, "raw_preview_render" | "progress">;

/** SPEC §5: only fully processed files can be picked (raw preview rendered and progress at 100). */
export const isFullyProcessed = (item: Processing) => item.raw_preview_render === 1 && item.progress >= PROGRESS_DONE;

export const isItemPicked = (selection: Selection, id: number) => selection.items.some((i) => i.id === id);
export const isScenePicked = (selection: Selection, id: number) => selection.scenes.some((s) => s.id === id);

/**
 * Picks or unpicks a whole item. Picking it drops the scenes of it picked one by one; overlay mode
 * takes a single scene, so whole items cannot be picked there.
 */
export function toggleItem(selection: Selection, item: Processing & { id: number; scenes_count: number }, mode: InsertMode): Selection {
  if (isItemPicked(selection, item.id)) return { ...selection, items: selection.items.filter((i) => i.id !== item.id) };
  if (mode.kind === "overlay" || !isFullyProcessed(item)) return selection;
  return {
    items: [...selection.items, { id: item.id, scenesCount: item.scenes_count }],
    scenes: selection.scenes.filter((s) => s.projectId !== item.id),
  };
}

/**
 * Picks or unpicks one scene of `item`. Picking it drops the whole item if it was picked; in overlay
 * mode the new scene replaces any other.
 */
export function toggleScene(selection: Selection, scene: PickedScene, item: Processing, mode: InsertMode): Selection {
  if (isScenePicked(selection, scene.id)) return { ...selection, scenes: selection.scenes.filter((s) => s.id !== scene.id) };
  if (!isFullyProcessed(item)) return selection;
  if (mode.kind === "overlay") return { items: [], scenes: [scene] };
  return {
    items: selection.items.filter((i) => i.id !== scene.projectId),
    scenes: [...selection.scenes, scene],
  };
}

/** How many scenes the insert brings: those picked one by one plus every scene of whole items. */
export const pickedSceneCount = (selection: Selection) =>
  selection.scenes.length + selection.items.reduce((sum, i) => sum + i.scenesCount, 0);

/** Overlay mode needs exactly one scene; an insert needs anything at all. */
export const canInsert = (selection: Selection, mode: InsertMode) =>
  mode.kind === "overlay" ? selection.scenes.length === 1 && selection.items.length === 0 : selection.scenes.length + selection.items.length > 0;

export type InsertHint = { kind: "over"; scene: number } | { kind: "after"; scene: number } | { kind: "start" };

/**
 * SPEC §2 Media library: "over scene N" (N the order of the scene under the overlay, when known),
 * "after scene N-1", or "at the start" for order 1.
 */
export function insertHint(mode: InsertMode, overSceneOrder?: number): InsertHint {
  if (mode.kind === "overlay") return { kind: "over", scene: overSceneOrder ?? mode.order };
  return mode.order <= 1 ? { kind: "start" } : { kind: "after", scene: mode.order - 1 };
}
