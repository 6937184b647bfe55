import { useEffect, useMemo } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import type { Word } from "../../../api/subtitles";
import { wordsBetween } from "../../../api/storyboard";
import { db, type WordsRow } from "../../db";
import { worker } from "../../worker";

export interface ProjectWordsView {
  /** The recognised words of each of the project's files, by media file id (times in the file, seconds, in order). */
  byMedia: ReadonlyMap<number, readonly Word[]>;
  /** The project's recognised files, with their language and whether the words are draft quality. */
  files: readonly WordsRow[];
  /** The mirror has answered (the words may still be on their way from the server). */
  loaded: boolean;
  /** Some file's words come from a draft-quality engine. */
  draft: boolean;
}

const NO_ROWS: WordsRow[] = [];

/**
 * Issue 14: the recognised words of a project's media files, read from the Dexie mirror (works offline). Asks the
 * sync worker to mirror them when the project is opened, and again as its processing moves on.
 * A scene's words: `sceneWords(view, scene)`.
 */
export function useProjectWords(projectId: number): ProjectWordsView {
  // Asked again when the project's processing moves on (it ends, or a recreate recognises its files again);
  // scene edits change no words.
  const version = useLiveQuery(async () => {
    const project = await db.projects.get(projectId);
    return project ? `${project.status}|${project.working_progress}` : "";
  }, [projectId]);
  useEffect(() => {
    if (version !== undefined) void worker.loadProjectWords(projectId, version !== "");
  }, [projectId, version]);
  const rows = useLiveQuery(() => db.words.where("project_ids").equals(projectId).toArray(), [projectId]);
  return useMemo(() => {
    const files = rows ?? NO_ROWS;
    const byMedia = new Map<number, readonly Word[]>(files.map((r) => [r.media_file_id, [...r.words].sort((a, b) => a.start - b.start)]));
    return { byMedia, files, loaded: rows !== undefined, draft: files.some((f) => f.draft === 1) };
  }, [rows]);
}

/** The words a scene plays: its media file's words within its trim (a word cut by an edge counts where most of it is). */
export function sceneWords(view: Pick<ProjectWordsView, "byMedia">, scene: { media_file_id: number | null; trim_start: number; trim_end: number }): Word[] {
  const words = scene.media_file_id === null ? undefined : view.byMedia.get(scene.media_file_id);
  return words ? wordsBetween(words, scene.trim_start, scene.trim_end) : [];
}
