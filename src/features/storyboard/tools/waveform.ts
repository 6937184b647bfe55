/** The bars a dialog draws of a media file's peaks (GET /media/{id}/waveform): pure, shared with the unit tests. */

/**
 * `count` bars for [start, end] media seconds: each the largest peak of its stretch, scaled so that the
 * file's loudest peak fills the height (a quiet recording still shows its shape), each 0..1. A stretch
 * past the end of the peaks is 0. An empty or silent file gives bars of 0.
 */
export function waveformBars(peaks: readonly number[], perSecond: number, start: number, end: number, count: number): number[] {
  const bars = new Array<number>(Math.max(0, Math.floor(count))).fill(0);
  if (bars.length === 0 || !(end > start) || !(perSecond > 0) || peaks.length === 0) return bars;
  let loudest = 0;
  for (const p of peaks) if (p > loudest) loudest = p;
  if (loudest <= 0) return bars;
  const step = (end - start) / bars.length;
  for (let i = 0; i < bars.length; i++) {
    const from = Math.max(0, Math.floor((start + i * step) * perSecond));
    // Each bar covers at least one peak, so a zoomed-in view is not full of gaps.
    const to = Math.min(peaks.length, Math.max(from + 1, Math.ceil((start + (i + 1) * step) * perSecond)));
    let max = 0;
    for (let j = from; j < to; j++) if (peaks[j]! > max) max = peaks[j]!;
    bars[i] = Math.min(1, max / loudest);
  }
  return bars;
}
