import type { FaceBox } from "../../../../api/scenes";

export type Box = FaceBox["BoundingBox"];
export interface Point {
  x: number;
  y: number;
}

/** The smallest box kept from a drag (2 % of the frame); a click without a drag draws nothing. */
export const MIN_FACE_BOX = 0.02;
/** One arrow-key press moves or resizes a box by 1 % of the frame. */
export const FACE_STEP = 0.01;
/** PUT /scenes/{id} takes at most 20 boxes. */
export const MAX_FACES = 20;

const clamp = (v: number, min = 0, max = 1) => Math.min(Math.max(v, min), max);
const round = (v: number) => Math.round(v * 10_000) / 10_000;
const rounded = (b: Box): Box => ({ Left: round(b.Left), Top: round(b.Top), Width: round(b.Width), Height: round(b.Height) });

/** A pointer position as fractions (0…1) of the frame's rectangle. */
export function toFraction(rect: { left: number; top: number; width: number; height: number }, clientX: number, clientY: number): Point {
  return { x: clamp(rect.width > 0 ? (clientX - rect.left) / rect.width : 0), y: clamp(rect.height > 0 ? (clientY - rect.top) / rect.height : 0) };
}

/** The box between two corners, whichever way the drag went. */
export function boxFromDrag(a: Point, b: Point): Box {
  return rounded({ Left: Math.min(a.x, b.x), Top: Math.min(a.y, b.y), Width: Math.abs(a.x - b.x), Height: Math.abs(a.y - b.y) });
}

export const isBigEnough = (box: Box) => box.Width >= MIN_FACE_BOX && box.Height >= MIN_FACE_BOX;

/** The box the keyboard adds: a third of the frame, in the middle. */
export const centredBox = (): Box => ({ Left: 0.35, Top: 0.3, Width: 0.3, Height: 0.4 });

/** Moves a box, keeping it inside the frame. */
export function moveBox(box: Box, dx: number, dy: number): Box {
  return rounded({ ...box, Left: clamp(box.Left + dx, 0, 1 - box.Width), Top: clamp(box.Top + dy, 0, 1 - box.Height) });
}

/** Grows or shrinks a box from its top-left corner, keeping it inside the frame and not under the minimum. */
export function resizeBox(box: Box, dw: number, dh: number): Box {
  return rounded({ ...box, Width: clamp(box.Width + dw, MIN_FACE_BOX, 1 - box.Left), Height: clamp(box.Height + dh, MIN_FACE_BOX, 1 - box.Top) });
}

/** Arrow keys move, Shift + arrow keys resize; anything else is not ours. */
export function boxAfterKey(box: Box, key: string, shift: boolean): Box | null {
  const step: Record<string, [number, number]> = { ArrowLeft: [-FACE_STEP, 0], ArrowRight: [FACE_STEP, 0], ArrowUp: [0, -FACE_STEP], ArrowDown: [0, FACE_STEP] };
  const delta = step[key];
  if (!delta) return null;
  return shift ? resizeBox(box, delta[0], delta[1]) : moveBox(box, delta[0], delta[1]);
}

/** SPEC §9 Aspects as width / height; the original aspect ("") has none. */
const ASPECTS: Record<string, number> = { "16x9": 16 / 9, "9x16": 9 / 16, "1x1": 1 };
/** The render's punch-in: 1 / 1.15 of the picture (server/domain/framing.ts). */
const PUNCH_IN_ZOOM = 1.15;

/** The middle of the given boxes together, or null for none. */
export function focusOfBoxes(boxes: readonly Box[]): Point | null {
  if (boxes.length === 0) return null;
  const left = Math.min(...boxes.map((b) => b.Left));
  const top = Math.min(...boxes.map((b) => b.Top));
  const right = Math.max(...boxes.map((b) => b.Left + b.Width));
  const bottom = Math.max(...boxes.map((b) => b.Top + b.Height));
  return { x: (left + right) / 2, y: (top + bottom) / 2 };
}

/**
 * Issue 17: the part of the picture a render keeps (as the server frames it at the scene's start): the project's
 * aspect cropped around `focus` when cropping, then the punch-in towards it; null when the whole picture shows.
 */
export function keptPart(frameRatio: number, aspect: string, crop: boolean, punchIn: boolean, focus: Point): Box | null {
  const target = ASPECTS[aspect];
  let w = 1;
  let h = 1;
  if (crop && target && Math.abs(frameRatio / target - 1) >= 0.01) {
    if (frameRatio > target) w = target / frameRatio;
    else h = frameRatio / target;
  }
  if (punchIn) {
    w /= PUNCH_IN_ZOOM;
    h /= PUNCH_IN_ZOOM;
  }
  if (w >= 1 && h >= 1) return null;
  return rounded({ Left: clamp(focus.x - w / 2, 0, 1 - w), Top: clamp(focus.y - h / 2, 0, 1 - h), Width: w, Height: h });
}
