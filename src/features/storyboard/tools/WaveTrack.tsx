import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type RefObject } from "react";
import { SliderTrack } from "react-aria-components";
import { useDrag } from "@use-gesture/react";
import { useLiveQuery } from "dexie-react-hooks";
import { Trans } from "@lingui/react/macro";
import type { Waveform, Word } from "../../../../api/subtitles";
import { db } from "../../../db";
import { worker } from "../../../worker";
import { SNAP_PIXELS, snappingOff, snapTargets, snapTime } from "./snap";
import { waveformBars } from "./waveform";

/** Shift + an arrow key moves a marker this far (the arrow keys alone: one hundredth of a second). */
export const COARSE_STEP = 0.25;

/** A file's waveform from the mirror, fetched once by the sync worker; `failed` when it could not be had (offline). */
export function useWaveform(mediaFileId: number | null): { waveform: Waveform | null; failed: boolean } {
  const [failed, setFailed] = useState(false);
  const row = useLiveQuery(async () => (mediaFileId === null ? null : ((await db.meta.get(`waveform:${mediaFileId}`)) ?? null)), [mediaFileId]);
  useEffect(() => {
    if (mediaFileId === null) return;
    let live = true;
    void worker.loadWaveform(mediaFileId).then((result) => {
      if (live) setFailed(!result.ok);
    });
    return () => {
      live = false;
    };
  }, [mediaFileId]);
  const waveform = row && row.key === `waveform:${mediaFileId}` ? (row.value as Waveform) : null;
  return { waveform, failed: failed && !waveform };
}

export interface WaveTrackProps {
  waveform: Waveform | null;
  /** The waveform could not be had (offline before it was ever fetched): the track works without it. */
  waveformFailed?: boolean;
  /** The words of the scene's file (media seconds); those within [from, to] are shown and snapped to. */
  words: readonly Word[];
  /** The stretch of the file the track spans (media seconds). */
  from: number;
  to: number;
  /** The markers' times (media seconds), in thumb order. */
  markers: readonly number[];
  /** A marker dragged (snapped unless Alt or Shift is held) or moved by Shift + arrow keys; the form applies its rules. */
  onMove: (index: number, time: number) => void;
  /** A marker's new place (dragged, or moved by Shift + arrows), to play a snippet of sound there. */
  onScrub?: (time: number) => void;
  isDisabled?: boolean;
  /** The track's overlays and the SliderThumbs, as the form draws them. */
  children: ReactNode;
}

/**
 * Issue 14: the track of the trim and split sliders drawn over the scene's waveform, with its words under it.
 * Pointer drags go through @use-gesture (captured before react-aria's own, so the marker can snap to word and
 * silence edges); the keyboard stays react-aria's (arrows, Page Up/Down, Home/End) plus Shift + arrows.
 */
export function WaveTrack({ waveform, waveformFailed, words, from, to, markers, onMove, onScrub, isDisabled, children }: WaveTrackProps) {
  const area = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const span = Math.max(to - from, 1e-6);

  useTrackWidth(area, setWidth);

  const shown = useMemo(() => words.filter((w) => w.end > from && w.start < to), [words, from, to]);
  const spoken = shown.map((w) => w.text).join(" ");
  const targets = useMemo(() => snapTargets(shown, waveform?.silences ?? [], from, to), [shown, waveform, from, to]);
  const bars = useMemo(
    () => (waveform && width > 0 ? waveformBars(waveform.peaks, waveform.per_second, from, to, Math.max(1, Math.floor(width / 3))) : []),
    [waveform, width, from, to],
  );
  const pct = (time: number) => ((Math.min(Math.max(time, from), to) - from) / span) * 100;

  const bind = useDrag(
    ({ first, xy: [x], event, memo }) => {
      const track = area.current?.querySelector<HTMLElement>(".wave-track");
      if (!track || isDisabled) return memo;
      const rect = track.getBoundingClientRect();
      if (rect.width <= 0) return memo;
      const raw = from + Math.min(Math.max((x - rect.left) / rect.width, 0), 1) * span;
      // The marker nearest to where the pointer went down is the one dragged, for the whole drag.
      let index = memo as number | undefined;
      if (first || index === undefined) {
        index = 0;
        markers.forEach((m, i) => {
          if (Math.abs(m - raw) < Math.abs(markers[index!]! - raw)) index = i;
        });
        track.querySelectorAll<HTMLInputElement>("input")[index]?.focus({ preventScroll: true });
      }
      const snapped = snapTime(raw, targets, { threshold: (SNAP_PIXELS / rect.width) * span, enabled: !snappingOff(event as globalThis.PointerEvent) });
      onMove(index, snapped.time);
      onScrub?.(snapped.time);
      return index;
    },
    { eventOptions: { capture: true }, pointer: { keys: false } },
  );
  const handlers = bind();

  function keyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!event.shiftKey || isDisabled) return;
    const direction = event.key === "ArrowRight" || event.key === "ArrowUp" ? 1 : event.key === "ArrowLeft" || event.key === "ArrowDown" ? -1 : 0;
    const inputs = [...(area.current?.querySelectorAll<HTMLInputElement>(".wave-track input") ?? [])];
    const index = inputs.indexOf(event.target as HTMLInputElement);
    if (direction === 0 || index < 0) return;
    event.preventDefault();
    event.stopPropagation();
    const time = Math.min(Math.max(markers[index]! + direction * COARSE_STEP, from), to);
    onMove(index, time);
    onScrub?.(time);
  }

  return (
    <div
      ref={area}
      className="wave-area"
      {...handlers}
      onPointerDownCapture={(event: PointerEvent<HTMLDivElement>) => {
        // Only a press on the track drags (not one on the text under it).
        if (!(event.target instanceof Element) || !event.target.closest(".wave-track")) return;
        handlers.onPointerDownCapture?.(event);
        // react-aria would move the thumb too: the drag is ours.
        event.stopPropagation();
      }}
      onKeyDownCapture={keyDown}
    >
      <SliderTrack className="trim-track wave-track">
        <WavePeaks bars={bars} />
        {children}
        <WaveWords words={shown} pct={pct} />
      </SliderTrack>
      {spoken && (
        <p className="visually-hidden">
          <Trans>Words: {spoken}</Trans>
        </p>
      )}
      {waveformFailed && (
        <p className="field-description wave-missing">
          <Trans>The waveform could not be loaded (are you offline?). The markers still work.</Trans>
        </p>
      )}
    </div>
  );
}

/** Follows the width of the `.wave-track` inside `area` (the waveform has a bar every 3 px). */
function useTrackWidth(area: RefObject<HTMLDivElement | null>, setWidth: (width: number) => void) {
  useLayoutEffect(() => {
    const element = area.current?.querySelector<HTMLElement>(".wave-track");
    if (!element) return;
    const measure = () => setWidth(element.getBoundingClientRect().width);
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [area, setWidth]);
}

function WavePeaks({ bars }: { bars: readonly number[] }) {
  return (
    <svg className="wave-peaks" viewBox={`0 0 ${Math.max(bars.length, 1)} 100`} preserveAspectRatio="none" aria-hidden="true">
      {bars.map((bar, i) => {
        const height = Math.max(bar * 96, 1.5);
        return <rect key={i} x={i + 0.15} width={0.7} y={50 - height / 2} height={height} />;
      })}
    </svg>
  );
}

/** The words under the waveform, each as wide as it is long (a screen reader gets them as one sentence instead). */
function WaveWords({ words, pct }: { words: readonly Word[]; pct: (time: number) => number }) {
  return (
    <div className="wave-words" aria-hidden="true">
      {words.map((w, i) => (
        <span key={i} className="wave-word" style={{ left: `${pct(w.start)}%`, width: `${pct(w.end) - pct(w.start)}%` }} title={w.text}>
          {w.text}
        </span>
      ))}
    </div>
  );
}

/**
 * The scissors' view (split by text line): the scene's waveform and words with the cut drawn where the chosen
 * line starts. Nothing to drag: the cut goes before a line.
 */
export function WaveStrip({ waveform, words, from, to, cut }: { waveform: Waveform | null; words: readonly Word[]; from: number; to: number; cut: number | null }) {
  const area = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useTrackWidth(area, setWidth);
  const span = Math.max(to - from, 1e-6);
  const pct = (time: number) => ((Math.min(Math.max(time, from), to) - from) / span) * 100;
  const shown = useMemo(() => words.filter((w) => w.end > from && w.start < to), [words, from, to]);
  const bars = useMemo(
    () => (waveform && width > 0 ? waveformBars(waveform.peaks, waveform.per_second, from, to, Math.max(1, Math.floor(width / 3))) : []),
    [waveform, width, from, to],
  );
  return (
    <div ref={area} className="wave-area" aria-hidden="true">
      <div className="trim-track wave-track wave-strip">
        <WavePeaks bars={bars} />
        {cut !== null && <div className="wave-cut" style={{ left: `${pct(cut)}%` }} />}
        <WaveWords words={shown} pct={pct} />
      </div>
    </div>
  );
}
