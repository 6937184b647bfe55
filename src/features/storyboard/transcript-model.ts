import type { Scene } from "../../../api/scenes";
import type { Word } from "../../../api/subtitles";
import { cutRange, wordsBetween } from "../../../api/storyboard";
import type { WordCut } from "../../../workers/transcript";

/** One entry of the transcript: a spoken word of a shown scene, or a cut (a removed scene with words) in its place. */
export type TranscriptItem =
  | { kind: "word"; id: string; sceneId: number; word: Word; rawStart: number }
  | { kind: "cut"; id: string; sceneId: number; text: string };

/**
 * The transcript of a project: the words of its scenes in storyboard order, each scene's words being its media
 * file's words within its trim. A removed scene with words shows as one cut; a removed one without (a silence the
 * automatic cut took out) shows nothing.
 */
export function transcriptItems(scenes: readonly Scene[], byMedia: ReadonlyMap<number, readonly Word[]>): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  for (const scene of scenes) {
    const all = scene.media_file_id === null ? undefined : byMedia.get(scene.media_file_id);
    if (!all) continue;
    const words = wordsBetween(all, scene.trim_start, scene.trim_end);
    if (words.length === 0) continue;
    if (scene.visibility !== 1) {
      items.push({ kind: "cut", id: `cut:${scene.id}`, sceneId: scene.id, text: words.map((w) => w.text).join(" ") });
      continue;
    }
    words.forEach((word, i) =>
      items.push({ kind: "word", id: `w:${scene.id}:${i}`, sceneId: scene.id, word, rawStart: scene.trim_start_raw + Math.max(0, word.start - scene.trim_start) }),
    );
  }
  return items;
}

/** The selected words as runs of consecutive words (cuts between them do not break a run). */
export function selectedRuns(items: readonly TranscriptItem[], selected: ReadonlySet<string>) {
  const runs: Extract<TranscriptItem, { kind: "word" }>[][] = [];
  let current: Extract<TranscriptItem, { kind: "word" }>[] = [];
  for (const item of items) {
    if (item.kind === "cut") continue;
    if (selected.has(item.id)) current.push(item);
    else if (current.length > 0) {
      runs.push(current);
      current = [];
    }
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

/**
 * What deleting the selected words cuts, scene by scene: in a scene, from the first selected word's start to
 * the last one's end; where a run goes on into the next scene, to the scene's edge (the pause between goes
 * too), and shown scenes wholly inside a run (words or not), or all of whose words are chosen, are cut whole.
 */
export function cutsOf(scenes: readonly Scene[], items: readonly TranscriptItem[], selected: ReadonlySet<string>): WordCut[] {
  const cuts: WordCut[] = [];
  const position = new Map(scenes.map((s, i) => [s.id, i]));
  for (const run of selectedRuns(items, selected)) {
    const first = run[0]!;
    const last = run[run.length - 1]!;
    const from = position.get(first.sceneId)!;
    const to = position.get(last.sceneId)!;
    for (let i = from; i <= to; i++) {
      const scene = scenes[i]!;
      if (scene.visibility !== 1) continue;
      const mine = run.filter((w) => w.sceneId === scene.id);
      // Every word of the scene chosen: the whole scene goes (a hide), its pauses with it.
      const all = mine.length > 0 && mine.length === items.filter((item) => item.kind === "word" && item.sceneId === scene.id).length;
      const start = i === from && !all ? mine[0]!.word.start : scene.trim_start;
      const end = i === to && !all ? mine[mine.length - 1]!.word.end : scene.trim_end;
      cuts.push({ sceneId: scene.id, from: start, to: end });
    }
  }
  return cuts;
}

/** Whether a cut is inside a scene (a split: needs the connection) rather than of a whole scene (a hide: works offline). */
export function needsServer(scenes: readonly Scene[], cuts: readonly WordCut[]): boolean {
  return cuts.some((cut) => {
    const scene = scenes.find((s) => s.id === cut.sceneId);
    if (!scene) return true;
    const rule = cutRange(scene, cut.from, cut.to, []);
    return !rule.ok || rule.value.before !== null || rule.value.after !== null;
  });
}
