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
