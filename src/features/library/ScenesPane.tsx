import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import type { LibraryItem } from "../../../api/media";
import type { Scene } from "../../../api/scenes";
import { LIBRARY_SEARCH_DEBOUNCE_MS } from "../../lib/constants";
import { Button, Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { libraryScenesKey } from "../../../workers/library";
import { failureMessage } from "../errors";
import { useDebounced, useItemScenes, usePagedLoader } from "./hooks";
import { SceneCard } from "./SceneCard";
import { ScenePreview } from "./ScenePreview";
import { SearchBox } from "./SearchBox";
import { isFullyProcessed, isItemPicked, isScenePicked, type Selection } from "./selection";

export interface ScenesPaneProps {
  item: LibraryItem;
  onBack: () => void;
  /** Insert mode: what is picked, and how a scene is picked. */
  picking?: { selection: Selection; onToggle: (scene: Scene) => void };
}

/** SPEC §2 Media library, scenes view: heading, back, text search, scene cards with preview, load more. */
export function ScenesPane({ item, onBack, picking }: ScenesPaneProps) {
  const { t, i18n } = useLingui();
  const [input, setInput] = useState("");
  const query = useDebounced(input.trim(), LIBRARY_SEARCH_DEBOUNCE_MS);
  const [previewing, setPreviewing] = useState<Scene | null>(null);
  const list = useItemScenes(item.id, query);
  const meta = list?.meta;
  const { loading, failure, more, reload } = usePagedLoader(libraryScenesKey(item.id, query), meta, (page) => worker.loadLibraryScenes(item.id, query, page));
  const selectable = isFullyProcessed(item);
  const wholePicked = picking ? isItemPicked(picking.selection, item.id) : false;
  const headingId = `library-scenes-${item.id}`;
  // Opening an item takes focus (and, on narrow screens, the view) to its scenes.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView?.({ block: "nearest" });
  }, []);

  return (
    <section className="library-pane library-scenes" aria-labelledby={headingId}>
      <div className="library-pane-head">
        <Button variant="ghost" className="btn-small" onPress={onBack} aria-label={t`Back to the list`}>
          <span aria-hidden="true">←</span> <Trans>Back</Trans>
        </Button>
        <h2 id={headingId} ref={heading} tabIndex={-1} className="section-title library-scenes-title">
          {item.name}
        </h2>
      </div>
      {meta && (
        <p className="muted library-scenes-count">
          <Plural value={meta.total} one="# scene" other="# scenes" />
        </p>
      )}
      {wholePicked && (
        <p className="notice notice-success">
          <Trans>All scenes of this item are selected. Picking a scene selects only the scenes you pick.</Trans>
        </p>
      )}
      {picking && !selectable && (
        <p className="notice notice-warning">
          <Trans>This file is still being processed. Its scenes can be inserted once it is ready.</Trans>
        </p>
      )}
      <SearchBox label={t`Search scene text`} value={input} onChange={setInput} />

      {!meta ? (
        failure ? (
          <div className="empty-state" role="alert">
            <p>{failureMessage(i18n, failure)}</p>
            <Button variant="secondary" onPress={() => void reload()}>
              <Trans>Try again</Trans>
            </Button>
          </div>
        ) : (
          <div className="loading-card">
            <Spinner label={t`Loading scenes…`} />
          </div>
        )
      ) : list.rows.length === 0 ? (
        <p className="empty-state">
          {query ? <Trans>No results found for “{query}”</Trans> : selectable ? <Trans>No results</Trans> : <Trans>This file is still being processed.</Trans>}
        </p>
      ) : (
        <ul className="library-scene-grid" aria-label={t`Scenes of ${item.name}`}>
          {list.rows.map((scene) => (
            <SceneCard
              key={scene.id}
              scene={scene}
              onPreview={setPreviewing}
              pick={picking && selectable ? { isPicked: isScenePicked(picking.selection, scene.id), onToggle: () => picking.onToggle(scene) } : undefined}
            />
          ))}
        </ul>
      )}
      {meta && meta.page < meta.lastPage && (
        <div className="library-more">
          <Button variant="secondary" onPress={() => void more()} isPending={loading}>
            <Trans>Load more</Trans>
          </Button>
        </div>
      )}
      {previewing && <ScenePreview scene={previewing} itemName={item.name} previewUrl={item.preview_url} onClose={() => setPreviewing(null)} />}
    </section>
  );
}
