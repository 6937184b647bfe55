import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { loadRnnoise, MASK_LOW_CUT_HZ, MASK_WINDOW, RNNOISE_DELAY, RNNOISE_FRAME, RnnoiseStream, RnnoiseTransform, rnnoiseWet, SpectralMask } from "../../server/media/denoise";
import { seededRandom } from "../reliability";

/** A voiced-like test signal: harmonics of a gliding pitch, syllable-like bursts, a little hiss. */
function signal(n: number, seed: number): Float32Array {
  const random = seededRandom(seed).next;
  let phase = 0;
  return Float32Array.from({ length: n }, (_, i) => {
    const t = i / 48_000;
    phase += (2 * Math.PI * (120 + 40 * Math.sin(2 * Math.PI * 0.7 * t))) / 48_000;
    const envelope = Math.max(0, Math.sin(2 * Math.PI * 3 * t));
    return envelope * 0.2 * (Math.sin(phase) + 0.5 * Math.sin(2 * phase) + 0.3 * Math.sin(3 * phase)) + 0.01 * (random() * 2 - 1);
  });
}

/** RNNoise frame by frame with nothing around it: what the stream must equal, one frame later. */
async function rawFrames(input: Float32Array): Promise<Float32Array> {
  const module = await loadRnnoise();
  const state = module._rnnoise_create(0);
  const buffer = module._malloc(RNNOISE_FRAME * 4);
  const out = new Float32Array(input.length);
  for (let f = 0; f + RNNOISE_FRAME <= input.length; f += RNNOISE_FRAME) {
    module.HEAPF32.set(input.subarray(f, f + RNNOISE_FRAME).map((v) => v * 32_768), buffer >> 2);
    module._rnnoise_process_frame(state, buffer, buffer);
    out.set(module.HEAPF32.subarray(buffer >> 2, (buffer >> 2) + RNNOISE_FRAME).map((v) => v / 32_768), f);
  }
  module._rnnoise_destroy(state);
  module._free(buffer);
  return out;
}

function interleave(left: Float32Array, right: Float32Array): Float32Array {
  const out = new Float32Array(left.length * 2);
  for (let i = 0; i < left.length; i++) {
    out[2 * i] = left[i] ?? 0;
    out[2 * i + 1] = right[i] ?? 0;
  }
  return out;
}

async function streamed(input: Float32Array, channels: number, sizes: readonly number[], wet = 1): Promise<Float32Array> {
  const stream = new RnnoiseStream(await loadRnnoise(), channels, wet);
  const parts: Float32Array[] = [];
  let at = 0;
  for (let k = 0; at < input.length / channels; k++) {
    const frames = Math.min(sizes[k % sizes.length] ?? 1, input.length / channels - at);
    parts.push(stream.push(input.subarray(at * channels, (at + frames) * channels)));
    at += frames;
  }
  parts.push(stream.end());
  const out = new Float32Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

describe("RNNoise frame plumbing", () => {
  it("gives back exactly as many samples as it got, whatever the chunk sizes", async () => {
    for (const length of [1, 479, 480, 481, 4_800, 12_345]) {
      const out = await streamed(signal(length * 2, length), 2, [37, 480, 1_000, 3]);
      expect(out.length).toBe(length * 2);
    }
  });

  it("lines its output up with its input: RNNoise's one-frame lag and the re-synthesis' lag are removed", async () => {
    const input = signal(48_000, 1);
    const raw = await rawFrames(input);
    const out = await streamed(input, 1, [480]);
    // The stream is RNNoise's gains put back on the input it was given: input sample i beside
    // RNNoise's output for it (RNNOISE_DELAY later), through the re-synthesis, its MASK_HOP lag dropped.
    const mask = new SpectralMask();
    const reference = mask.push(input, Float32Array.from(input, (_, i) => raw[i + RNNOISE_DELAY] ?? 0)).subarray(MASK_WINDOW / 2);
    for (const i of [0, 1_000, 20_000, 40_000]) expect(out[i]).toBeCloseTo(reference[i] ?? 0, 6);
    // Lined up: the output matches the input best at lag 0, not a frame or a hop either side.
    const correlation = (lag: number) => {
      let sum = 0;
      for (let i = 2_000; i < 46_000; i++) sum += (out[i] ?? 0) * (input[i + lag] ?? 0);
      return sum;
    };
    const lags = [-1_024, -480, -1, 0, 1, 480, 1_024];
    const best = lags.reduce((a, b) => (correlation(b) > correlation(a) ? b : a));
    expect(best).toBe(0);
    // And the speech-like bursts survive (it is a denoiser, not a mute).
    const energy = (a: Float32Array) => a.reduce((s, v) => s + v * v, 0);
    expect(energy(out)).toBeGreaterThan(0.05 * energy(input));
  });

  it("does not depend on how the input is cut into chunks", async () => {
    const input = signal(30_000, 5);
    const whole = await streamed(input, 1, [30_000]);
    const ragged = await streamed(input, 1, [1, 7, 479, 481, 960, 13]);
    expect(ragged).toEqual(whole);
  });

  it("denoises each channel on its own", async () => {
    const left = signal(19_200, 11);
    const right = new Float32Array(19_200);
    const stereo = await streamed(interleave(left, right), 2, [700]);
    const mono = await streamed(left, 1, [700]);
    for (let i = 0; i < mono.length; i += 97) {
      expect(stereo[2 * i]).toBeCloseTo(mono[i] ?? 0, 6);
      expect(stereo[2 * i + 1]).toBe(0);
    }
  });

  it("streams f32le bytes cut anywhere (the ffmpeg pipe) to the same samples", async () => {
    const input = interleave(signal(9_600, 21), signal(9_600, 22));
    const expected = await streamed(input, 2, [9_600]);
    const bytes = Buffer.from(input.buffer);
    const cuts = [3, 1_001, 4_096, 5, 20_000];
    const pieces: Buffer[] = [];
    for (let at = 0, k = 0; at < bytes.length; k++) {
      const size = cuts[k % cuts.length] ?? 1;
      pieces.push(bytes.subarray(at, at + size));
      at += size;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of Readable.from(pieces).pipe(new RnnoiseTransform(new RnnoiseStream(await loadRnnoise(), 2)))) chunks.push(chunk as Buffer);
    const out = Buffer.concat(chunks);
    const samples = new Float32Array(out.buffer, out.byteOffset, out.byteLength / 4);
    expect(samples.length).toBe(input.length);
    expect(Array.from(samples)).toEqual(Array.from(expected));
  });

  it("mixes a share of the denoised sound with the rest of the original, lined up", async () => {
    const input = signal(14_400, 31);
    // None of it: the input back (through the re-synthesis, which rebuilds it to float precision).
    const dry = await streamed(input, 1, [333], 0);
    for (let i = 0; i < input.length; i++) expect(dry[i]).toBeCloseTo(input[i] ?? 0, 6);
    const full = await streamed(input, 1, [333], 1);
    const half = await streamed(input, 1, [333], 0.5);
    for (let i = 0; i < input.length; i += 101) expect(half[i]).toBeCloseTo(0.5 * (full[i] ?? 0) + 0.5 * (input[i] ?? 0), 6);
  });
});

describe("how much of RNNoise a render uses", () => {
  it("all of it in a noisy room, none in a quiet one, a mix between", () => {
    expect(rnnoiseWet(5)).toBe(1);
    expect(rnnoiseWet(20)).toBe(1);
    expect(rnnoiseWet(25)).toBeCloseTo(0.5, 6);
    expect(rnnoiseWet(30)).toBe(0);
    expect(rnnoiseWet(45)).toBe(0);
    // Pure digital silence has no room to clean.
    expect(rnnoiseWet(Infinity)).toBe(0);
  });
});

describe("RNNoise's gains put back on the input (SpectralMask)", () => {
  const tone = (hz: number, n: number, amplitude = 0.1) => Float32Array.from({ length: n }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / 48_000));
  const add = (a: Float32Array, b: Float32Array) => a.map((v, i) => v + (b[i] ?? 0));
  /** Through the mask, its MASK_WINDOW / 2 lag dropped (the input padded so all of it comes out). */
  const masked = (input: Float32Array, denoised: Float32Array) => {
    const pad = new Float32Array(MASK_WINDOW);
    const out = new SpectralMask().push(Float32Array.from([...input, ...pad]), Float32Array.from([...denoised, ...pad]));
    return out.subarray(MASK_WINDOW / 2, MASK_WINDOW / 2 + input.length);
  };
  /** Error of `a` against `b` over the middle (no edges), dB relative to b. */
  const errorDb = (a: Float32Array, b: Float32Array) => {
    let e = 0;
    let r = 0;
    for (let i = 4_800; i < b.length - 4_800; i++) {
      e += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
      r += (b[i] ?? 0) ** 2;
    }
    return 10 * Math.log10(e / r);
  };

  it("keeps the input's phase where RNNoise's own high-pass shifts a voice's lowest harmonics", () => {
    const input = signal(48_000, 41);
    // RNNoise's input high-pass (its biquad, b = [1, -2, 1], a = [1, -1.99599, 0.996]).
    let x1 = 0;
    let x2 = 0;
    let y1 = 0;
    let y2 = 0;
    const highPassed = input.map((x) => {
      const y = x - 2 * x1 + x2 + 1.99599 * y1 - 0.996 * y2;
      [x2, x1, y2, y1] = [x1, x, y1, y];
      return y;
    });
    expect(errorDb(highPassed, input)).toBeGreaterThan(-25);
    expect(errorDb(masked(input, highPassed), input)).toBeLessThan(-40);
  });

  it("takes out what RNNoise took out, bin by bin, and leaves the rest as it was", () => {
    const voice = tone(1_000, 48_000);
    const whistle = tone(3_100, 48_000, 0.05);
    const out = masked(add(voice, whistle), voice);
    expect(errorDb(out, voice)).toBeLessThan(-30);
    expect(errorDb(add(voice, whistle), voice)).toBeGreaterThan(-8);
  });

  it(`cuts the rumble under ${MASK_LOW_CUT_HZ} Hz even where RNNoise kept it`, () => {
    const voice = tone(400, 48_000);
    const rumble = tone(25, 48_000, 0.2);
    const both = add(voice, rumble);
    // The rumble is 6 dB over the voice going in and more than 24 dB under it coming out.
    expect(errorDb(both, voice)).toBeGreaterThan(5);
    expect(errorDb(masked(both, both), voice)).toBeLessThan(-18);
  });

  it("gives MASK_WINDOW / 2 samples per half window, whatever the chunk sizes", () => {
    const input = signal(10_000, 43);
    const half = input.map((v) => v * 0.5);
    const whole = new SpectralMask().push(input, half);
    expect(whole.length).toBe(Math.floor(10_000 / (MASK_WINDOW / 2)) * (MASK_WINDOW / 2));
    const mask = new SpectralMask();
    const parts: number[] = [];
    for (const [from, to] of [[0, 7], [7, 3_000], [3_000, 3_001], [3_001, 10_000]] as const) parts.push(...mask.push(input.subarray(from, to), half.subarray(from, to)));
    expect(parts).toEqual(Array.from(whole));
  });
});
