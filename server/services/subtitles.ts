import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { TextLine } from "../../api/storyboard";
import type { Db } from "../db";
import { renderOrder } from "../domain/sequence";
import { fitLine, timelineLines } from "../speech/lines";
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

/** A line's key in every set: the original line it comes from, `${media_file_id}@${start in ms}` (api/subtitles.ts). */
export const lineKey = (mediaFileId: number, start: number) => `${mediaFileId}@${Math.round(start * 1000)}`;

/** An original line as the edit plays it: its key, its scene, its times in the edit's own time, its text. */
export interface KeyedLine extends TextLine {
  key: string;
  scene_id: number;
}

/**
 * The original lines of the project's shown scenes in render order (intro first), each clipped to its scene's
 * trim and placed where the scene plays, with the key that names it in every set.
 */
export async function originalKeyedLines(db: Db, projectId: number): Promise<KeyedLine[]> {
  const scenes = await db
    .selectFrom("scenes")
    .select(["id", "type", "trim_start", "trim_end", "text", "visibility", "media_file_id"])
    .where("project_id", "=", projectId)
    .where("parent_scene_id", "is", null)
    .orderBy("order")
    .orderBy("id")
    .execute();
  const played = renderOrder(scenes.filter((s) => s.media_file_id !== null && s.visibility === 1));
  const out: KeyedLine[] = [];
  let at = 0;
  for (const scene of played) {
    for (const line of parseLines(scene.text)) {
      // one line at a time, so each placed line keeps the key of its own
      const [placed] = timelineLines([{ trim_start: scene.trim_start, trim_end: scene.trim_end, text: [line] }], at);
      if (placed) out.push({ ...placed, key: lineKey(scene.media_file_id!, line.start), scene_id: scene.id });
    }
    at += Math.max(0, scene.trim_end - scene.trim_start);
  }
  return out;
}

/** A translated set's stored translations, by line key. */
export type Translations = Record<string, { source: string; text: string; edited: 0 | 1 }>;

export function parseTranslations(text: string | null | undefined): Translations {
  try {
    const value = JSON.parse(text ?? "{}") as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Translations) : {};
  } catch {
    return {};
  }
}

/**
 * The project's subtitles in the edit's own time (seconds from the start of the render): the original lines, or,
 * with `locale`, the lines of that translated set (a line without a translation is left out, never shown in the
 * original language). A locale that is the original set's, or that has no set, gives the original lines / none.
 */
export async function projectSubtitleLines(db: Db, projectId: number, locale?: string | null): Promise<TextLine[]> {
  const lines = await originalKeyedLines(db, projectId);
  const strip = (l: KeyedLine): TextLine => ({ start: l.start, end: l.end, text: l.text });
  if (!locale) return lines.map(strip);
  const set = await db.selectFrom("subtitle_sets").select(["original", "translations"]).where("project_id", "=", projectId).where("locale", "=", locale).executeTakeFirst();
  if (!set) {
    const project = await db.selectFrom("projects").select("locale").where("id", "=", projectId).executeTakeFirst();
    return project?.locale === locale ? lines.map(strip) : [];
  }
  if (set.original) return lines.map(strip);
  const translations = parseTranslations(set.translations);
  return lines.flatMap((l) => {
    const text = translations[l.key]?.text.trim();
    // a translation longer than a line plays as consecutive lines of at most 35 characters
    return text ? fitLine({ start: l.start, end: l.end, text }) : [];
  });
}

async function isTranslatedSet(db: Db, projectId: number, locale: string): Promise<boolean> {
  const set = await db.selectFrom("subtitle_sets").select("original").where("project_id", "=", projectId).where("locale", "=", locale).executeTakeFirst();
  return !!set && !set.original;
}

/**
 * The store key of the project's subtitles file in this format, written when missing; null when the project
 * has no lines. Older files of the format go (nothing links to them for long: download links live an hour).
 */
export async function projectSubtitlesFile(
  db: Db,
  store: Pick<FileStore, "pathOf" | "exists" | "commit" | "list" | "remove">,
  project: { id: number; user_id: number },
  format: SubtitlesFormat,
  locale?: string | null,
): Promise<string | null> {
  const lines = await projectSubtitleLines(db, project.id, locale);
  if (lines.length === 0) return null;
  const content = format === "vtt" ? writeVtt(lines) : writeSrt(lines);
  const hash = createHash("sha256").update(content).digest("hex").slice(0, 16);
  const folder = `projects/${project.user_id}/${project.id}`;
  // A translation's file carries its locale in its name, so making one never removes another's.
  const tag = locale && (await isTranslatedSet(db, project.id, locale)) ? `${locale.toLowerCase().replace(/[^a-z0-9-]/g, "")}-` : "";
  const key = `${folder}/subtitles-${tag}${hash}.${format}`;
  if (await store.exists(key)) return key;
  const target = store.pathOf(key);
  await fs.mkdir(path.dirname(target), { recursive: true });
  // A `.part.` name the start-up sweep removes if a kill leaves it (jobs/leftovers.ts).
  const tmp = `${target}.${randomBytes(4).toString("hex")}.part.${format}`;
  await fs.writeFile(tmp, content, "utf8");
  await fs.rename(tmp, target);
  await store.commit(key);
  const names = await store.list(folder);
  const pattern = new RegExp(`^subtitles-${tag}[0-9a-f]{16}\\.${format}$`);
  for (const name of names) {
    if (pattern.test(name) && name !== path.basename(target)) await store.remove(`${folder}/${name}`);
  }
  return key;
}
