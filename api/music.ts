/**
 * Background music (SPEC §3 Song, §7 /bgms; issue 15). The contract the server, the sync worker and the
 * views share.
 *
 * Songs come from two places: the catalogue that ships with Cutroom (`music/catalogue.json` and its Opus
 * files, composed by the project and released CC0) and an operator's own folder (`MUSIC_DIR`, read with
 * their tags). Every song has a stable integer id (a project's `bgm_id`).
 */
import { z } from "zod";

export const SongLicence = z.object({
  /** SPDX-style id: "CC0-1.0" or "CC-BY-4.0" (never share-alike, non-commercial or no-derivatives). */
  id: z.string(),
  /**
   * The line a published video must carry (CC-BY), added to the video-site description and the share page;
   * null when none is needed (CC0).
   */
  attribution: z.string().nullable(),
});
export type SongLicence = z.infer<typeof SongLicence>;

export const Song = z.object({
  id: z.number().int(),
  title: z.string(),
  author: z.string(),
  genre_tags: z.array(z.string()),
  instrument_tags: z.array(z.string()),
  video_theme_tags: z.array(z.string()),
  /** A URL the app's <audio> plays (the whole song, Opus or the operator's file), range-requestable. */
  public_demo: z.string(),
  duration_ms: z.number().int(),
  licence: SongLicence,
  /** "catalogue": ships with Cutroom; "library": the operator's MUSIC_DIR. */
  source: z.enum(["catalogue", "library"]),
});
export type Song = z.infer<typeof Song>;

/** GET /bgms: `tag` matches any of the three tag lists; `q` searches title and author (case- and accent-insensitive). */
export const SongsQuery = z.object({
  tag: z.string().trim().max(60).optional(),
  q: z.string().trim().max(100).optional(),
});
export type SongsQuery = z.infer<typeof SongsQuery>;

export const SongList = z.object({ data: z.array(Song) });
export type SongList = z.infer<typeof SongList>;

export const SongId = z.object({ id: z.coerce.number().int().positive() });

/** PUT /bgms/{id}: pick this song for a project (its bgm_id; automatic music stays on so the render plays it). */
export const PickSongBody = z.object({ project_id: z.number().int().positive() });
export type PickSongBody = z.infer<typeof PickSongBody>;
