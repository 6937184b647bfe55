import type { TextLine } from "../../../api/storyboard";
import { updateProject } from "../../db/projects";
import { projectSubtitleLines, trackKeyOf } from "../../services/subtitles";
import { linesForScenes } from "../../speech/lines";
import { writeTrack } from "./atomic";
import type { ProjectState } from "./project";
import { renderedHighlights } from "./render";
import type { Step } from "./step";
import { storedTranscript } from "./transcribe";
import { wordSafeTrimUpdates } from "../../domain/word-safe";

const noLines = (text: string) => {
  try {
    const lines = JSON.parse(text) as unknown;
    return !Array.isArray(lines) || lines.length === 0;
  } catch {
    return true;
  }
};

/**
 * The recognised words as lines in the scenes after Preview Ready (issue 14): each scene that has no lines yet
 * gets its file's words inside it (at most 35 characters a line, never a split word, clipped to the scene, as
 * the storyboard builder makes them), so a line the person wrote meanwhile is kept. The render's subtitle
 * track, the lines count and the subtitle flags follow, and the project is no longer pending — all in one
 * transaction, so a crash redoes the whole step or none of it. The project's and scenes' updated_at change:
 * the apps' next sync shows the lines.
 */
export const linesStep: Step<ProjectState> = {
  name: "subtitle lines",
  reads: ["scenes", "media_files.transcript", "unavailable"],
  writes: ["scenes.text", "preview-*.vtt", "project.subtitles_lines_count", "project.subtitles_pending"],
  weight: 10,
  done: ({ project }) => project.subtitles_pending === 0,
  async run(state) {
    const { deps, files } = state;
    const projectId = state.project.id;
    const transcripts = new Map(files.map((m) => [m.id, storedTranscript(m)]));
    state.project = await deps.db.transaction().execute(async (trx) => {
      const scenes = await trx
        .selectFrom("scenes")
        .select(["id", "media_file_id", "start", "end", "text", "trim_start", "trim_end", "trim_start_default", "trim_end_default", "trim_start_raw"])
        .where("project_id", "=", projectId)
        .where("parent_scene_id", "is", null)
        .where("media_file_id", "is not", null)
        .execute();
      const now = new Date().toISOString();
      // Word-safe margins (issue 14, domain/word-safe.ts): scenes nobody touched stop cutting into a word.
      const moved = wordSafeTrimUpdates(
        scenes.map((x) => ({ id: x.id, mediaFileId: x.media_file_id, start: x.start, end: x.end, trimStart: x.trim_start, trimEnd: x.trim_end, trimStartDefault: x.trim_start_default, trimEndDefault: x.trim_end_default })),
        (id) => transcripts.get(id)?.words,
      );
      for (const update of moved) {
        const scene = scenes.find((x) => x.id === update.id)!;
        const offset = scene.trim_start_raw - scene.trim_start;
        const edges = { start: update.start, end: update.end, trim_start: update.start, trim_end: update.end, trim_start_default: update.start, trim_end_default: update.end };
        const raw = { trim_start_raw: Math.round((update.start + offset) * 1000) / 1000, trim_end_raw: Math.round((update.end + offset) * 1000) / 1000 };
        await trx.updateTable("scenes").set({ ...edges, ...raw, updated_at: now }).where("id", "=", scene.id).execute();
        Object.assign(scene, edges);
      }
      let draft = false;
      for (const scene of scenes) {
        const transcript = transcripts.get(scene.media_file_id!);
        if (!transcript || !noLines(scene.text)) continue;
        const lines: TextLine[] = linesForScenes(transcript.words, [{ start: scene.start, end: scene.end }])[0]!;
        if (lines.length === 0) continue;
        draft ||= transcript.draft;
        await trx.updateTable("scenes").set({ text: JSON.stringify(lines), updated_at: now }).where("id", "=", scene.id).where("text", "=", scene.text).execute();
      }
      const project = await trx.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirstOrThrow();
      // The linked render's track (the players' captions) with the lines as it plays them.
      const played = await projectSubtitleLines(trx, projectId);
      if (project.export_key && played.length > 0) {
        await writeTrack(deps.store.pathOf(trackKeyOf(project.export_key)), played);
        await deps.store.commit(trackKeyOf(project.export_key));
      }
      const { subtitles_lines_count } = await renderedHighlights({ db: trx }, projectId);
      return updateProject(trx, projectId, {
        subtitles_pending: 0,
        subtitles_lines_count,
        // the preview was rendered with the scenes' old edges
        ...(moved.length > 0 ? { needs_render: 1 } : {}),
        subtitles_unavailable: state.unavailable ? JSON.stringify(state.unavailable) : null,
        ...(draft ? { subtitles_draft: 1 } : {}),
      });
    });
  },
};
