import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from "react";
import { defaultRangeExtractor, useWindowVirtualizer, type Range } from "@tanstack/react-virtual";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Scene } from "../../../api/scenes";
import { Button } from "../../ui/Button";
import { Icon } from "./icons";
import { columnsFor, GRID_GAP, type GridGeometry } from "./model";
import { SceneCard, type StoryboardMode } from "./SceneCard";
import type { SceneAction } from "./SceneMenu";
import { CARD_HEIGHT, JOINT_HEIGHT, ROW_HEIGHT } from "./layout";
import { SceneDragLayer } from "./SceneDragLayer";
import { OFFLINE_REASON_ID } from "./OfflineStatus";

/** Rows rendered beyond the viewport on each side: enough for a fast flick, few enough to mount quickly. */
const OVERSCAN_ROWS = 2;
/**
 * Above this scroll speed, cards coming into view mount as light placeholders (picture and number)
 * and become full cards once the scroll slows: a fling across thousands of scenes then
 * mounts no buttons at all, and frames keep coming.
 */
const FAST_SCROLL_PX_PER_S = 4000;

export interface SceneGridProps {
  shown: readonly Scene[];
  /** `mergeAfter[i]`: a merge-next button goes after shown card i. */
  mergeAfter: readonly boolean[];
  mode: StoryboardMode;
  readOnly: boolean;
  muted: boolean;
  online: boolean;
  canPlay: boolean;
  selected: ReadonlySet<number>;
  /** Scenes with edits waiting in the outbox. */
  pending?: ReadonlySet<number>;
  /** The scene whose text is being edited in place, and the editor to show on its card. */
  editingTextId: number | null;
  textEditor: ReactNode;
  onAction: (action: SceneAction, scene: Scene) => void;
  onSelectChange: (sceneId: number, selected: boolean) => void;
  /** Add scenes at a 1-based position (1 = before the first scene). */
  onAdd: (order: number) => void;
  onMerge: (scene: Scene) => void;
  onDrop: (sceneId: number, gap: number) => void;
}

/** Width of the grid, followed as the window (or the panel around it) resizes. */
function useWidth(ref: RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Where the grid starts in the page: what sits above it (alerts, loading bar) changes it. */
function useScrollMargin(ref: RefObject<HTMLElement | null>) {
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const el = ref.current;
      if (el) setMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref]);
  return margin;
}

/**
 * The storyboard's cards, virtualised by rows against the page's scroll: a storyboard of thousands of
 * scenes mounts only the rows on screen plus a small overscan, so memory stays bounded and scrolling
 * smooth. Columns follow the width (one at 360 px). Cards are keyed by scene id.
 */
export function SceneGrid(props: SceneGridProps) {
  const { shown, mergeAfter, mode, readOnly, selected, editingTextId, textEditor, onAction, onSelectChange, onAdd, onMerge, onDrop } = props;
  const { t } = useLingui();
  const listRef = useRef<HTMLDivElement>(null);
  const width = useWidth(listRef);
  const scrollMargin = useScrollMargin(listRef);
  const columns = columnsFor(width);
  const cellWidth = columns === 1 ? width : (width - GRID_GAP * (columns - 1)) / columns;
  const count = shown.length;
  const rows = Math.ceil(count / columns);
  const geometry: GridGeometry = useMemo(() => ({ columns, cellWidth, rowHeight: ROW_HEIGHT, count }), [columns, cellWidth, count]);

  // Which card is being dragged: it stays mounted while the page scrolls under it.
  const [dragged, setDragged] = useState<number | null>(null);

  const indexOf = useMemo(() => new Map(shown.map((s, i) => [s.id, i])), [shown]);
  // The dragged card and the card being edited stay mounted even when scrolled away.
  const pinnedRows = useMemo(
    () => [dragged, editingTextId].map((id) => (id == null ? undefined : indexOf.get(id))).filter((i): i is number => i !== undefined).map((i) => Math.floor(i / columns)),
    [dragged, editingTextId, indexOf, columns],
  );
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      const extra = pinnedRows.filter((r) => r < range.count && !indexes.includes(r));
      return extra.length ? [...indexes, ...extra].sort((a, b) => a - b) : indexes;
    },
    [pinnedRows],
  );

  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
    rangeExtractor,
  });

  const fast = useFastScroll(virtualizer.scrollOffset ?? 0, virtualizer.isScrolling);
  // Cards already mounted in full stay so; only newcomers are light while the scroll is fast.
  const full = useRef<ReadonlySet<number>>(new Set());
  const fullNow = new Set<number>();

  const cells: ReactNode[] = [];
  for (const row of virtualizer.getVirtualItems()) {
    for (let column = 0; column < columns; column++) {
      const index = row.index * columns + column;
      const scene = shown[index];
      if (!scene) break;
      const place = { index, count, x: column * (cellWidth + GRID_GAP), y: row.start - scrollMargin, width: cellWidth };
      const light = fast && !full.current.has(scene.id) && scene.id !== dragged && scene.id !== editingTextId;
      if (light) {
        cells.push(<LightCell key={scene.id} scene={scene} {...place} />);
        continue;
      }
      fullNow.add(scene.id);
      cells.push(
        <SceneCell
          key={scene.id}
          scene={scene}
          next={shown[index + 1]}
          {...place}
          mergeable={mergeAfter[index] === true}
          mode={mode}
          readOnly={readOnly}
          muted={props.muted}
          online={props.online}
          canPlay={props.canPlay}
          selected={selected.has(scene.id)}
          pending={props.pending?.has(scene.id) ?? false}
          textEditor={editingTextId === scene.id ? textEditor : null}
          editorAlignEnd={columns > 1 && column >= columns / 2}
          onAction={onAction}
          onSelectChange={onSelectChange}
          onAdd={onAdd}
          onMerge={onMerge}
        />,
      );
    }
  }
  full.current = fullNow;

  return (
    <div
      ref={listRef}
      role="list"
      aria-label={t`Scenes`}
      className="scene-grid"
      data-mode={mode}
      style={{ height: rows * ROW_HEIGHT, "--card-height": `${CARD_HEIGHT}px`, "--joint-height": `${JOINT_HEIGHT}px` } as CSSProperties}
    >
      {cells}
      <SceneDragLayer enabled={mode === "drag" && !readOnly} listRef={listRef} geometry={geometry} onDrop={onDrop} onDraggingChange={setDragged} />
    </div>
  );
}

/** True while the page scrolls faster than FAST_SCROLL_PX_PER_S (measured between renders, which follow the scroll). */
function useFastScroll(offset: number, isScrolling: boolean): boolean {
  const last = useRef({ offset, at: 0, fast: false });
  const now = performance.now();
  const previous = last.current;
  const elapsed = now - previous.at;
  const speed = elapsed > 0 ? (Math.abs(offset - previous.offset) / elapsed) * 1000 : 0;
  // Once fast, stay light until the scroll has clearly slowed (no flicker between the two kinds).
  const fast = isScrolling && (speed > FAST_SCROLL_PX_PER_S || (previous.fast && speed > FAST_SCROLL_PX_PER_S / 4));
  last.current = { offset, at: now, fast };
  return fast;
}

/** A card's stand-in during a fast scroll: what the eye catches in passing, nothing to press. */
const LightCell = memo(function LightCell({ scene, index, count, x, y, width }: { scene: Scene; index: number; count: number; x: number; y: number; width: number }) {
  const { t } = useLingui();
  return (
    <div role="listitem" aria-setsize={count} aria-posinset={index + 1} className="scene-cell" style={{ width, height: ROW_HEIGHT, transform: `translate3d(${x}px, ${y}px, 0)` }}>
      <article className="scene-card scene-card-light" aria-label={t`Scene ${scene.order}`} data-removed={scene.visibility === 0 || undefined}>
        <div className="scene-thumb">
          {scene.thumbnail ? <img src={scene.thumbnail} alt="" loading="lazy" decoding="async" draggable={false} /> : <span className="scene-thumb-placeholder" />}
          <span className="scene-badge scene-number">{scene.order}</span>
        </div>
      </article>
    </div>
  );
});

interface SceneCellProps extends Pick<SceneGridProps, "mode" | "readOnly" | "muted" | "online" | "canPlay" | "onAction" | "onSelectChange" | "onAdd" | "onMerge"> {
  pending: boolean;
  /** The text-line editor, wider than the card, opens toward the grid's start from a card in the right half. */
  editorAlignEnd: boolean;
  scene: Scene;
  next: Scene | undefined;
  index: number;
  count: number;
  x: number;
  y: number;
  width: number;
  mergeable: boolean;
  selected: boolean;
  textEditor: ReactNode;
}

/** One place in the grid: the card, then the add and merge-next buttons that follow it. Memoised: scrolling re-renders none. */
const SceneCell = memo(function SceneCell({ scene, next, index, count, x, y, width, mergeable, onAdd, onMerge, editorAlignEnd, ...card }: SceneCellProps) {
  const { t } = useLingui();
  const editing = card.textEditor !== null;
  return (
    <div
      role="listitem"
      aria-setsize={count}
      aria-posinset={index + 1}
      className="scene-cell"
      data-editing={editing || undefined}
      data-editor-end={editorAlignEnd || undefined}
      style={{ width, height: ROW_HEIGHT, transform: `translate3d(${x}px, ${y}px, 0)` }}
    >
      <SceneCard scene={scene} canMoveEarlier={index > 0} canMoveLater={index < count - 1} {...card} />
      {!card.readOnly && card.mode === "view" && (
        <div className="scene-joint">
          <Button
            variant="ghost"
            className="btn-small joint-add"
            onPress={() => onAdd(scene.order + 1)}
            isDisabled={!card.online}
            aria-describedby={card.online ? undefined : OFFLINE_REASON_ID}
            aria-label={t`Add scenes after scene ${scene.order}`}
          >
            <Icon name="plus" />
            <Trans>Add</Trans>
          </Button>
          {mergeable && next && (
            <Button
              variant="ghost"
              className="btn-small joint-merge"
              onPress={() => onMerge(scene)}
              isDisabled={!card.online}
              aria-describedby={card.online ? undefined : OFFLINE_REASON_ID}
              aria-label={t`Merge scene ${scene.order} with scene ${next.order}`}
            >
              <Icon name="merge" />
              <Trans>Merge with next</Trans>
            </Button>
          )}
        </div>
      )}
    </div>
  );
});
