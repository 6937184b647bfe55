import { useCallback, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { ListBox, ListBoxItem, ToggleButton, ToggleButtonGroup, type Key, type Selection } from "react-aria-components";
import type { Project } from "../../../api/projects";
import type { Scene } from "../../../api/scenes";
import type { Result } from "../../../workers/status";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { useReferencePlayer } from "../edit/reference-player";
import { notifySceneEdit } from "./tools";
import { cutsOf, needsServer, transcriptItems, type TranscriptItem } from "./transcript-model";
import { useProjectWords } from "./useProjectWords";
import "./transcript.css";

export interface TranscriptViewProps {
  project: Project;
  /** Every main scene, in storyboard order (removed ones too: they show as cuts). */
  scenes: readonly Scene[];
  readOnly: boolean;
  online: boolean;
}

const NOTHING: ReadonlySet<Key> = new Set();

/**
 * Issue 14, edit by transcript: the words of the shown scenes in order. Select words (drag, shift+click, or the
 * keyboard: arrows, shift+arrows) and press Delete — or the Cut button — to cut them out: a split and a hide
 * under the hood, so the storyboard shows the cut as a removed scene part. A cut shows in place; select it to
 * restore it. Clicking a word moves the reference player there.
 */
export function TranscriptView({ project, scenes, readOnly, online }: TranscriptViewProps) {
  const { t, i18n } = useLingui();
  const player = useReferencePlayer();
  const words = useProjectWords(project.id);
  const items = useMemo(() => transcriptItems(scenes, words.byMedia), [scenes, words.byMedia]);
  const index = useMemo(() => new Map(items.map((item, i) => [item.id, i])), [items]);
  // RAC's own selection object is kept as it is: it carries the anchor that shift+click and shift+arrows extend from.
  const [selection, setSelection] = useState<ReadonlySet<Key>>(NOTHING);
  const [pending, setPending] = useState(false);
  // Only what is still in the transcript counts as selected.
  const selected = useMemo(() => new Set([...selection].map(String).filter((id) => index.has(id))), [selection, index]);
  const selectedWords = items.filter((item) => item.kind === "word" && selected.has(item.id));
  const selectedCuts = items.filter((item): item is Extract<TranscriptItem, { kind: "cut" }> => item.kind === "cut" && selected.has(item.id));
  const cuts = useMemo(() => cutsOf(scenes, items, selected), [scenes, items, selected]);
  const waitsForServer = cuts.length > 0 && needsServer(scenes, cuts);
  const cutBlocked = readOnly || (waitsForServer && !online);

  const run = useCallback(
    async (action: () => Promise<Result<unknown>>) => {
      setPending(true);
      try {
        return notifySceneEdit(i18n, await action().catch((): Result<unknown> => ({ ok: false, failure: { kind: "network" } })));
      } finally {
        setPending(false);
      }
    },
    [i18n],
  );

  const cut = useCallback(async () => {
    if (pending || cuts.length === 0 || readOnly) return;
    if (waitsForServer && !online) {
      toast({ variant: "info", title: t`Needs a connection.`, description: t`Cutting inside a scene splits it, which waits for the connection. Whole scenes can be cut offline.` });
      return;
    }
    if (await run(() => worker.cutWords(project.id, cuts))) setSelection(NOTHING);
  }, [pending, cuts, readOnly, waitsForServer, online, run, project.id, t]);

  const restore = useCallback(async () => {
    if (pending || selectedCuts.length === 0 || readOnly) return;
    let ok = true;
    for (const item of selectedCuts) ok = (await run(() => worker.restoreCut(item.sceneId))) && ok;
    if (ok) setSelection(NOTHING);
  }, [pending, selectedCuts, readOnly, run]);

  // Mouse drag: from the word pressed to the word the pointer is over.
  const dragFrom = useRef<number | null>(null);
  const dragTo = useCallback(
    (id: string) => {
      const from = dragFrom.current;
      const to = index.get(id);
      if (from === null || to === undefined || from === to) return;
      const [a, b] = from < to ? [from, to] : [to, from];
      setSelection(new Set(items.slice(a, b + 1).map((item) => item.id)));
    },
    [index, items],
  );

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Delete" && event.key !== "Backspace") return;
    event.preventDefault();
    if (selectedWords.length > 0) void cut();
  };

  if (!words.loaded) {
    return (
      <p className="storyboard-empty" role="status">
        <Trans>Loading the transcript…</Trans>
      </p>
    );
  }
  if (items.length === 0) {
    return (
      <p className="empty-state" role="status">
        {words.files.length === 0 ? <Trans>No words were recognised in this project, so there is no transcript to edit.</Trans> : <Trans>No scene of this project has words in it.</Trans>}
      </p>
    );
  }

  const count = selectedWords.length;
  return (
    <section className="transcript" aria-label={t`Transcript`}>
      <div className="transcript-toolbar" role="toolbar" aria-label={t`Transcript actions`}>
        <p className="transcript-status muted" role="status">
          {count > 0 ? plural(count, { one: "# word selected", other: "# words selected" }) : selectedCuts.length > 0 ? t`A cut is selected` : t`Select words, then press Delete to cut them.`}
        </p>
        <div className="transcript-actions">
          <Button variant="danger" className="btn-small" onPress={() => void cut()} isDisabled={count === 0 || cutBlocked} isPending={pending && count > 0}>
            <Trans>Cut</Trans>
          </Button>
          <Button variant="secondary" className="btn-small" onPress={() => void restore()} isDisabled={selectedCuts.length === 0 || readOnly} isPending={pending && selectedCuts.length > 0}>
            <Trans>Restore</Trans>
          </Button>
        </div>
        {count > 0 && waitsForServer && !online && !readOnly && (
          <p className="field-description transcript-note">
            <Trans>Cutting inside a scene needs a connection. Whole scenes can be cut offline.</Trans>
          </p>
        )}
      </div>
      {words.draft && (
        <p className="muted transcript-note">
          <Trans>These words are draft captions recognised on this server: some may be wrong.</Trans>
        </p>
      )}
      <div onKeyDown={onKeyDown} onPointerUp={() => (dragFrom.current = null)} onPointerLeave={() => (dragFrom.current = null)}>
        <ListBox
          aria-label={t`Words of the project`}
          className="transcript-words"
          layout="grid"
          selectionMode="multiple"
          selectionBehavior="replace"
          selectedKeys={selection}
          onSelectionChange={(keys: Selection) => setSelection(keys === "all" ? new Set(items.map((i) => i.id)) : keys)}
          onAction={(key) => {
            const item = items[index.get(String(key)) ?? -1];
            if (item?.kind === "word") player.seek(item.rawStart);
          }}
          items={items}
        >
          {(item) =>
            item.kind === "word" ? (
              <ListBoxItem
                id={item.id}
                textValue={item.word.text}
                className="transcript-word"
                data-filler={item.word.filler ? true : undefined}
                onPointerDown={(e) => {
                  if (e.button === 0 && !e.shiftKey && !e.ctrlKey && !e.metaKey && e.pointerType === "mouse") dragFrom.current = index.get(item.id) ?? null;
                }}
                onPointerEnter={(e) => {
                  if (e.buttons === 1 && e.pointerType === "mouse") dragTo(item.id);
                }}
                onPress={() => player.seek(item.rawStart)}
              >
                {item.word.text}
              </ListBoxItem>
            ) : (
              <ListBoxItem id={item.id} textValue={t`Cut: ${item.text}`} className="transcript-cut">
                <span className="transcript-cut-mark" aria-hidden="true">
                  ✂
                </span>
                <span className="visually-hidden">
                  <Trans>Cut:</Trans>{" "}
                </span>
                <s>{item.text}</s>
              </ListBoxItem>
            )
          }
        </ListBox>
      </div>
    </section>
  );
}

export type StoryboardViewName = "scenes" | "transcript";

/** The storyboard tab's two views (issue 14): the scene cards, or the transcript of the shown scenes. */
export function StoryboardViews({ view, onViewChange }: { view: StoryboardViewName; onViewChange: (view: StoryboardViewName) => void }) {
  const { t } = useLingui();
  return (
    <ToggleButtonGroup
      className="storyboard-views"
      aria-label={t`Show the storyboard as`}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[view]}
      onSelectionChange={(keys) => {
        const next = [...keys][0];
        if (next === "scenes" || next === "transcript") onViewChange(next);
      }}
    >
      <ToggleButton id="scenes" className="storyboard-view">
        <Trans>Scenes</Trans>
      </ToggleButton>
      <ToggleButton id="transcript" className="storyboard-view">
        <Trans>Transcript</Trans>
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

const viewKey = (projectId: number) => `cutroom:storyboard-view:${projectId}`;

/** The view chosen for a project's storyboard, kept for the session (the edit screen re-mounts the tab when its layout changes). */
export function useStoryboardView(projectId: number): [StoryboardViewName, (view: StoryboardViewName) => void] {
  const [view, setView] = useState<StoryboardViewName>(() => {
    try {
      return sessionStorage.getItem(viewKey(projectId)) === "transcript" ? "transcript" : "scenes";
    } catch {
      return "scenes";
    }
  });
  const choose = useCallback(
    (next: StoryboardViewName) => {
      setView(next);
      try {
        sessionStorage.setItem(viewKey(projectId), next);
      } catch {
        // Storage refused (private mode): the choice lasts as long as the tab is shown.
      }
    },
    [projectId],
  );
  return [view, choose];
}
