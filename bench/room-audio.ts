/**
 * The sound side of the generated talks (bench:pipeline's bench talk and the unseen talks of bench/talks.ts):
 * espeak-ng WAVs read as samples, trimmed and levelled, laid over a seeded room tone, written back as WAV.
 */

const INT16_MAX = 32_767;
const WAV_HEADER_BYTES = 44;
/** Where an utterance starts and ends: the first and last sample above ≈ −66 dBFS (espeak's silence is below). */
const TRIM_THRESHOLD = 16;

export type NoiseColour = "white" | "pink" | "brown";

/** A 16-bit mono WAV's samples (the data chunk wherever it is; espeak-ng's header is the plain 44 bytes). */
export function readWavSamples(bytes: Buffer): Int16Array {
  const dataAt = bytes.indexOf("data", 0, "latin1");
  const start = dataAt >= 0 ? dataAt + 8 : WAV_HEADER_BYTES;
  const copy = Buffer.from(bytes.subarray(start, start + ((bytes.length - start) & ~1)));
  return new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2);
}

/** An utterance without the silence at its ends, scaled by `gain`. */
export function trimSilence(samples: Int16Array, gain: number): Int16Array {
  let first = 0;
  let last = samples.length - 1;
  while (first < last && Math.abs(samples[first] ?? 0) <= TRIM_THRESHOLD) first++;
  while (last > first && Math.abs(samples[last] ?? 0) <= TRIM_THRESHOLD) last--;
  return samples.subarray(first, last + 1).map((s) => Math.round(s * gain));
}

/** White; pink (Paul Kellet's economy filter); brown (leaky integrated white: rumble). Seeded. */
export function colouredNoise(length: number, colour: NoiseColour, random: () => number): Float32Array {
  const out = new Float32Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let brown = 0;
  for (let i = 0; i < length; i++) {
    const white = random() * 2 - 1;
    if (colour === "white") out[i] = white;
    else if (colour === "pink") {
      b0 = 0.99765 * b0 + white * 0.099046;
      b1 = 0.963 * b1 + white * 0.2965164;
      b2 = 0.57 * b2 + white * 1.0526913;
      out[i] = b0 + b1 + b2 + white * 0.1848;
    } else {
      brown = 0.995 * brown + white * 0.1;
      out[i] = brown;
    }
  }
  return out;
}

function rms(values: Float32Array): number {
  let sum = 0;
  for (const v of values) sum += v * v;
  return Math.sqrt(sum / Math.max(1, values.length));
}

/** `total` samples: the voice (shorter is padded with silence) over room tone of a colour at `roomDb` dBFS RMS. */
export function mixRoom(voice: Int16Array, total: number, roomDb: number, colour: NoiseColour, random: () => number): Int16Array {
  const noise = colouredNoise(total, colour, random);
  const gain = (INT16_MAX * 10 ** (roomDb / 20)) / rms(noise);
  const out = new Int16Array(total);
  for (let i = 0; i < total; i++) out[i] = Math.max(-INT16_MAX, Math.min(INT16_MAX, Math.round((voice[i] ?? 0) + (noise[i] ?? 0) * gain)));
  return out;
}

/** A 16-bit mono PCM WAV file. */
export function wavFile(samples: Int16Array, sampleRate: number): Buffer {
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  const dataBytes = samples.length * 2;
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, dataBytes)]);
}
