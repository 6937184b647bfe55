import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { TextLine } from "../../api/storyboard";
import type { Db } from "../db";
import { renderOrder } from "../domain/sequence";
import { timelineLines } from "../speech/lines";
import { writeSrt, writeVtt } from "../speech/subtitle-files";
import type { FileStore } from "../storage/local";

/**
 * A project's subtitles file (SPEC §3 outputs subtitles.vtt; issue 14): the text lines of its shown scenes in
 * render order (intro first, outro last), each clipped to its scene's trim and placed where the scene plays.
 * Made on demand from the storyboard as it is now, under a name taken from its content, so an edit gives a new
 * file (and a new link) and an unchanged storyboard reuses the one made before.
 */

export type SubtitlesFormat = "vtt" | "srt";

/** A render's subtitle track (WebVTT, written by the render job) lives beside it: `preview-123.mp4` → `preview-123.vtt`. */
export const trackKeyOf = (renderKey: string) => renderKey.replace(/\.mp4$/, ".vtt");

const parseLines = (text: string): TextLine[] => {
  try {
    const lines = JSON.parse(text) as unknown;
    return Array.isArray(lines) ? (lines as TextLine[]) : [];
  } catch {
    return [];
  }
};

/** The project's subtitles in the edit's own time (seconds from the start of the render). */
export async function projectSubtitleLines(db: Db, projectId: number): Promise<TextLine[]> {
  const scenes = await db
    .selectFrom("scenes")
    .select(["type", "trim_start", "trim_end", "text", "visibility", "media_file_id"])
    .where("project_id", "=", projectId)
    .where("parent_scene_id", "is", null)
    .orderBy("order")
    .execute();
  const played = renderOrder(scenes.filter((s) => s.media_file_id !== null && s.visibility === 1));
  return timelineLines(played.map((s) => ({ trim_start: s.trim_start, trim_end: s.trim_end, text: parseLines(s.text) })));
}

/**
 * The store key of the project's subtitles file in this format, written when missing; null when the project
 * has no lines. Older files of the format go (nothing links to them for long: download links live an hour).
 */
export async function projectSubtitlesFile(
  db: Db,
  store: Pick<FileStore, "pathOf" | "exists">,
  project: { id: number; user_id: number },
  format: SubtitlesFormat,
): Promise<string | null> {
  const lines = await projectSubtitleLines(db, project.id);
  if (lines.length === 0) return null;
  const content = format === "vtt" ? writeVtt(lines) : writeSrt(lines);
  const hash = createHash("sha256").update(content).digest("hex").slice(0, 16);
  const folder = `projects/${project.user_id}/${project.id}`;
  const key = `${folder}/subtitles-${hash}.${format}`;
  if (await store.exists(key)) return key;
  const target = store.pathOf(key);
  await fs.mkdir(path.dirname(target), { recursive: true });
  // A `.part.` name the start-up sweep removes if a kill leaves it (jobs/leftovers.ts).
  const tmp = `${target}.${randomBytes(4).toString("hex")}.part.${format}`;
  await fs.writeFile(tmp, content, "utf8");
  await fs.rename(tmp, target);
  const names = await fs.readdir(path.dirname(target)).catch(() => [] as string[]);
  const pattern = new RegExp(`^subtitles-[0-9a-f]{16}\\.${format}$`);
  for (const name of names) {
    if (pattern.test(name) && name !== path.basename(target)) await fs.rm(path.join(path.dirname(target), name), { force: true });
  }
  return key;
}
