import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import type { LibraryItem, LibraryTab } from "../../../api/media";
import type { OverlayType, Scene } from "../../../api/scenes";
import { db } from "../../db";
import { LIBRARY_SEARCH_DEBOUNCE_MS } from "../../lib/constants";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { useDebounced, useLibraryItem } from "./hooks";
import { InsertHintText, InsertToolbar } from "./InsertToolbar";
import { ItemList } from "./ItemList";
import { LibraryUpload } from "./LibraryUpload";
import { ScenesPane } from "./ScenesPane";
import { DEFAULT_OVERLAY_TYPE, EMPTY_SELECTION, toggleItem, toggleScene, type InsertMode } from "./selection";
import "./library.css";

/** What the side pane shows: nothing (the list alone), one item's scenes, or the upload screen. */
type Pane = { kind: "none" } | { kind: "scenes"; id: number } | { kind: "upload" };

/** The edit screen's storyboard tab: where an insert (or Cancel) goes back to. */
const storyboardHref = (projectId: number) => `/projects/${projectId}/storyboard`;

/**
 * The media library (SPEC §2): the item list, the scenes of one item, and upload; side by side on wide
 * screens, one at a time on narrow ones. With `mode` it picks scenes to insert into a project.
 */
export function LibraryView({ mode = null }: { mode?: InsertMode | null }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [tab, setTab] = useState<LibraryTab>("video");
  const [input, setInput] = useState("");
  const query = useDebounced(input.trim(), LIBRARY_SEARCH_DEBOUNCE_MS);
  const [pane, setPane] = useState<Pane>({ kind: "none" });
  const [reloadKey, setReloadKey] = useState(0);
  const [selection, setSelection] = useState(EMPTY_SELECTION);
  const [overlayType, setOverlayType] = useState<OverlayType>(DEFAULT_OVERLAY_TYPE);
  const openItem = useLibraryItem(pane.kind === "scenes" ? pane.id : null);

  const projectId = mode?.projectId ?? null;
  const overSceneId = mode?.kind === "overlay" ? mode.sceneId : null;
  const project = useLiveQuery(() => (projectId === null ? undefined : db.projects.get(projectId)), [projectId]);
  const overScene = useLiveQuery(() => (overSceneId === null ? undefined : db.scenes.get(overSceneId)), [overSceneId]);
  useEffect(() => {
    if (projectId !== null) void worker.refreshProject(projectId);
  }, [projectId]);
  // The open item was removed: back to the list alone.
  useEffect(() => {
    if (pane.kind === "scenes" && openItem === null) setPane({ kind: "none" });
  }, [pane.kind, openItem]);

  /** Back to the list; focus returns to the item that was open (the list may have been hidden). */
  function closePane() {
    const id = pane.kind === "scenes" ? pane.id : null;
    setPane({ kind: "none" });
    requestAnimationFrame(() => {
      const target = id === null ? null : document.querySelector<HTMLElement>(`[data-item-id="${id}"] .library-item-open`);
      target?.focus();
    });
  }

  const onToggleItem = (item: LibraryItem) => mode && setSelection((s) => toggleItem(s, item, mode));
  const onToggleScene = (scene: Scene) => mode && openItem && setSelection((s) => toggleScene(s, { id: scene.id, projectId: scene.project_id }, openItem, mode));

  function uploaded(count: number) {
    closePane();
    if (count > 0) {
      toast({ variant: "success", title: plural(count, { one: "File uploaded", other: "# files uploaded" }), description: t`Processing has started; the library shows its progress.` });
      setReloadKey((k) => k + 1);
    }
  }

  async function insert() {
    if (!mode) return;
    const result =
      mode.kind === "overlay"
        ? await worker.importOverlay(mode.projectId, mode.sceneId, selection.scenes[0]!.id, overlayType)
        : await worker.importScenes(mode.projectId, mode.order, { scenes: selection.scenes.map((s) => s.id), projects: selection.items.map((i) => i.id) });
    if (!result.ok) {
      toast({ variant: "danger", title: t`Could not insert the scenes`, description: failureMessage(i18n, result.failure) });
      return;
    }
    toast({ variant: "success", title: mode.kind === "overlay" ? t`Overlay added` : t`Scenes inserted` });
    await navigate({ href: storyboardHref(mode.projectId) });
  }

  return (
    <section className="library" aria-labelledby="library-title">
      <div className="page-head">
        <div>
          <h1 id="library-title">{mode ? mode.kind === "overlay" ? <Trans>Choose an overlay</Trans> : <Trans>Insert scenes</Trans> : <Trans>Media library</Trans>}</h1>
          {mode && (
            <p className="muted library-intro">
              {project?.name && (
                <>
                  <Trans>Project: {project.name}</Trans> ·{" "}
                </>
              )}
              <InsertHintText mode={mode} overSceneOrder={overScene?.order} />
            </p>
          )}
        </div>
        {pane.kind !== "upload" && (
          <Button variant="secondary" onPress={() => setPane({ kind: "upload" })}>
            <Trans>Upload files</Trans>
          </Button>
        )}
      </div>

      <div className="library-layout" data-pane={pane.kind}>
        <ItemList
          tab={tab}
          onTabChange={(next) => {
            setTab(next);
            if (pane.kind === "scenes") setPane({ kind: "none" });
          }}
          input={input}
          onInput={setInput}
          query={query}
          openId={pane.kind === "scenes" ? pane.id : null}
          onOpen={(id) => setPane({ kind: "scenes", id })}
          reloadKey={reloadKey}
          mode={mode}
          selection={selection}
          onToggleItem={onToggleItem}
        />
        <div className="library-side">
          {pane.kind === "upload" ? (
            <LibraryUpload onDone={uploaded} />
          ) : pane.kind === "scenes" && openItem ? (
            <ScenesPane key={openItem.id} item={openItem} onBack={closePane} picking={mode ? { selection, onToggle: onToggleScene } : undefined} />
          ) : (
            <p className="empty-state library-side-hint">
              {mode ? <Trans>Open an item to pick its scenes.</Trans> : <Trans>Open an item to see its scenes.</Trans>}
              {mode?.kind === "insert" && (
                <>
                  {" "}
                  <Trans>Or tick “All scenes” to insert a whole item.</Trans>
                </>
              )}
            </p>
          )}
        </div>
      </div>

      {mode && (
        <InsertToolbar
          mode={mode}
          selection={selection}
          overSceneOrder={overScene?.order}
          overlayType={overlayType}
          onOverlayType={setOverlayType}
          onInsert={insert}
          onCancel={() => void navigate({ href: storyboardHref(mode.projectId) })}
        />
      )}
    </section>
  );
}
