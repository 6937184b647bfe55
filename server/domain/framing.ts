/** SPEC §3 Framing: punch-in and crop to the project's aspect, as rectangles of the source picture. Pure. */

import type { FaceBox } from "../../api/scenes";

/** A part of a picture in fractions (0…1) of its width and height. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Point {
  x: number;
  y: number;
}

export type Aspect = "" | "16x9" | "9x16" | "1x1";

export const WHOLE_FRAME: Readonly<Rect> = Object.freeze({ x: 0, y: 0, w: 1, h: 1 });
/** A punch-in crops to 1 / 1.15 of the picture and scales it back up. */
export const PUNCH_IN_ZOOM = 1.15;
/** SPEC §9 Aspects, as width / height; the original aspect ("") has none. */
export const ASPECT_RATIOS: Readonly<Record<Exclude<Aspect, "">, number>> = Object.freeze({ "16x9": 16 / 9, "9x16": 9 / 16, "1x1": 1 });
/** Two aspects this close are the same picture (a pixel of rounding), so nothing is cropped or padded. */
const SAME_ASPECT = 0.01;

export function aspectRatio(aspect: string | null | undefined): number | null {
  return aspect && Object.hasOwn(ASPECT_RATIOS, aspect) ? ASPECT_RATIOS[aspect as Exclude<Aspect, "">] : null;
}

export function sameAspect(a: number, b: number): boolean {
  return Math.abs(a / b - 1) < SAME_ASPECT;
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));

/** The box around every shown face (invisible ones are ignored), or null when none is shown. */
export function facesUnion(faces: readonly FaceBox[]): Rect | null {
  const shown = faces.filter((f) => f.visibility === 1);
  if (shown.length === 0) return null;
  const left = Math.min(...shown.map((f) => clamp(f.BoundingBox.Left, 0, 1)));
  const top = Math.min(...shown.map((f) => clamp(f.BoundingBox.Top, 0, 1)));
  const right = Math.max(...shown.map((f) => clamp(f.BoundingBox.Left + f.BoundingBox.Width, 0, 1)));
  const bottom = Math.max(...shown.map((f) => clamp(f.BoundingBox.Top + f.BoundingBox.Height, 0, 1)));
  return { x: left, y: top, w: right - left, h: bottom - top };
}

/** Where framing centres: the middle of the shown faces, else the middle of the frame. */
export function focusOf(faces: readonly FaceBox[]): Point {
  const union = facesUnion(faces);
  return union ? { x: union.x + union.w / 2, y: union.y + union.h / 2 } : { x: 0.5, y: 0.5 };
}

/** The largest part of a `sourceAspect` picture that has `targetAspect`, centred on `focus` as far as the frame allows. */
export function aspectCrop(sourceAspect: number, targetAspect: number, focus: Point): Rect {
  if (sameAspect(sourceAspect, targetAspect)) return { ...WHOLE_FRAME };
  if (sourceAspect > targetAspect) {
    const w = targetAspect / sourceAspect;
    return { x: clamp(focus.x - w / 2, 0, 1 - w), y: 0, w, h: 1 };
  }
  const h = sourceAspect / targetAspect;
  return { x: 0, y: clamp(focus.y - h / 2, 0, 1 - h), w: 1, h };
}

/** A `zoom`× punch-in inside `within` (same shape), centred on `focus` as far as `within` allows. */
export function punchIn(within: Rect, focus: Point, zoom = PUNCH_IN_ZOOM): Rect {
  const w = within.w / zoom;
  const h = within.h / zoom;
  return {
    x: clamp(focus.x - w / 2, within.x, within.x + within.w - w),
    y: clamp(focus.y - h / 2, within.y, within.y + within.h - h),
    w,
    h,
  };
}

export interface SceneFramingInput {
  /** The source picture's display size. */
  width: number;
  height: number;
  faces: readonly FaceBox[];
  /** The output's aspect (width / height), or null for the original. */
  aspect: number | null;
  /** Crop to the aspect (autocrop, or the scene's own crop); otherwise the picture is padded. */
  crop: boolean;
  zoom: boolean;
}

/** The part of the source a scene shows; undefined for the whole frame. */
export function sceneFraming(input: SceneFramingInput): Rect | undefined {
  const focus = focusOf(input.faces);
  let rect: Rect = { ...WHOLE_FRAME };
  if (input.aspect && input.crop && input.width > 0 && input.height > 0) rect = aspectCrop(input.width / input.height, input.aspect, focus);
  if (input.zoom) rect = punchIn(rect, focus);
  return rect.w >= 1 && rect.h >= 1 ? undefined : rect;
}

/**
 * Which scenes zoom in: forced in (2) always, forced out (0) never, and auto (1) with automatic
 * punch-in on at every other jump cut — a scene from the same source as the one before it, when
 * that one was not zoomed. `source` is null for a scene that cannot make a jump cut (a still).
 */
export function punchIns(scenes: readonly { source: number | null; punchIn: number }[], autoPunchIn: boolean): boolean[] {
  const zoomed: boolean[] = [];
  scenes.forEach((scene, i) => {
    const before = scenes[i - 1];
    const jumpCut = scene.source !== null && before?.source === scene.source;
    if (scene.punchIn === 2) zoomed.push(true);
    else if (scene.punchIn === 0) zoomed.push(false);
    else zoomed.push(autoPunchIn && jumpCut && !zoomed[i - 1]);
  });
  return zoomed;
}

export interface Size {
  width: number;
  height: number;
}

/**
 * The output size for an aspect: that aspect at the render height (9x16 of 1280×720 is 406×720),
 * shrunk to stay within the render's limits, in even pixels.
 */
export function outputSize(canvas: Size, aspect: number | null, limits: { maxShortSide: number; maxLongSide: number }): Size {
  if (!aspect) return canvas;
  const width = canvas.height * aspect;
  const height = canvas.height;
  const scale = Math.min(1, limits.maxShortSide / Math.min(width, height), limits.maxLongSide / Math.max(width, height));
  return { width: even(width * scale), height: even(height * scale) };
}

function even(value: number): number {
  return Math.max(2, 2 * Math.round(value / 2));
}
