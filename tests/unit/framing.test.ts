import { describe, expect, it } from "vitest";
import type { FaceBox } from "../../api/scenes";
import {
  ASPECT_RATIOS,
  aspectCrop,
  aspectRatio,
  facesUnion,
  focusOf,
  outputSize,
  PUNCH_IN_ZOOM,
  punchIn,
  punchIns,
  sceneFraming,
  WHOLE_FRAME,
} from "../../server/domain/framing";

const face = (Left: number, Top: number, Width: number, Height: number, visibility: 0 | 1 = 1): FaceBox => ({ BoundingBox: { Left, Top, Width, Height }, visibility });
const LIMITS = { maxShortSide: 720, maxLongSide: 1280 };

function expectInside(rect: { x: number; y: number; w: number; h: number }) {
  expect(rect.x).toBeGreaterThanOrEqual(0);
  expect(rect.y).toBeGreaterThanOrEqual(0);
  expect(rect.x + rect.w).toBeLessThanOrEqual(1 + 1e-9);
  expect(rect.y + rect.h).toBeLessThanOrEqual(1 + 1e-9);
}

describe("faces", () => {
  it("joins the shown faces into one box and ignores invisible ones", () => {
    const union = facesUnion([face(0.1, 0.2, 0.1, 0.1), face(0.6, 0.3, 0.2, 0.3), face(0.9, 0.9, 0.1, 0.1, 0)]);
    expect(union?.x).toBeCloseTo(0.1);
    expect(union?.y).toBeCloseTo(0.2);
    expect(union?.w).toBeCloseTo(0.7);
    expect(union?.h).toBeCloseTo(0.4);
  });

  it("centres on the middle of the frame without shown faces", () => {
    expect(facesUnion([])).toBeNull();
    expect(focusOf([])).toEqual({ x: 0.5, y: 0.5 });
    expect(focusOf([face(0.8, 0.8, 0.1, 0.1, 0)])).toEqual({ x: 0.5, y: 0.5 });
  });

  it("keeps a box running past the border inside the frame", () => {
    const union = facesUnion([face(0.95, 0.9, 0.2, 0.3)]);
    expect(union).toMatchObject({ x: 0.95, y: 0.9 });
    expect(union!.x + union!.w).toBeCloseTo(1);
    expect(union!.y + union!.h).toBeCloseTo(1);
  });
});

describe("crop to the project's aspect", () => {
  it("knows the SPEC aspects and nothing else", () => {
    expect(aspectRatio("9x16")).toBeCloseTo(9 / 16);
    expect(aspectRatio("16x9")).toBeCloseTo(16 / 9);
    expect(aspectRatio("1x1")).toBe(1);
    expect(aspectRatio("")).toBeNull();
    expect(aspectRatio("4x3")).toBeNull();
    expect(aspectRatio(undefined)).toBeNull();
  });

  it("cuts a portrait strip out of landscape footage, centred on the faces", () => {
    const rect = aspectCrop(16 / 9, 9 / 16, { x: 0.3, y: 0.5 });
    expect(rect.w).toBeCloseTo(81 / 256);
    expect(rect.h).toBe(1);
    expect(rect.x + rect.w / 2).toBeCloseTo(0.3);
    expectInside(rect);
  });

  it("stops at the border for a face at the edge", () => {
    const left = aspectCrop(16 / 9, 1, { x: 0.02, y: 0.5 });
    expect(left.x).toBe(0);
    const right = aspectCrop(16 / 9, 1, { x: 0.99, y: 0.5 });
    expect(right.x + right.w).toBeCloseTo(1);
    expectInside(right);
    const bottom = aspectCrop(9 / 16, 16 / 9, { x: 0.5, y: 1 });
    expect(bottom.w).toBe(1);
    expect(bottom.y + bottom.h).toBeCloseTo(1);
    expectInside(bottom);
  });

  it("leaves the picture whole when the aspect already matches", () => {
    expect(aspectCrop(16 / 9, ASPECT_RATIOS["16x9"], { x: 0.1, y: 0.1 })).toEqual(WHOLE_FRAME);
    expect(aspectCrop(1280 / 722, 16 / 9, { x: 0.5, y: 0.5 })).toEqual(WHOLE_FRAME);
    expect(sceneFraming({ width: 1280, height: 720, faces: [face(0, 0, 0.1, 0.1)], aspect: 16 / 9, crop: true, zoom: false })).toBeUndefined();
  });
});

describe("punch-in", () => {
  it("zooms 1.15× onto the faces", () => {
    const rect = punchIn(WHOLE_FRAME, { x: 0.48, y: 0.45 });
    expect(rect.w).toBeCloseTo(1 / PUNCH_IN_ZOOM);
    expect(rect.h).toBeCloseTo(1 / PUNCH_IN_ZOOM);
    expect(rect.x + rect.w / 2).toBeCloseTo(0.48);
    expect(rect.y + rect.h / 2).toBeCloseTo(0.45);
  });

  it("stays inside the frame for a face at the border, and centres without faces", () => {
    const corner = punchIn(WHOLE_FRAME, { x: 1, y: 0 });
    expect(corner.x + corner.w).toBeCloseTo(1);
    expect(corner.y).toBe(0);
    expectInside(corner);
    const centred = sceneFraming({ width: 640, height: 360, faces: [], aspect: null, crop: false, zoom: true })!;
    expect(centred.x + centred.w / 2).toBeCloseTo(0.5);
    expect(centred.y + centred.h / 2).toBeCloseTo(0.5);
  });

  it("zooms inside the aspect crop, keeping its shape", () => {
    const faces = [face(0.7, 0.2, 0.1, 0.2)];
    const cropped = aspectCrop(16 / 9, 9 / 16, focusOf(faces));
    const both = sceneFraming({ width: 1280, height: 720, faces, aspect: 9 / 16, crop: true, zoom: true })!;
    expect(both.w).toBeCloseTo(cropped.w / PUNCH_IN_ZOOM);
    expect(both.h).toBeCloseTo(1 / PUNCH_IN_ZOOM);
    expect(both.x).toBeGreaterThanOrEqual(cropped.x - 1e-9);
    expect(both.x + both.w).toBeLessThanOrEqual(cropped.x + cropped.w + 1e-9);
    expect((both.w * 1280) / (both.h * 720)).toBeCloseTo(9 / 16);
  });

  it("pads rather than crops when crop is off: only the zoom remains", () => {
    expect(sceneFraming({ width: 1280, height: 720, faces: [], aspect: 9 / 16, crop: false, zoom: false })).toBeUndefined();
    expect(sceneFraming({ width: 1280, height: 720, faces: [], aspect: 9 / 16, crop: false, zoom: true })!.w).toBeCloseTo(1 / PUNCH_IN_ZOOM);
  });

  it("forces in and out, and zooms every other jump cut when automatic", () => {
    const run = (punchIn: number, source: number | null = 7) => ({ source, punchIn });
    // a a a a b: cuts inside the run of a alternate; b starts a new run.
    expect(punchIns([run(1), run(1), run(1), run(1), run(1, 8)], true)).toEqual([false, true, false, true, false]);
    expect(punchIns([run(1), run(1), run(1)], false)).toEqual([false, false, false]);
    expect(punchIns([run(2), run(1), run(0), run(1)], true)).toEqual([true, false, false, true]);
    expect(punchIns([run(1, null), run(1, null)], true)).toEqual([false, false]);
  });
});

describe("output size", () => {
  it("puts the aspect at the render height, in even pixels", () => {
    expect(outputSize({ width: 1280, height: 720 }, 9 / 16, LIMITS)).toEqual({ width: 406, height: 720 });
    expect(outputSize({ width: 1280, height: 720 }, 1, LIMITS)).toEqual({ width: 720, height: 720 });
    expect(outputSize({ width: 320, height: 240 }, 9 / 16, LIMITS)).toEqual({ width: 136, height: 240 });
    expect(outputSize({ width: 1280, height: 720 }, null, LIMITS)).toEqual({ width: 1280, height: 720 });
  });

  it("stays within 720p for a tall source turned landscape", () => {
    expect(outputSize({ width: 720, height: 1280 }, 16 / 9, LIMITS)).toEqual({ width: 1280, height: 720 });
  });
});
