import { describe, expect, it } from "vitest";
import {
  DEFAULT_ANALYSIS_SETTINGS,
  FrameMeter,
  MIN_LEVEL_DB,
  detectSpeech,
  type SilenceAnalysis,
  type TimeRange,
} from "../../server/media/analyze";

const FRAME = DEFAULT_ANALYSIS_SETTINGS.frameSeconds;
/** Exact mechanics: no smoothing, no padding, unless a test says otherwise. */
const BARE = { smoothingSeconds: FRAME, paddingBeforeSeconds: 0, paddingAfterSeconds: 0, maskedTailSecondsPerDb: 0 };
const TOLERANCE = 0.031;

/** Seeded jitter so a "room" is not a flat line. */
function jitter(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648 - 0.5;
  };
}

/** Frame levels from [dBFS, seconds] pieces, each frame jittered by ±spread/2 dB. */
function levels(pieces: [db: number, seconds: number][], spread = 2, seed = 7): Float32Array {
  const noise = jitter(seed);
  const out: number[] = [];
  for (const [db, seconds] of pieces) {
    for (let i = 0; i < Math.round(seconds / FRAME); i++) out.push(db <= MIN_LEVEL_DB ? MIN_LEVEL_DB : db + noise() * spread);
  }
  return Float32Array.from(out);
}

/** Syllables: loud vowels with short consonant dips, as continuous speech has. */
function syllables(seconds: number, loud = -18, dip = -34): [number, number][] {
  const pieces: [number, number][] = [];
  for (let t = 0; t < seconds; t += 0.25) pieces.push([loud, 0.18], [dip, 0.07]);
  return pieces;
}

function expectNear(actual: number | undefined, expected: number, tolerance = TOLERANCE) {
  expect(actual).toBeDefined();
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThanOrEqual(tolerance);
}

function expectPartition(result: SilenceAnalysis) {
  const all: TimeRange[] = [...result.speech, ...result.silences].sort((a, b) => a.start - b.start);
  let cursor = 0;
  for (const range of all) {
    expect(range.start).toBeCloseTo(cursor, 6);
    expect(range.end).toBeGreaterThan(range.start);
    cursor = range.end;
  }
  expect(cursor).toBeCloseTo(result.duration, 6);
}

describe("detectSpeech (frame levels → speech and silences)", () => {
  it("finds speech between pauses and keeps the default padding around it", () => {
    const room = -60;
    const result = detectSpeech(levels([[room, 1], [-20, 2], [room, 1], [-22, 1.5], [room, 1]]));
    const { paddingBeforeSeconds: before, paddingAfterSeconds: after } = DEFAULT_ANALYSIS_SETTINGS;
    expect(result.speech).toHaveLength(2);
    expectNear(result.speech[0]?.start, 1 - before);
    expectNear(result.speech[0]?.end, 3 + after);
    expectNear(result.speech[1]?.start, 4 - before);
    expectNear(result.speech[1]?.end, 5.5 + after);
    expectNear(result.noiseFloorDb, room, 1);
    expect(result.duration).toBeCloseTo(6.5, 6);
    expectPartition(result);
  });

  it("uses hysteresis: speech reaches out while above the leave threshold, but a stretch that never reaches enter is no speech", () => {
    const room = -60;
    const between = room + (DEFAULT_ANALYSIS_SETTINGS.enterAboveFloorDb + DEFAULT_ANALYSIS_SETTINGS.leaveAboveFloorDb) / 2;
    const input = levels([[room, 1], [-20, 1], [between, 0.6], [room, 1.5], [between, 1], [room, 1.5]], 0.5);
    const result = detectSpeech(input, BARE);
    expect(result.speech).toHaveLength(1);
    expectNear(result.speech[0]?.start, 1);
    expectNear(result.speech[0]?.end, 2.6);
  });

  it("joins a soft ending to its word across a dip shorter than the bridge", () => {
    const room = -60;
    const soft = room + DEFAULT_ANALYSIS_SETTINGS.leaveAboveFloorDb + 3;
    const input = levels([[room, 1], [-20, 1], [room, 0.05], [soft, 0.2], [room, 1.5]], 0.5);
    expectNear(detectSpeech(input, BARE).speech[0]?.end, 2.25);
    expectNear(detectSpeech(input, { ...BARE, bridgeSeconds: 0 }).speech[0]?.end, 2);
  });

  it("keeps pauses shorter than the minimum silence and cuts longer ones", () => {
    const room = -60;
    const input = levels([[room, 1], [-20, 1], [room, 0.2], [-20, 1], [room, 0.6], [-20, 1], [room, 1]]);
    const result = detectSpeech(input, { ...BARE, minSilenceSeconds: 0.35 });
    expect(result.speech).toHaveLength(2);
    expectNear(result.speech[0]?.end, 3.2);
    expect(result.silences.map((s) => s.end - s.start).filter((d) => d < 0.9)).toHaveLength(1);
    expectNear(result.silences[1]?.start, 3.2);
    expectNear(result.silences[1]?.end, 3.8);
  });

  it("pads speech on both sides, merges paddings that meet, and stays inside the file", () => {
    const input = levels([[-20, 0.5], [-60, 0.5], [-20, 1], [-60, 2], [-20, 0.5]]);
    const result = detectSpeech(input, { ...BARE, minSilenceSeconds: 0.3, paddingBeforeSeconds: 0.3, paddingAfterSeconds: 0.3 });
    expect(result.speech).toEqual([
      { start: 0, end: 2.3 },
      { start: 3.7, end: 4.5 },
    ]);
    expect(result.silences).toEqual([{ start: 2.3, end: 3.7 }]);
  });

  it("never leaves a cut too short to be worth a jump, in the middle or at the ends", () => {
    const input = levels([[-60, 0.2], [-20, 1], [-60, 0.4], [-20, 1], [-60, 0.25]]);
    const settings = { ...BARE, minSilenceSeconds: 0.35, paddingBeforeSeconds: 0.15, paddingAfterSeconds: 0.2, minCutSeconds: 0.1 };
    // Every pause minus its padding leaves 0.05–0.1 s: no cut anywhere.
    expect(detectSpeech(input, settings).speech).toEqual([{ start: 0, end: 2.85 }]);
    expect(detectSpeech(input, { ...settings, minCutSeconds: 0.01 }).silences).toHaveLength(3);
  });

  it("measures the floor of a noisy room and cuts its pauses (a fixed −40 dB threshold would cut nothing)", () => {
    const room = -38;
    const input = levels([[room, 1.5], ...syllables(2), [room, 1.2], ...syllables(3, -16, -30), [room, 1.5]], 6);
    const result = detectSpeech(input);
    expectNear(result.noiseFloorDb, room - 2, 2);
    expect(result.speech).toHaveLength(2);
    expect(result.silences).toHaveLength(3);
    expect(result.speech[0]?.start).toBeGreaterThan(1.3);
    expect(result.speech[0]?.start).toBeLessThan(1.5);
    // The range is ~20 dB, so the tail padding grows beyond the quiet-room padding.
    expect((result.speech[0]?.end ?? 0) - 3.5).toBeGreaterThan(DEFAULT_ANALYSIS_SETTINGS.paddingAfterSeconds);
    expect((result.speech[0]?.end ?? 0) - 3.5).toBeLessThanOrEqual(DEFAULT_ANALYSIS_SETTINGS.maxPaddingAfterSeconds + TOLERANCE);
    expectPartition(result);
  });

  it("does not let digital silence pull the floor down", () => {
    const result = detectSpeech(levels([[MIN_LEVEL_DB, 3], [-55, 1], [-20, 1], [-55, 1], [-20, 1], [-55, 1]]));
    expectNear(result.noiseFloorDb, -55, 1.5);
    expect(result.speech).toHaveLength(2);
    expectNear(result.silences[0]?.end, 4 - DEFAULT_ANALYSIS_SETTINGS.paddingBeforeSeconds);
  });

  it("ignores a click shorter than the minimum speech length", () => {
    const result = detectSpeech(levels([[-60, 1], [-10, 0.02], [-60, 1], [-20, 1], [-60, 1]]), BARE);
    expect(result.speech).toHaveLength(1);
    expectNear(result.speech[0]?.start, 2.02);
  });

  it("calls a recording of room tone only all silence", () => {
    const result = detectSpeech(levels([[-62, 5]], 3));
    expect(result.speech).toEqual([]);
    expect(result.silences).toEqual([{ start: 0, end: 5 }]);
  });

  it("calls digital silence all silence", () => {
    const result = detectSpeech(levels([[MIN_LEVEL_DB, 2]]));
    expect(result).toEqual({ noiseFloorDb: MIN_LEVEL_DB, speech: [], silences: [{ start: 0, end: 2 }], duration: 2 });
  });

  it("keeps continuous speech whole: its dips are shorter than a pause", () => {
    const result = detectSpeech(levels(syllables(6)));
    expect(result.speech).toEqual([{ start: 0, end: 6 }]);
    expect(result.silences).toEqual([]);
  });

  it("keeps a loud recording of one steady level whole instead of cutting blind", () => {
    const result = detectSpeech(levels([[-20, 4]], 1));
    expect(result.speech).toEqual([{ start: 0, end: 4 }]);
  });

  it("handles empty input", () => {
    expect(detectSpeech([])).toEqual({ noiseFloorDb: MIN_LEVEL_DB, speech: [], silences: [], duration: 0 });
  });

  it("ends on the given duration when the last frame is partial", () => {
    const result = detectSpeech(levels([[-60, 1], [-20, 1]]), BARE, 1.995);
    expect(result.duration).toBe(1.995);
    expect(result.speech.at(-1)?.end).toBe(1.995);
  });
});

describe("FrameMeter (PCM → frame levels)", () => {
  function pcm(values: number[]): Uint8Array {
    const bytes = new Uint8Array(values.length * 2);
    const view = new DataView(bytes.buffer);
    values.forEach((v, i) => view.setInt16(i * 2, v, true));
    return bytes;
  }

  it("measures full scale as 0 dBFS, half scale as −6 dBFS and zeros as the minimum", () => {
    const meter = new FrameMeter(4);
    meter.push(pcm([32767, -32768, 32767, -32768, 16384, -16384, 16384, -16384, 0, 0, 0, 0]));
    const [full = 0, half = 0, zero = 0] = meter.finish();
    expect(full).toBeCloseTo(0, 2);
    expect(half).toBeCloseTo(-6.02, 1);
    expect(zero).toBe(MIN_LEVEL_DB);
  });

  it("gives the same levels whatever the chunk boundaries (odd bytes included)", () => {
    const samples = Array.from({ length: 1000 }, (_, i) => Math.round(Math.sin(i / 7) * (i % 300) * 50));
    const bytes = pcm(samples);
    const whole = new FrameMeter(160);
    whole.push(bytes);
    const pieces = new FrameMeter(160);
    for (let i = 0; i < bytes.length; i += 333) pieces.push(bytes.subarray(i, i + 333));
    expect(Array.from(pieces.finish())).toEqual(Array.from(whole.finish()));
    expect(pieces.samples).toBe(1000);
  });

  it("filters rumble out when asked: a 40 Hz hum drops by 20 dB or more, a 1 kHz tone keeps its level", () => {
    const rate = 16_000;
    const tone = (hz: number) => pcm(Array.from({ length: rate }, (_, i) => Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 16_000)));
    const level = (hz: number, highpassHz?: number) => {
      const meter = new FrameMeter(1600, highpassHz ? { highpassHz, sampleRate: rate } : undefined);
      meter.push(tone(hz));
      return meter.finish().at(-1)!; // the last 0.1 s, after the filter settled
    };
    expect(level(40) - level(40, 200)).toBeGreaterThanOrEqual(20);
    expect(Math.abs(level(1000) - level(1000, 200))).toBeLessThan(0.5);
  });
});
