import type { SubtitleSet } from "../api/subtitles";
import type { TextLine } from "../api/storyboard";
import type { Scene } from "../api/scenes";
import type { CutroomDb, OutboxRow } from "../src/db";

/**
 * Subtitle sets in the mirror (issue 14, api/subtitles.ts): the server's sets with this device's waiting line
 * edits on top, as scenes get theirs (workers/outbox.ts). Pure parts first; the Dexie writer last.
 */

/** A line's key: the original line it comes from, `${media_file_id}@${start in ms}` (api/subtitles.ts). */
export const lineKey = (mediaFileId: number, start: number) => `${mediaFileId}@${Math.round(start * 1000)}`;

/** What a subtitle line edit carries through the outbox. */
export interface SubtitleLineEdit {
  setId: number;
  key: string;
  text: string;
  /** 1: the original set, whose lines are the scenes' own text lines. */
  original: 0 | 1;
}

/** A scene's text lines with the line of `key` given `text` (original-set edits show on the scene card). */
export function withLineText(scene: Pick<Scene, "media_file_id" | "text">, key: string, text: string): TextLine[] | null {
  if (scene.media_file_id === null) return null;
  const index = scene.text.findIndex((line) => lineKey(scene.media_file_id!, line.start) === key);
  if (index < 0) return null;
  return scene.text.map((line, i) => (i === index ? { ...line, text } : line));
}

/** The texts a set's lines get from waiting edits, by key, in outbox order (the last one wins). */
export function waitingTexts(set: Pick<SubtitleSet, "id" | "original">, waiting: readonly OutboxRow[], mediaOfScene: ReadonlyMap<number, number | null>): Map<string, string> {
  const texts = new Map<string, string>();
  for (const entry of waiting) {
    if (entry.command === "setSubtitleLine") {
      const edit = entry.args as SubtitleLineEdit;
      if (edit.setId === set.id) texts.set(edit.key, edit.text);
    } else if (set.original && (entry.command === "setSceneText" || entry.command === "setSceneAttributes")) {
      // A scene card's text edit waiting to be sent is the original set's line too.
      const lines = entry.command === "setSceneText" ? (entry.args as { lines: TextLine[] }).lines : (entry.args as { patch: { text?: TextLine[] } }).patch.text;
      const media = mediaOfScene.get(entry.sceneId);
      if (!lines || media === null || media === undefined) continue;
      for (const line of lines) texts.set(lineKey(media, line.start), line.text);
    }
  }
  return texts;
}

/** The set as the server sent it with the waiting edits' texts on top. */
export function applyWaitingLines<S extends Pick<SubtitleSet, "lines">>(set: S, texts: ReadonlyMap<string, string>): S {
  if (texts.size === 0) return set;
  return { ...set, lines: set.lines.map((line) => (texts.has(line.key) ? { ...line, text: texts.get(line.key)!, edited: 1 as const } : line)) };
}

/** A set with one line's text changed (the optimistic edit). */
export const withSetLine = <S extends Pick<SubtitleSet, "lines">>(set: S, key: string, text: string): S => applyWaitingLines(set, new Map([[key, text]]));

/** The language picker's choices: every option not already a set of the project, in the server's order. */
export function languagesToAdd<O extends { locale: string }>(options: readonly O[], sets: readonly { locale: string }[], sourceLocale: string | null): O[] {
  const taken = new Set(sets.map((s) => s.locale));
  return options.filter((o) => !taken.has(o.locale) && o.locale !== sourceLocale);
}

/** The original set first, then the translations by language. */
export function orderSets<S extends Pick<SubtitleSet, "original" | "locale">>(sets: readonly S[]): S[] {
  return [...sets].sort((a, b) => b.original - a.original || a.locale.localeCompare(b.locale));
}

/**
 * Writes sets from the server with this device's waiting edits on top. `projectId` given: the project's sets
 * the server no longer lists leave the mirror (a full refresh). Call inside or outside a transaction over
 * subtitleSets, outbox and scenes.
 */
export async function putSets(db: CutroomDb, sets: readonly SubtitleSet[], projectId?: number): Promise<void> {
  await db.transaction("rw", db.subtitleSets, db.outbox, db.scenes, async () => {
    const projects = new Set(sets.map((s) => s.project_id));
    if (projectId !== undefined) projects.add(projectId);
    const waiting = (await db.outbox.where("projectId").anyOf([...projects]).sortBy("seq")) as OutboxRow[];
    const sceneIds = [...new Set(waiting.map((e) => e.sceneId))];
    const scenes = sceneIds.length ? await db.scenes.bulkGet(sceneIds) : [];
    const mediaOfScene = new Map(scenes.filter((s): s is Scene => !!s).map((s) => [s.id, s.media_file_id]));
    // An answer older than the row (a refresh that left before an edit's answer came back) does not undo the edit.
    const held = new Map((await db.subtitleSets.bulkGet(sets.map((s) => s.id))).filter((r): r is SubtitleSet => !!r).map((r) => [r.id, r]));
    const newest = sets.map((set) => {
      const mine = held.get(set.id);
      return mine && mine.updated_at > set.updated_at ? mine : set;
    });
    await db.subtitleSets.bulkPut(newest.map((set) => applyWaitingLines(set, waitingTexts(set, waiting, mediaOfScene))));
    if (projectId !== undefined) {
      const listed = new Set(sets.map((s) => s.id));
      const gone = await db.subtitleSets.where("project_id").equals(projectId).filter((s) => !listed.has(s.id)).primaryKeys();
      await db.subtitleSets.bulkDelete(gone);
    }
  });
}
