/**
 * Scale-invariant signal-to-distortion ratio (SI-SDR, Le Roux et al. 2019): how much of an estimate
 * is the clean reference (at whatever gain) against everything else, in dB. Both are made zero-mean;
 * the reference is scaled by the projection of the estimate onto it. A gain change leaves it alone,
 * so a denoiser is scored on what it removes and what it damages, not on its level.
 */
export function siSdr(estimate: Float32Array, reference: Float32Array): number {
  const n = Math.min(estimate.length, reference.length);
  if (n === 0) throw new Error("SI-SDR of nothing");
  let meanE = 0;
  let meanR = 0;
  for (let i = 0; i < n; i++) {
    meanE += estimate[i] ?? 0;
    meanR += reference[i] ?? 0;
  }
  meanE /= n;
  meanR /= n;
  let dot = 0;
  let energy = 0;
  for (let i = 0; i < n; i++) {
    const r = (reference[i] ?? 0) - meanR;
    dot += ((estimate[i] ?? 0) - meanE) * r;
    energy += r * r;
  }
  if (energy === 0) throw new Error("SI-SDR against a silent reference");
  const alpha = dot / energy;
  let target = 0;
  let residual = 0;
  for (let i = 0; i < n; i++) {
    const t = alpha * ((reference[i] ?? 0) - meanR);
    const e = (estimate[i] ?? 0) - meanE - t;
    target += t * t;
    residual += e * e;
  }
  if (residual === 0) return Infinity;
  return 10 * Math.log10(target / residual);
}

/** RMS level in dBFS of samples in ±1. */
export function rmsDb(samples: Float32Array, from = 0, to = samples.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (samples[i] ?? 0) ** 2;
  return 10 * Math.log10(sum / Math.max(1, to - from) + 1e-20);
}
