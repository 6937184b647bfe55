import { describe, expect, it } from "vitest";
import { PeakMeter, scalePeak } from "../../server/media/waveform";
import { waveformBars } from "../../src/features/storyboard/tools/waveform";

/** Issue 14: the waveform's peaks (server: max-abs of s16le per window) and the bars the dialogs draw of them. */
const pcm = (samples: number[]) => {
  const buffer = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => buffer.writeInt16LE(s, i * 2));
  return buffer;
};

describe("scalePeak", () => {
  it("scales a max-abs sample to 0..1 of full scale, to three decimals", () => {
    expect(scalePeak(0)).toBe(0);
    expect(scalePeak(16384)).toBe(0.5);
    expect(scalePeak(32767)).toBe(1);
    expect(scalePeak(32768)).toBe(1);
    expect(scalePeak(328)).toBe(0.01);
  });
});

describe("PeakMeter", () => {
  it("takes the largest magnitude of each window, negative samples included", () => {
    const meter = new PeakMeter(4);
    meter.push(pcm([100, -200, 50, 0, 16384, -32768, 3, 4, -8192]));
    expect(meter.finish()).toEqual([scalePeak(200), 1, 0.25]);
  });

  it("reads a sample split across two chunks", () => {
    const whole = pcm([1000, -16384, 8192, -3]);
    const meter = new PeakMeter(2);
    meter.push(whole.subarray(0, 3));
    meter.push(whole.subarray(3, 5));
    meter.push(whole.subarray(5));
    expect(meter.samples).toBe(4);
    expect(meter.finish()).toEqual([0.5, 0.25]);
  });

  it("gives nothing for no samples", () => {
    expect(new PeakMeter(160).finish()).toEqual([]);
  });
});

describe("waveformBars", () => {
  const peaks = [0.1, 0.2, 0.05, 0.4, 0, 0, 0.2, 0.1]; // 4 a second: 2 s

  it("scales so the file's loudest peak fills the height", () => {
    expect(waveformBars(peaks, 4, 0, 2, 4)).toEqual([0.5, 1, 0, 0.5]);
  });

  it("shows only the scene's stretch of the file", () => {
    expect(waveformBars(peaks, 4, 1, 2, 2)).toEqual([0, 0.5]);
  });

  it("covers at least one peak per bar when zoomed in", () => {
    expect(waveformBars(peaks, 4, 0, 0.5, 4)).toEqual([0.25, 0.25, 0.5, 0.5]);
  });

  it("is flat for silence, no peaks, past the end or an empty range", () => {
    expect(waveformBars([0, 0, 0], 4, 0, 1, 3)).toEqual([0, 0, 0]);
    expect(waveformBars([], 50, 0, 1, 3)).toEqual([0, 0, 0]);
    expect(waveformBars(peaks, 4, 3, 4, 2)).toEqual([0, 0]);
    expect(waveformBars(peaks, 4, 1, 1, 2)).toEqual([0, 0]);
  });
});
