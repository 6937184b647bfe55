import { VIDEO_DESCRIPTION_MAX } from "../../api/share";
import type { Db } from "../db";
import type { ProjectRow } from "../db/projects";
import { findSongAnyState } from "../db/songs";

/**
 * The song the project's last render played: `music_song_id` as the render recorded it in applied_features
 * (issue 15), else, for a render that recorded music without naming it, the project's chosen bgm_id.
 */
export function renderedSongId(row: Pick<ProjectRow, "applied_features" | "settings">): number | null {
  try {
    const applied = JSON.parse(row.applied_features || "{}") as { music?: unknown; music_song_id?: unknown };
    if (typeof applied.music_song_id === "number" && Number.isSafeInteger(applied.music_song_id)) return applied.music_song_id;
    if (applied.music_song_id === null || applied.music !== true) return null;
    const bgm = (JSON.parse(row.settings || "{}") as { bgm_id?: unknown }).bgm_id;
    return typeof bgm === "number" && Number.isSafeInteger(bgm) ? bgm : null;
  } catch {
    return null;
  }
}

/**
 * The credit line a published video of this project must carry (a CC-BY song's attribution, an operator's song's
 * credit), or null when the render used no music or music that needs none (CC0). The song may since have left the
 * catalogue: the video still played it.
 */
export async function musicAttribution(db: Db, row: Pick<ProjectRow, "applied_features" | "settings">): Promise<string | null> {
  const id = renderedSongId(row);
  if (id === null) return null;
  const song = await findSongAnyState(db, id);
  return song?.attribution ? `Music: ${song.attribution}` : null;
}

/**
 * The description with the credit line at its end (unless the person already wrote it), within `max` characters:
 * the person's text is shortened, never the credit.
 */
export function withAttribution(description: string, line: string | null, max = VIDEO_DESCRIPTION_MAX): string {
  if (!line || description.includes(line)) return description;
  const separator = description.trim() ? "\n\n" : "";
  const room = max - line.length - separator.length;
  if (room <= 0) return line.slice(0, max);
  const text = description.trimEnd();
  const kept = text.length > room ? `${text.slice(0, Math.max(0, room - 1)).trimEnd()}…` : text;
  return `${kept}${kept ? separator : ""}${line}`;
}
