import type { Db } from "../db";
import type { MediaRow } from "../db/media";
import { updateProject, type ProjectRow } from "../db/projects";
import { replaceScenes } from "../db/scenes";
import { buildScenes, highlightsOf, IMAGE_SCENE_SECONDS, type MediaForScenes, type SceneDraft } from "../domain/storyboard";
import { fillerPieces, wordSafeSpans, type WordTiming } from "../domain/word-safe";
import { nearestThumbnail } from "../media/thumbnails";
import type { SilenceAnalysis } from "../media/analyze";
import { linesForScenes } from "../speech/lines";
import { storedTranscript } from "../jobs/transcribe";

/** What ingest keeps of a media file's analysis, as JSON in `media_files.analysis`. */
export interface StoredAnalysis {
  speech: SilenceAnalysis["speech"];
  noiseFloorDb: number | null;
  thumbnails: { time: number; key: string }[];
}

/**
 * The first storyboard of a project from its analysed files, replacing any scenes it had
 * (creation, and "reset"/"recreate storyboard"). Records the highlights it implies.
 */
export async function buildStoryboard(db: Db, project: ProjectRow, ready: readonly MediaRow[], autoCut: boolean): Promise<ProjectRow> {
  const projectId = project.id;
  let offset = 0;
  const forScenes: MediaForScenes[] = ready.map((m) => {
    const analysis = m.analysis ? (JSON.parse(m.analysis) as StoredAnalysis) : undefined;
    const entry: MediaForScenes = { id: m.id, kind: m.kind, durationSeconds: m.duration_seconds, speech: m.has_speech ? analysis?.speech : undefined, rawOffset: offset };
    offset += m.kind === "image" ? IMAGE_SCENE_SECONDS : m.duration_seconds;
    return entry;
  });
  const transcripts = new Map(ready.map((m) => [m.id, storedTranscript(m)]));
  const removeFillers = !!(JSON.parse(project.settings) as { removefillers?: number }).removefillers;
  // Issue 14: where words are known, no scene starts or ends inside one; fillers become hidden, restorable pieces.
  const drafts = respectWords(buildScenes(forScenes, autoCut), (id) => transcripts.get(id)?.words, new Map(ready.map((m) => [m.id, m.duration_seconds])), removeFillers);
  const thumbsOf = new Map(ready.map((m) => [m.id, m.analysis ? (JSON.parse(m.analysis) as StoredAnalysis).thumbnails : []]));
  // Issue 14: each scene's subtitle lines from its file's recognised words, clipped to the scene.
  const linesOf = drafts.map((d) => {
    const transcript = transcripts.get(d.mediaFileId);
    return transcript ? linesForScenes(transcript.words, [{ start: d.start, end: d.end }])[0]! : [];
  });
  const linesCount = linesOf.reduce((sum, lines) => sum + lines.length, 0);
  const draftLines = drafts.some((d, i) => linesOf[i]!.length > 0 && transcripts.get(d.mediaFileId)?.draft);
  const now = new Date().toISOString();
  await replaceScenes(
    db,
    projectId,
    drafts.map((d, i) => {
      const m = ready.find((r) => r.id === d.mediaFileId)!;
      const thumbs = (thumbsOf.get(d.mediaFileId) ?? []).map((t) => ({ time: t.time, file: t.key }));
      const thumb = nearestThumbnail(thumbs, d.start);
      return {
        project_id: projectId,
        media_file_id: d.mediaFileId,
        order: d.order,
        type: "default",
        visibility: d.hidden ? 0 : 1,
        start: d.start,
        end: d.end,
        trim_start: d.trimStart,
        trim_end: d.trimEnd,
        trim_start_default: d.trimStart,
        trim_end_default: d.trimEnd,
        trim_start_raw: d.trimStartRaw,
        trim_end_raw: d.trimEndRaw,
        thumbnail_key: thumb?.file ?? m.thumbnail_key,
        text: JSON.stringify(linesOf[i]),
        media_audio: "standard",
        music_type: "bgmstandard",
        created_at: now,
        updated_at: now,
      };
    }),
  );
  const highlights = highlightsOf(forScenes, drafts.filter((d) => !d.hidden));
  return updateProject(db, projectId, {
    scenes_count: drafts.length,
    removed_length: highlights.removedLength,
    jump_cuts_created: highlights.jumpCutsCreated,
    subtitles_lines_count: linesCount,
    subtitles_draft: draftLines ? 1 : 0,
    thumbnail_key: ready.find((m) => m.thumbnail_key)?.thumbnail_key ?? null,
    raw_preview_key: ready.length === 1 ? ready[0]!.proxy_key : ready.find((m) => m.proxy_key)?.proxy_key ?? null,
  });
}

const round = (t: number) => Math.round(t * 1000) / 1000;

/**
 * The first storyboard's scenes made word-safe (server/domain/word-safe.ts) for every file whose words are
 * known, and, when asked, each filler cut out as a hidden piece between shown ones (restore shows it).
 */
export function respectWords(
  drafts: readonly SceneDraft[],
  wordsOf: (mediaFileId: number) => readonly WordTiming[] | undefined,
  durations: ReadonlyMap<number, number>,
  removeFillers: boolean,
): (SceneDraft & { hidden?: boolean })[] {
  const byFile = new Map<number, SceneDraft[]>();
  for (const d of drafts) byFile.set(d.mediaFileId, [...(byFile.get(d.mediaFileId) ?? []), d]);
  const safe = new Map<SceneDraft, { start: number; end: number }>();
  for (const [id, own] of byFile) {
    const words = wordsOf(id);
    if (!words?.length) continue;
    const spans = wordSafeSpans(own.map((d) => ({ start: d.start, end: d.end })), words, durations.get(id) ?? Infinity);
    own.forEach((d, i) => safe.set(d, spans[i]!));
  }
  const out: (SceneDraft & { hidden?: boolean })[] = [];
  for (const d of drafts) {
    const offset = d.trimStartRaw - d.trimStart;
    const span = safe.get(d) ?? { start: d.start, end: d.end };
    const words = wordsOf(d.mediaFileId);
    const pieces = removeFillers && words?.length ? fillerPieces(span, words) : [{ ...span, shown: true }];
    for (const piece of pieces) {
      out.push({
        mediaFileId: d.mediaFileId,
        order: out.length + 1,
        start: piece.start,
        end: piece.end,
        trimStart: piece.start,
        trimEnd: piece.end,
        trimStartRaw: round(piece.start + offset),
        trimEndRaw: round(piece.end + offset),
        ...(piece.shown ? {} : { hidden: true }),
      });
    }
  }
  return out;
}
