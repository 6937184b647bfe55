import { useCallback, useMemo, useRef, useState } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import { Trans, useLingui } from "@lingui/react/macro";
import { DisclosureGroup, type Key } from "react-aria-components";
import type { Project } from "../../../api/projects";
import type { SubtitleSet } from "../../../api/subtitles";
import { usePolling } from "../../app/usePolling";
import { db } from "../../db";
import { POLL_MS } from "../../lib/constants";
import { Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { languagesToAdd, orderSets } from "../../../workers/subtitle-sets";
import { SubtitlesNotice } from "../preview/SubtitlesNotice";
import { OfflineStatus } from "../storyboard/OfflineStatus";
import { useOnline } from "../storyboard/useOnline";
import { AddLanguage } from "./AddLanguage";
import { languageName } from "./languages";
import { SubtitleSetPanel } from "./SubtitleSetPanel";
import "./translate.css";

const NO_SETS: SubtitleSet[] = [];

type Load = "pending" | "done" | "offline" | "failed";

/**
 * The Translate tab (SPEC §2 Translate page, issue 14): an accordion of languages — the original lines first,
 * then each translation with its status — where lines are edited, and "Add a language". Sets and options are
 * refreshed every 60 s while the tab is open; a refresh due while a line is being edited is skipped.
 */
export function TranslateTab({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const stored = useLiveQuery(() => db.subtitleSets.where("project_id").equals(project.id).toArray(), [project.id], NO_SETS);
  const options = useLiveQuery(async () => {
    const row = await db.meta.get(`translate:${project.id}`);
    return row && "options" in row.value ? row.value : null;
  }, [project.id]);
  const waiting = useLiveQuery(() => db.outbox.where("projectId").equals(project.id).count(), [project.id], 0);
  const [load, setLoad] = useState<Load>("pending");
  const editing = useRef(false);
  const onEditingChange = useCallback((now: boolean) => {
    editing.current = now;
  }, []);

  usePolling(
    async () => {
      if (editing.current) return;
      const result = await worker.refreshSubtitles(project.id);
      setLoad(result.ok ? "done" : result.failure.kind === "network" ? "offline" : "failed");
    },
    project.id,
    POLL_MS,
  );

  const sets = useMemo(() => orderSets(stored), [stored]);
  const choices = useMemo(() => (options ? languagesToAdd(options.options, sets, options.source_locale) : []), [options, sets]);
  const original = sets.find((s) => s.original === 1);
  // The original is open at first; a language just added opens to show its progress.
  const [opened, setOpened] = useState<Set<Key> | null>(null);
  const expandedKeys = opened ?? new Set<Key>(original ? [String(original.id)] : []);
  const onAdded = (setId: number) => setOpened(new Set([...expandedKeys, String(setId)]));

  return (
    <div className="translate-tab">
      <h2 className="translate-title">
        <Trans>Subtitles and translations</Trans>
      </h2>
      <OfflineStatus projectId={project.id} online={online} waiting={waiting} />
      <SubtitlesNotice project={project} />
      {sets.length === 0 && load === "pending" && <Spinner label={t`Loading the subtitles…`} />}
      {sets.length === 0 && load === "offline" && (
        <p className="empty-state">
          <Trans>The subtitles of this project are not on this device yet. Connect to the internet to see them.</Trans>
        </p>
      )}
      {sets.length === 0 && load === "failed" && (
        <p className="notice notice-danger" role="alert">
          <Trans>We could not load the subtitles. Try again in a moment.</Trans>
        </p>
      )}
      {sets.length === 0 && load === "done" && (
        <p className="empty-state">
          <Trans>This project has no subtitle lines yet.</Trans>
        </p>
      )}
      {sets.length > 0 && (
        <DisclosureGroup className="subtitle-sets" allowsMultipleExpanded expandedKeys={expandedKeys} onExpandedChange={setOpened}>
          {sets.map((set) => (
            <SubtitleSetPanel key={set.id} set={set} language={languageName(i18n, set.locale)} online={online} onEditingChange={onEditingChange} />
          ))}
        </DisclosureGroup>
      )}
      {options && options.source_locale !== null && original && <AddLanguage projectId={project.id} choices={choices} online={online} onAdded={onAdded} />}
    </div>
  );
}
