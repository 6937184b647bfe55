import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useLiveQuery } from "dexie-react-hooks";
import type { Project } from "../../../api/projects";
import type { Scene } from "../../../api/scenes";
import type { Result } from "../../../workers/status";
import { db, type OutboxRow } from "../../db";
import { isFinished } from "../../lib/project-state";
import { usePolling } from "../../app/usePolling";
import { Button } from "../../ui/Button";
import { ProgressBar } from "../../ui/ProgressBar";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { useReferencePlayer } from "../edit/reference-player";
import { ClipsProjectDialog } from "./ClipsProjectDialog";
import { HelpDialog } from "./HelpDialog";
import { Icon } from "./icons";
import { SubtitlesNotice } from "../preview/SubtitlesNotice";
import { dropOrder, isBusy, mergeAfter, projectLength, selectedInOrder, shownScenes, totalLength } from "./model";
import { MoveSceneDialog } from "./MoveSceneDialog";
import { OFFLINE_REASON_ID, OfflineStatus } from "./OfflineStatus";
import type { StoryboardMode } from "./SceneCard";
import { SceneGrid } from "./SceneGrid";
import type { SceneAction } from "./SceneMenu";
import { SceneTools, type SceneTool } from "./SceneTools";
import { SelectionToolbar } from "./SelectionToolbar";
import { StoryboardToolbar } from "./StoryboardToolbar";
import { notifySceneEdit, TextLinesEditor, volumeUnavailable } from "./tools";
import { useOnline } from "./useOnline";
import { useStoryboardData } from "./useStoryboardData";
import { StoryboardViews, TranscriptView, useStoryboardView } from "./TranscriptView";
import "./storyboard.css";

/** The Storyboard tab of the project edit screen (SPEC §2 Storyboard). */
export function Storyboard({ projectId }: { projectId: number }) {
  const { project, scenes, scenesLoaded, meta } = useStoryboardData(projectId);
  const [loadFailed, setLoadFailed] = useState(false);

  // SPEC §4: 25 scenes first, then 250 at a time; SPEC §9: the scene list refreshes every 60 s.
  usePolling(async () => setLoadFailed(!(await worker.loadStoryboard(projectId)).ok), projectId);

  if (!project) {
    return (
      <p className="storyboard-empty" role="status">
        <Trans>Loading the storyboard…</Trans>
      </p>
    );
  }
  // Before the first batch there is no count yet: loading, unless the load has already failed.
  const loading = meta ? meta.loading : !loadFailed && (!scenesLoaded || scenes.length === 0);
  return (
    <StoryboardView
      project={project}
      scenes={scenes}
      scenesLoaded={scenesLoaded}
      loading={loading}
      loadFailed={loadFailed && scenes.length === 0}
      loaded={scenes.length}
      total={meta?.total ?? 0}
    />
  );
}

interface StoryboardViewProps {
  project: Project;
  scenes: Scene[];
  scenesLoaded: boolean;
  loading: boolean;
  /** Nothing in the mirror and the server could not be reached. */
  loadFailed: boolean;
  /** Scenes in the mirror, against the storyboard's total. */
  loaded: number;
  total: number;
}

type OpenTool = { tool: SceneTool | "moveTo"; sceneId: number };

const NO_EDITS: OutboxRow[] = [];

/** Scene actions that need the server (structural edits, and the overlay library): disabled offline. */
const NEEDS_CONNECTION: ReadonlySet<SceneAction> = new Set<SceneAction>(["split", "splitByLine", "duplicate", "addOverlay", "moveEarlier", "moveLater", "moveTo"]);

function StoryboardView({ project, scenes, scenesLoaded, loading, loadFailed, loaded, total }: StoryboardViewProps) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const player = useReferencePlayer();
  const online = useOnline();
  const busy = isBusy(project);
  // Render Ready is finished and read-only until reopened (SPEC §4); the edit screen's banner says so once.
  const finished = isFinished(project);
  const readOnly = busy || finished;
  // Edits of this project waiting on this device to be sent (ARCHITECTURE "Offline edits").
  const waitingEdits = useLiveQuery(() => db.outbox.where("projectId").equals(project.id).toArray(), [project.id], NO_EDITS);
  const pending = useMemo(() => new Set(waitingEdits.map((e) => e.sceneId)), [waitingEdits]);

  const [hideRemoved, setHideRemoved] = useState(false);
  const [mode, setMode] = useState<StoryboardMode>("view");
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const [open, setOpen] = useState<OpenTool | null>(null);
  const [editingTextId, setEditingTextId] = useState<number | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [clipsOpen, setClipsOpen] = useState(false);
  // Issue 14: the scenes, or the transcript of the shown scenes.
  const [view, setView] = useStoryboardView(project.id);

  const shown = useMemo(() => shownScenes(scenes, hideRemoved), [scenes, hideRemoved]);
  const merges = useMemo(() => mergeAfter(scenes, shown, hideRemoved), [scenes, shown, hideRemoved]);
  const length = useMemo(() => projectLength(scenes), [scenes]);
  const chosen = useMemo(() => (mode === "select" ? selectedInOrder(shown, selected) : []), [mode, shown, selected]);
  // Reordering needs the server: a busy project, or going offline, leaves drag mode. A finished project
  // leaves select mode too: its selection only leads to a clips project, an edit of a finished project.
  const effectiveMode: StoryboardMode = ((readOnly || !online) && mode === "drag") || (finished && mode === "select") ? "view" : mode;

  // Leaving select mode forgets the selection, so nothing hidden stays selected.
  const changeMode = useCallback((next: StoryboardMode) => {
    setMode(next);
    setEditingTextId(null);
    if (next !== "select") setSelected(new Set());
  }, []);

  const run = useCallback(
    async (action: () => Promise<Result<unknown>>) => notifySceneEdit(i18n, await action().catch((): Result<unknown> => ({ ok: false, failure: { kind: "network" } }))),
    [i18n],
  );

  // Cards are memoised: their callbacks are stable and read the latest storyboard from here.
  const latest = useRef({ scenes, shown, project, player, online });
  latest.current = { scenes, shown, project, player, online };

  const move = useCallback(
    (sceneId: number, gap: number) => {
      const { scenes: all, shown: listed } = latest.current;
      const order = dropOrder(all, listed.map((s) => s.id), sceneId, gap);
      if (order !== null) void run(() => worker.moveScene(sceneId, order));
    },
    [run],
  );

  const onAction = useCallback(
    (action: SceneAction, scene: Scene) => {
      const { shown: listed, project: p, player: reference, online: connected } = latest.current;
      const index = listed.findIndex((s) => s.id === scene.id);
      // An open scene menu keeps the connection state it opened with: an item chosen after the connection
      // went is refused here, said so, and nothing is sent or opened.
      if (!connected && NEEDS_CONNECTION.has(action)) {
        toast({ variant: "danger", title: t`The scene was not changed`, description: t`Needs a connection.` });
        return;
      }
      switch (action) {
        case "play":
          return reference.playRange(scene.trim_start_raw, scene.trim_end_raw);
        case "playFromHere":
          return reference.playRange(scene.trim_start_raw, null);
        case "editText":
          return setEditingTextId(scene.id);
        case "hide":
          return void run(() => worker.hideScene(scene.id));
        case "show":
          return void run(() => worker.showScene(scene.id));
        case "type:intro":
        case "type:default":
        case "type:outro": {
          const type = action.slice("type:".length) as Scene["type"];
          if (type !== scene.type) void run(() => worker.setSceneType(scene.id, type));
          return;
        }
        case "duplicate":
          return void run(() => worker.duplicateScene(scene.id));
        case "addOverlay":
          return void navigate({ to: "/projects/$id/library/$type/$order/$sceneid", params: { id: p.id, type: "overlay", order: scene.order, sceneid: scene.id } });
        case "moveEarlier":
          return move(scene.id, index - 1);
        case "moveLater":
          return move(scene.id, index + 2);
        case "moveTo":
        case "trim":
        case "split":
        case "splitByLine":
        case "volume":
        case "faces":
        case "overlay":
          return setOpen({ tool: action, sceneId: scene.id });
      }
    },
    [run, move, navigate, t],
  );

  const onSelectChange = useCallback((sceneId: number, on: boolean) => {
    setSelected((current) => {
      if (current.has(sceneId) === on) return current;
      const next = new Set(current);
      if (on) next.add(sceneId);
      else next.delete(sceneId);
      return next;
    });
  }, []);

  const onAdd = useCallback((order: number) => void navigate({ to: "/projects/$id/library/$order", params: { id: latest.current.project.id, order } }), [navigate]);
  const onMerge = useCallback((scene: Scene) => void run(() => worker.mergeNextScene(scene.id)), [run]);

  const openScene = open ? scenes.find((s) => s.id === open.sceneId) : undefined;
  const editingScene = editingTextId === null ? undefined : scenes.find((s) => s.id === editingTextId);
  const closeEditor = useCallback(() => setEditingTextId(null), []);
  const textEditor = useMemo(
    () => (editingScene && !readOnly && mode === "view" ? <TextLinesEditor key={editingScene.id} scene={editingScene} project={project} onClose={closeEditor} /> : null),
    // The editor keeps its own draft: a reload of the same scene must not reset it.
    [editingScene?.id, readOnly, mode, closeEditor],
  );
  const openIndex = openScene ? shown.findIndex((s) => s.id === openScene.id) : -1;

  useEffect(() => {
    if (editingTextId !== null && !editingScene && scenesLoaded) setEditingTextId(null);
  }, [editingTextId, editingScene, scenesLoaded]);

  return (
    <section className="storyboard" aria-label={t`Storyboard`}>
      {/* The first load fills the mirror batch by batch; a reload after an edit replaces rows in place and shows no bar. */}
      {total > 0 && loaded < total && (
        <ProgressBar label={t`Loading scenes`} value={(Math.min(loaded, total) / total) * 100} valueLabel={t`${Math.min(loaded, total)} of ${total} scenes`} />
      )}
      {busy && (
        <p className="notice notice-warning" role="status">
          <Trans>This project is being processed. You can look at the scenes; editing comes back when it has finished.</Trans>
        </p>
      )}
      <OfflineStatus projectId={project.id} online={online} waiting={waitingEdits.length} />
      {!busy && <SubtitlesNotice project={project} />}
      <StoryboardViews view={view} onViewChange={setView} />
      {view === "transcript" ? (
        <TranscriptView project={project} scenes={scenes} readOnly={readOnly} online={online} />
      ) : (
        <>
      <StoryboardToolbar
        hideRemoved={hideRemoved}
        onHideRemovedChange={setHideRemoved}
        mode={effectiveMode}
        onModeChange={changeMode}
        canDrag={!readOnly && online}
        canSelect={!finished}
        dragNote={!readOnly && !online ? t`Needs a connection.` : undefined}
        length={length}
        onHelp={() => setHelpOpen(true)}
      />
      {effectiveMode === "drag" && (
        <p className="storyboard-hint muted">
          <Trans>Drag a card to its new place. With a finger, drag its picture.</Trans>
        </p>
      )}

      {scenesLoaded && shown.length === 0 && !loading ? (
        <p className="empty-state" role="status">
          {loadFailed ? (
            <Trans>The scenes could not be loaded. They load by themselves when the connection is back.</Trans>
          ) : scenes.length === 0 ? (
            <Trans>This project has no scenes yet.</Trans>
          ) : (
            <Trans>Every scene is removed. Turn off “Hide removed scenes” to see them.</Trans>
          )}
        </p>
      ) : (
        <>
          {!readOnly && effectiveMode === "view" && (
            <div className="scene-joint scene-joint-start">
              <Button
                variant="ghost"
                className="btn-small joint-add"
                onPress={() => onAdd(1)}
                isDisabled={!online}
                aria-describedby={online ? undefined : OFFLINE_REASON_ID}
              >
                <Icon name="plus" />
                <Trans>Add at the start</Trans>
              </Button>
            </div>
          )}
          <SceneGrid
            shown={shown}
            mergeAfter={merges}
            mode={effectiveMode}
            readOnly={readOnly}
            muted={volumeUnavailable(project)}
            online={online}
            canPlay={player.available}
            selected={selected}
            pending={pending}
            editingTextId={textEditor ? editingTextId : null}
            textEditor={textEditor}
            onAction={onAction}
            onSelectChange={onSelectChange}
            onAdd={onAdd}
            onMerge={onMerge}
            onDrop={move}
          />
        </>
      )}

      {effectiveMode === "select" && (
        <SelectionToolbar
          count={chosen.length}
          length={totalLength(chosen)}
          onCreateClips={() => setClipsOpen(true)}
          onClear={() => setSelected(new Set())}
          online={online}
        />
      )}
        </>
      )}

      <SceneTools tool={open && open.tool !== "moveTo" && !finished ? open.tool : null} scene={openScene} project={project} onClose={() => setOpen(null)} />
      {open?.tool === "moveTo" && !finished && openScene && openIndex >= 0 && (
        <MoveSceneDialog
          scene={openScene}
          position={openIndex + 1}
          count={shown.length}
          isOpen
          onOpenChange={(o) => !o && setOpen(null)}
          onMove={(position) => move(openScene.id, position - 1 < openIndex ? position - 1 : position)}
        />
      )}
      <HelpDialog isOpen={helpOpen} onOpenChange={setHelpOpen} />
      <ClipsProjectDialog projectId={project.id} sceneIds={chosen.map((s) => s.id)} isOpen={clipsOpen} onOpenChange={setClipsOpen} />
    </section>
  );
}
