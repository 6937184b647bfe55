import { describe, expect, it } from "vitest";
import { rmsDb, siSdr } from "../../bench/sound-metrics";
import { seededRandom } from "../reliability";

function tone(n: number, hz: number, rate = 48_000): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));
}

function noise(n: number, seed: number): Float32Array {
  const random = seededRandom(seed).next;
  return Float32Array.from({ length: n }, () => random() * 2 - 1);
}

describe("SI-SDR", () => {
  it("is the signal-to-noise ratio of a reference plus uncorrelated noise", () => {
    const reference = tone(48_000, 440);
    const n = noise(48_000, 7);
    // Noise scaled to 10 dB below the tone's power.
    const scale = Math.sqrt(10 ** ((rmsDb(reference) - 10) / 10) / 10 ** (rmsDb(n) / 10));
    const mix = reference.map((v, i) => v + (n[i] ?? 0) * scale);
    expect(siSdr(mix, reference)).toBeCloseTo(10, 0);
  });
  it("ignores the estimate's gain and DC offset", () => {
    const reference = tone(48_000, 300);
    const n = noise(48_000, 9);
    const mix = reference.map((v, i) => v + 0.05 * (n[i] ?? 0));
    const louder = mix.map((v) => 3 * v + 0.2);
    expect(siSdr(louder, reference)).toBeCloseTo(siSdr(mix, reference), 6);
  });
  it("is infinite for a perfect estimate and very low for an unrelated one", () => {
    const reference = tone(4_800, 500);
    expect(siSdr(reference.map((v) => v * 0.5), reference)).toBe(Infinity);
    expect(siSdr(noise(4_800, 3), reference)).toBeLessThan(-15);
  });
  it("refuses a silent reference", () => {
    expect(() => siSdr(tone(480, 100), new Float32Array(480))).toThrow();
  });
});
