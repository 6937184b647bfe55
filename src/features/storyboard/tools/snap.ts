/**
 * Where the trim and split markers come to rest (issue 14): on a word's edge or a silence's edge when one is
 * near, so a cut falls between words rather than inside one. Pure: the dialogs and the unit tests share it.
 */

export type SnapKind = "word-start" | "word-end" | "silence-start" | "silence-end";

export interface SnapTarget {
  /** Media seconds. */
  time: number;
  kind: SnapKind;
}

interface Span {
  start: number;
  end: number;
}

/** The edges of the words and silences that fall within [from, to] (media seconds), sorted by time. */
export function snapTargets(words: readonly Span[], silences: readonly Span[], from: number, to: number): SnapTarget[] {
  const targets: SnapTarget[] = [];
  const add = (time: number, kind: SnapKind) => {
    if (time >= from && time <= to) targets.push({ time, kind });
  };
  for (const w of words) {
    add(w.start, "word-start");
    add(w.end, "word-end");
  }
  for (const s of silences) {
    add(s.start, "silence-start");
    add(s.end, "silence-end");
  }
  // Word edges first among equal times: a word's edge names the cut more precisely than the silence around it.
  const rank = (k: SnapKind) => (k.startsWith("word") ? 0 : 1);
  return targets.sort((a, b) => a.time - b.time || rank(a.kind) - rank(b.kind));
}

export interface SnapOptions {
  /** Farthest a marker is pulled, in seconds (the dialogs turn a few pixels of the track into seconds). */
  threshold: number;
  /** False while the person holds the modifier key: the marker goes exactly where the pointer is. */
  enabled: boolean;
}

/**
 * The marker's time after snapping: the nearest target within `threshold` (a word edge wins a tie), or the
 * time itself when snapping is off or nothing is near. `target` says what it snapped to.
 */
export function snapTime(time: number, targets: readonly SnapTarget[], options: SnapOptions): { time: number; target: SnapTarget | null } {
  if (!options.enabled || !(options.threshold > 0)) return { time, target: null };
  let best: SnapTarget | null = null;
  let bestDistance = Infinity;
  for (const target of targets) {
    const distance = Math.abs(target.time - time);
    const better = distance < bestDistance - 1e-9 || (Math.abs(distance - bestDistance) <= 1e-9 && best !== null && !best.kind.startsWith("word") && target.kind.startsWith("word"));
    if (distance <= options.threshold && better) {
      best = target;
      bestDistance = distance;
    }
  }
  return best ? { time: best.time, target: best } : { time, target: null };
}

/** Pixels of the track within which a dragged marker snaps. */
export const SNAP_PIXELS = 10;

/** Whether a pointer event asks for no snapping: Alt or Shift held. */
export const snappingOff = (event: { altKey?: boolean; shiftKey?: boolean }) => Boolean(event.altKey || event.shiftKey);
