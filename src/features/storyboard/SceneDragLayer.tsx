import { memo, useEffect, useRef, useState, type RefObject } from "react";
import { createPortal } from "react-dom";
import { useDrag } from "@use-gesture/react";
import { CARD_HEIGHT, JOINT_HEIGHT, ROW_HEIGHT } from "./layout";
import { autoScrollSpeed, gapAt, GRID_GAP, type GridGeometry } from "./model";

export interface SceneDragLayerProps {
  enabled: boolean;
  /** The grid: the gesture listens on it, and the drop line is drawn in it. */
  listRef: RefObject<HTMLElement | null>;
  geometry: GridGeometry;
  /** The card `sceneId` was dropped into gap `gap` of the listed cards (0 = before the first). */
  onDrop: (sceneId: number, gap: number) => void;
  onDraggingChange: (sceneId: number | null) => void;
}

interface Session {
  sceneId: number;
  card: HTMLElement | null;
  startScroll: number;
  x: number;
  y: number;
  mx: number;
  my: number;
  gap: number | null;
  frame: number;
  last: number;
}

/** The card moves with the pointer (and with the page while it auto-scrolls), outside React. */
const moveCard = (card: HTMLElement | null, dx: number, dy: number) => {
  if (card) card.style.transform = dx || dy ? `translate3d(${dx}px, ${dy}px, 0)` : "";
};

/**
 * Drag to reorder (SPEC §2). One gesture on the whole grid, bound to the element rather than through
 * props, so the grid's re-renders while scrolling cost nothing here and a card scrolled out of the
 * virtual window does not end the drag. A mouse drags from anywhere on a card but its buttons; a
 * finger from the picture (the rest of the card still scrolls the page). Near the viewport's top or
 * bottom the page scrolls, faster the closer to the edge (DRAG_SCROLL_SENSITIVITY px/s at the edge).
 */
export const SceneDragLayer = memo(function SceneDragLayer({ enabled, listRef, geometry, onDrop, onDraggingChange }: SceneDragLayerProps) {
  const [gap, setGap] = useState<number | null>(null);
  const live = useRef({ geometry, onDrop, onDraggingChange });
  live.current = { geometry, onDrop, onDraggingChange };
  const session = useRef<Session | null>(null);

  /** Recomputes the card's offset and the landing gap from the pointer and the scroll position. */
  const update = () => {
    const s = session.current;
    const list = listRef.current;
    if (!s || !list) return;
    const card = list.querySelector<HTMLElement>(`article[data-scene-id="${s.sceneId}"]`);
    if (card !== s.card) {
      moveCard(s.card, 0, 0);
      card?.setAttribute("data-dragging", "true");
      s.card = card;
    }
    moveCard(card, s.mx, s.my + window.scrollY - s.startScroll);
    const rect = list.getBoundingClientRect();
    const next = gapAt(s.x - rect.left, s.y - rect.top, live.current.geometry);
    if (next !== s.gap) {
      s.gap = next;
      setGap(next);
    }
  };

  const tick = (now: number) => {
    const s = session.current;
    if (!s) return;
    const speed = autoScrollSpeed(s.y, 0, window.innerHeight);
    const elapsed = Math.min(now - s.last, 100) / 1000;
    s.last = now;
    if (speed !== 0 && elapsed > 0) {
      window.scrollBy(0, speed * elapsed);
      update();
    }
    s.frame = requestAnimationFrame(tick);
  };

  const finish = (drop: boolean) => {
    const s = session.current;
    if (!s) return;
    cancelAnimationFrame(s.frame);
    moveCard(s.card, 0, 0);
    s.card?.removeAttribute("data-dragging");
    session.current = null;
    setGap(null);
    live.current.onDraggingChange(null);
    if (drop && s.gap !== null) live.current.onDrop(s.sceneId, s.gap);
  };

  useEffect(() => () => finish(false), []);
  useEffect(() => {
    if (!enabled) finish(false);
  }, [enabled]);

  useDrag(
    ({ first, last, xy: [x, y], movement: [mx, my], target, event, tap }) => {
      if (first) {
        const origin = target instanceof Element ? target : null;
        const card = origin?.closest<HTMLElement>("article[data-scene-id]");
        const touch = "pointerType" in event && event.pointerType === "touch";
        // Buttons and fields keep their own clicks; a finger must start on the picture.
        if (!card || origin?.closest("button, a, input, textarea, [role='checkbox'], [role='menu']") || (touch && !origin?.closest("[data-drag-handle]"))) return;
        const sceneId = Number(card.dataset.sceneId);
        card.setAttribute("data-dragging", "true");
        session.current = { sceneId, card, startScroll: window.scrollY, x, y, mx, my, gap: null, frame: 0, last: performance.now() };
        session.current.frame = requestAnimationFrame(tick);
        live.current.onDraggingChange(sceneId);
      }
      const s = session.current;
      if (!s) return;
      if (last) {
        finish(!tap && event.type !== "pointercancel");
        return;
      }
      Object.assign(s, { x, y, mx, my });
      update();
    },
    { target: listRef, enabled, filterTaps: true, threshold: 6, pointer: { capture: false, keys: false } },
  );

  const list = listRef.current;
  return gap !== null && list ? createPortal(<DropIndicator gap={gap} geometry={geometry} />, list) : null;
});

/** The line where the dragged card will land: between two cards of a row, or between rows in one column. */
function DropIndicator({ gap, geometry }: { gap: number; geometry: GridGeometry }) {
  const { columns, cellWidth, count } = geometry;
  if (columns === 1) {
    const y = gap * ROW_HEIGHT - (gap === 0 ? 6 : JOINT_HEIGHT / 2 + 3);
    return <div className="drop-indicator drop-indicator-row" aria-hidden="true" style={{ transform: `translateY(${y}px)`, width: cellWidth }} />;
  }
  const anchor = Math.min(gap, count - 1);
  const row = Math.floor(anchor / columns);
  const column = anchor % columns;
  const x = gap < count ? column * (cellWidth + GRID_GAP) - GRID_GAP / 2 : column * (cellWidth + GRID_GAP) + cellWidth + GRID_GAP / 2;
  return <div className="drop-indicator drop-indicator-column" aria-hidden="true" style={{ transform: `translate(${x - 2}px, ${row * ROW_HEIGHT}px)`, height: CARD_HEIGHT }} />;
}
