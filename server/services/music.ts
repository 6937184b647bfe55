import fs from "node:fs/promises";
import path from "node:path";
import type { PickSongBody, Song, SongsQuery } from "../../api/music";
import type { Project } from "../../api/projects";
import type { Db } from "../db";
import { findSong, listAvailableSongs, songFilePath, songFileVersions, type SongRow } from "../db/songs";
import type { MusicCatalogue, MusicDirs } from "../music/catalogue";
import type { Projects } from "./projects";
import { notFound } from "./errors";
import { FILE_LINK_TTL_S } from "./file-links";
import { sign, verifySignature } from "./signed-links";

/** Where a song's demo is served (outside the contract table: an <audio> element sends no bearer header). */
export const demoPath = (id: number) => `/api/v1/bgms/${id}/demo`;

const AUDIO_TYPES: Record<string, string> = {
  ".opus": "audio/ogg",
  ".ogg": "audio/ogg",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".flac": "audio/flac",
  ".wav": "audio/wav",
};

/** Case- and accent-insensitive form for search: "Café" and "cafe" match. */
export const folded = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase("en");

const tagsOf = (json: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
};

export interface MusicDeps {
  db: Db;
  catalogue: Pick<MusicCatalogue, "syncIfChanged">;
  dirs: MusicDirs;
  projects: Pick<Projects, "update">;
  /** Signs the demo links of MUSIC_DIR songs (the operator's files are not public). */
  secret: string;
}

/**
 * Background music (SPEC §3 Song, §7 /bgms; issue 15). Every signed-in user sees the same songs; picking one is a
 * settings change of the user's own project, through the projects service so its rules apply (a finished project's
 * options are read-only, the project needs a render).
 */
export function createMusic(deps: MusicDeps) {
  const { db } = deps;
  const demoPayload = (id: number, version: string, expires: number) => `bgm|${id}|${version}|${expires}`;

  /**
   * Catalogue demos are public CC0/CC-BY files: a stable URL, versioned by the file, cached for good. An operator's
   * song is reached by a link signed for that song and file version, valid FILE_LINK_TTL_S (rounded to the hour so
   * the list's URL, and the browser's cache, stay the same for a while).
   */
  function demoUrl(song: SongRow, version: string, now: number): string {
    const base = `${demoPath(song.id)}?v=${version}`;
    if (song.source === "catalogue") return base;
    const expires = Math.ceil(now / 1000 / 3600) * 3600 + FILE_LINK_TTL_S;
    return `${base}&expires=${expires}&signature=${sign(deps.secret, demoPayload(song.id, version, expires))}`;
  }

  function toSong(row: SongRow, version: string, now: number): Song {
    return {
      id: row.id,
      title: row.title,
      author: row.author,
      genre_tags: tagsOf(row.genre_tags),
      instrument_tags: tagsOf(row.instrument_tags),
      video_theme_tags: tagsOf(row.video_theme_tags),
      public_demo: demoUrl(row, version, now),
      duration_ms: row.duration_ms,
      licence: { id: row.licence_id, attribution: row.attribution },
      source: row.source,
    };
  }

  async function mustFind(id: number): Promise<SongRow> {
    const song = await findSong(db, id);
    if (!song) throw notFound("No such song");
    return song;
  }

  return {
    toSong,

    /** Sorted by title; `tag` matches any of the three tag lists, `q` the title or author (case and accents ignored). */
    async list(query: SongsQuery, now = Date.now()): Promise<{ data: Song[] }> {
      await deps.catalogue.syncIfChanged();
      const [rows, versions] = await Promise.all([listAvailableSongs(db), songFileVersions(db)]);
      const tag = query.tag ? folded(query.tag) : "";
      const q = query.q ? folded(query.q) : "";
      const songs = rows
        .filter((row) => !tag || [row.genre_tags, row.instrument_tags, row.video_theme_tags].some((list) => tagsOf(list).some((t) => folded(t) === tag)))
        .filter((row) => !q || folded(`${row.title}\n${row.author}`).includes(q))
        .filter((row) => versions.has(row.id))
        .map((row) => toSong(row, versions.get(row.id)!, now));
      const byTitle = new Intl.Collator("en", { sensitivity: "base", numeric: true });
      songs.sort((a, b) => byTitle.compare(a.title, b.title) || a.id - b.id);
      return { data: songs };
    },

    async get(id: number, now = Date.now()): Promise<Song> {
      const song = await mustFind(id);
      const version = (await songFileVersions(db, [id])).get(id) ?? "0";
      return toSong(song, version, now);
    },

    /** Sets the user's project's bgm_id and turns automatic music on; another user's project is not found. */
    async pick(userId: number, id: number, body: PickSongBody): Promise<Project> {
      await mustFind(id);
      return deps.projects.update(userId, body.project_id, { bgm_id: id, autobgm: 1 });
    },

    /**
     * The file a demo link opens, or undefined (unknown or unavailable song, a library song without a valid
     * signature, a file that now resolves outside its folder). `root` and `file` are for a static sender.
     */
    async demoFile(id: number, query: { v?: string; expires?: number; signature?: string }, now = Date.now()): Promise<{ root: string; file: string; type: string; catalogue: boolean } | undefined> {
      const song = await findSong(db, id);
      if (!song) return undefined;
      const version = (await songFileVersions(db, [id])).get(id);
      if (song.source === "library") {
        const { expires, signature } = query;
        if (!version || !expires || !signature || !(expires * 1000 > now) || !verifySignature(deps.secret, demoPayload(id, version, expires), signature)) return undefined;
      }
      let root: string;
      let file: string;
      try {
        root = song.source === "catalogue" ? deps.dirs.catalogueDir : deps.dirs.musicDir!;
        file = songFilePath(song, deps.dirs);
        if (!root) return undefined;
        // The file as it is now: a link swapped since the sync must still end inside its folder.
        const [realRoot, realFile] = await Promise.all([fs.realpath(root), fs.realpath(file)]);
        const rel = path.relative(realRoot, realFile);
        if (!rel || rel.startsWith("..") || path.isAbsolute(rel)) return undefined;
        return { root: realRoot, file: rel.split(path.sep).join("/"), type: AUDIO_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream", catalogue: song.source === "catalogue" };
      } catch {
        return undefined;
      }
    },
  };
}

export type Music = ReturnType<typeof createMusic>;
