import { describe, expect, it } from "vitest";
import { snappingOff, snapTargets, snapTime } from "../../src/features/storyboard/tools/snap";

/** Issue 14: trim and split markers snap to word edges and silences; a modifier key turns it off. */
const words = [
  { start: 1.0, end: 1.4 },
  { start: 1.5, end: 2.1 },
  { start: 3.0, end: 3.3 },
];
const silences = [{ start: 2.2, end: 2.9 }];
const targets = snapTargets(words, silences, 0, 10);

describe("snapTargets", () => {
  it("lists every word and silence edge within the range, in time order", () => {
    expect(targets.map((t) => [t.time, t.kind])).toEqual([
      [1.0, "word-start"],
      [1.4, "word-end"],
      [1.5, "word-start"],
      [2.1, "word-end"],
      [2.2, "silence-start"],
      [2.9, "silence-end"],
      [3.0, "word-start"],
      [3.3, "word-end"],
    ]);
  });

  it("leaves out edges outside the range (another scene's words)", () => {
    expect(snapTargets(words, silences, 1.45, 2.5).map((t) => t.time)).toEqual([1.5, 2.1, 2.2]);
  });

  it("puts a word's edge before a silence's edge at the same time", () => {
    expect(snapTargets([{ start: 2, end: 3 }], [{ start: 1, end: 2 }], 0, 5).map((t) => [t.time, t.kind])).toEqual([
      [1, "silence-start"],
      [2, "word-start"],
      [2, "silence-end"],
      [3, "word-end"],
    ]);
  });
});

describe("snapTime", () => {
  it("snaps to the nearest word edge within the threshold", () => {
    expect(snapTime(1.46, targets, { threshold: 0.1, enabled: true })).toEqual({ time: 1.5, target: { time: 1.5, kind: "word-start" } });
    expect(snapTime(1.43, targets, { threshold: 0.1, enabled: true }).time).toBe(1.4);
    expect(snapTime(3.34, targets, { threshold: 0.1, enabled: true }).target?.kind).toBe("word-end");
  });

  it("snaps to a silence's edge when it is the nearest", () => {
    expect(snapTime(2.25, targets, { threshold: 0.1, enabled: true })).toEqual({ time: 2.2, target: { time: 2.2, kind: "silence-start" } });
    expect(snapTime(2.85, targets, { threshold: 0.1, enabled: true }).time).toBe(2.9);
  });

  it("leaves the marker where it is when nothing is within the threshold", () => {
    expect(snapTime(2.55, targets, { threshold: 0.1, enabled: true })).toEqual({ time: 2.55, target: null });
    expect(snapTime(5, targets, { threshold: 0.5, enabled: true })).toEqual({ time: 5, target: null });
  });

  it("does not snap with the modifier held (snapping off), however near an edge", () => {
    expect(snapTime(1.46, targets, { threshold: 0.1, enabled: false })).toEqual({ time: 1.46, target: null });
    expect(snapTime(1.0001, targets, { threshold: 1, enabled: false }).time).toBe(1.0001);
  });

  it("prefers a word's edge to a silence's edge at the same distance", () => {
    const tie = snapTargets([{ start: 2.0, end: 2.5 }], [{ start: 1.0, end: 1.8 }], 0, 5);
    expect(snapTime(1.9, tie, { threshold: 0.2, enabled: true }).target).toEqual({ time: 2.0, kind: "word-start" });
  });

  it("a zero threshold never moves the marker", () => {
    expect(snapTime(1.41, targets, { threshold: 0, enabled: true }).time).toBe(1.41);
  });
});

describe("snappingOff", () => {
  it("is Alt or Shift", () => {
    expect(snappingOff({ altKey: true })).toBe(true);
    expect(snappingOff({ shiftKey: true })).toBe(true);
    expect(snappingOff({ altKey: false, shiftKey: false })).toBe(false);
    expect(snappingOff({})).toBe(false);
  });
});
