/**
 * Cuts that respect words (issue 14), pure: no I/O. Times are seconds in one media file.
 *
 * - Word-safe margins: where word timings are known, no kept stretch starts or ends inside a word.
 *   A boundary inside a word moves out to the word's edge on the kept side (the word is kept whole);
 *   when a neighbouring stretch of the same file is in the way, it moves to the other edge (the word
 *   is left to that neighbour) rather than overlap it.
 * - Filler cuts: each hesitation the engine reported ("um", "uh"…, `filler` on the word) becomes a
 *   hidden piece of its scene between two shown ones, so the storyboard shows it as a cut that
 *   "restore" brings back.
 */

export interface Span {
  start: number;
  end: number;
}

export interface WordTiming extends Span {
  filler?: boolean;
}

/** Nothing shorter is a piece worth keeping apart (one frame at 25 fps). */
export const MIN_PIECE_SECONDS = 0.04;

const round = (t: number) => Math.round(t * 1000) / 1000;

/** The word a time falls strictly inside of, if any (words sorted or not). */
function wordAround(words: readonly WordTiming[], t: number): WordTiming | undefined {
  return words.find((w) => w.end - w.start > 0 && w.start < t && t < w.end);
}

/**
 * A kept stretch moved so it neither starts nor ends inside a word. `limits`: where it may reach
 * (its neighbours of the same file, the file's length). Unchanged when no word crosses its edges.
 */
export function wordSafeSpan(span: Span, words: readonly WordTiming[], limits: Span): Span {
  let { start, end } = span;
  const first = wordAround(words, start);
  if (first) start = first.start >= limits.start ? first.start : Math.min(first.end, end);
  const last = wordAround(words, end);
  if (last) end = last.end <= limits.end ? last.end : Math.max(last.start, start);
  if (end - start < MIN_PIECE_SECONDS) return span;
  return { start: round(start), end: round(end) };
}

/**
 * Word-safe margins for a file's kept stretches in order (the first storyboard's scenes): each may grow
 * to whole words, never into the next one. Pure; the stretches must be sorted and not overlapping.
 */
export function wordSafeSpans(spans: readonly Span[], words: readonly WordTiming[], duration: number): Span[] {
  const out: Span[] = [];
  spans.forEach((span, i) => {
    const previousEnd = out[i - 1]?.end ?? 0;
    const nextStart = spans[i + 1]?.start ?? duration;
    out.push(wordSafeSpan(span, words, { start: previousEnd, end: nextStart }));
  });
  return out;
}

/** A scene of the storyboard as stored: its media range, its trims and their defaults. */
export interface SceneTrims {
  id: number;
  mediaFileId: number | null;
  start: number;
  end: number;
  trimStart: number;
  trimEnd: number;
  trimStartDefault: number;
  trimEndDefault: number;
}

const same = (a: number, b: number) => Math.abs(a - b) < 1e-6;

/**
 * When words arrive after the storyboard was built (recognition runs after Preview Ready): new edges for
 * the scenes nobody touched (trims at their defaults and at the scene's own edges), word-safe, never
 * reaching into another scene of the same file. Scenes someone trimmed, split or cut are left alone.
 * Answers only the scenes that change; the new edges are their start, end, trims and defaults alike.
 */
export function wordSafeTrimUpdates(scenes: readonly SceneTrims[], wordsOf: (mediaFileId: number) => readonly WordTiming[] | undefined): { id: number; start: number; end: number }[] {
  const updates: { id: number; start: number; end: number }[] = [];
  const files = new Map<number, SceneTrims[]>();
  for (const scene of scenes) if (scene.mediaFileId !== null) files.set(scene.mediaFileId, [...(files.get(scene.mediaFileId) ?? []), scene]);
  for (const [mediaFileId, own] of files) {
    const words = wordsOf(mediaFileId);
    if (!words || words.length === 0) continue;
    // In media order; each scene may reach back to where the one before now ends and on to where the next begins.
    const sorted = [...own].sort((a, b) => a.start - b.start || a.end - b.end);
    let previousEnd = 0;
    sorted.forEach((scene, i) => {
      const untouched =
        same(scene.trimStart, scene.trimStartDefault) && same(scene.trimEnd, scene.trimEndDefault) && same(scene.trimStart, scene.start) && same(scene.trimEnd, scene.end);
      const nextStart = sorted[i + 1]?.start ?? Infinity;
      let end = scene.end;
      if (untouched) {
        const safe = wordSafeSpan({ start: scene.start, end: scene.end }, words, { start: Math.min(previousEnd, scene.start), end: Math.max(nextStart, scene.end) });
        if (!same(safe.start, scene.start) || !same(safe.end, scene.end)) updates.push({ id: scene.id, ...safe });
        end = safe.end;
      }
      previousEnd = Math.max(previousEnd, end);
    });
  }
  return updates;
}

export interface ScenePiece extends Span {
  /** false: a filler cut, hidden until the person restores it. */
  shown: boolean;
}

/**
 * A scene's stretch cut around the fillers inside it: shown pieces with hidden filler pieces between.
 * A filler is cut from its start to its end, widened to the neighbouring words' edges when they are
 * closer than `joinSeconds` (no sliver of a pause is left beside a cut); a shown piece shorter than
 * MIN_PIECE_SECONDS joins the cut. No fillers: the stretch as one shown piece.
 */
export function fillerPieces(span: Span, words: readonly WordTiming[], joinSeconds = 0.1): ScenePiece[] {
  const sorted = [...words].sort((a, b) => a.start - b.start);
  const cuts: Span[] = [];
  sorted.forEach((word, i) => {
    if (!word.filler) return;
    const middle = (word.start + word.end) / 2;
    if (middle < span.start || middle >= span.end) return;
    const before = sorted[i - 1];
    const after = sorted[i + 1];
    let start = Math.max(span.start, word.start);
    let end = Math.min(span.end, word.end);
    if (before && !before.filler && start - before.end < joinSeconds && before.end <= start) start = before.end;
    if (after && !after.filler && after.start - end < joinSeconds && after.start >= end) end = after.start;
    if (start - span.start < MIN_PIECE_SECONDS) start = span.start;
    if (span.end - end < MIN_PIECE_SECONDS) end = span.end;
    const last = cuts.at(-1);
    if (last && start - last.end < MIN_PIECE_SECONDS) last.end = Math.max(last.end, end);
    else if (end - start >= MIN_PIECE_SECONDS) cuts.push({ start, end });
  });
  if (cuts.length === 0) return [{ start: span.start, end: span.end, shown: true }];
  const pieces: ScenePiece[] = [];
  let at = span.start;
  for (const cut of cuts) {
    if (cut.start > at) pieces.push({ start: round(at), end: round(cut.start), shown: true });
    pieces.push({ start: round(cut.start), end: round(cut.end), shown: false });
    at = cut.end;
  }
  if (span.end > at) pieces.push({ start: round(at), end: round(span.end), shown: true });
  return pieces;
}
