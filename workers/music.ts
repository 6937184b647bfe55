import type { Project } from "../api/projects";
import type { Song } from "../api/music";
import type { CutroomDb } from "../src/db";
import type { ApiCall } from "./api-client";
import type { EditResult, Outbox } from "./outbox";
import type { Result } from "./status";

/**
 * Issue 15, the music picker's data: the songs of GET /bgms mirrored in Dexie (so the picker works offline with
 * the songs last seen), and a project's song picked through the outbox (PUT /bgms/{id}, offline too).
 * Pure parts first: the view filters the mirror with them.
 */

/** The three tag lists of a song, as one list (a tag filter matches any of them, as GET /bgms?tag does). */
export const songTags = (song: Pick<Song, "genre_tags" | "instrument_tags" | "video_theme_tags">): string[] => [
  ...song.genre_tags,
  ...song.instrument_tags,
  ...song.video_theme_tags,
];

/** Lower case without accents: "Café" finds "cafe" (the server's `q` is case- and accent-insensitive too). */
export const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .trim();

export interface SongFilter {
  /** Words looked for in the title and author. */
  q?: string;
  /** Tags the song must all have (in any of its three lists). */
  tags?: readonly string[];
}

/** The songs matching a search and tags, in the order given. */
export function filterSongs<S extends Song>(songs: readonly S[], { q = "", tags = [] }: SongFilter): S[] {
  const words = fold(q).split(/\s+/).filter(Boolean);
  const wanted = tags.map(fold);
  return songs.filter((song) => {
    const text = fold(`${song.title} ${song.author}`);
    if (!words.every((w) => text.includes(w))) return false;
    const own = new Set(songTags(song).map(fold));
    return wanted.every((tag) => own.has(tag));
  });
}

export type TagGroupName = "genre" | "instrument" | "theme";

/** Every tag the songs use, by list, each list sorted, without repeats (what the tag filter offers). */
export function tagGroups(songs: readonly Song[]): Record<TagGroupName, string[]> {
  const collect = (pick: (s: Song) => string[]) => [...new Set(songs.flatMap(pick))].sort((a, b) => a.localeCompare(b));
  return { genre: collect((s) => s.genre_tags), instrument: collect((s) => s.instrument_tags), theme: collect((s) => s.video_theme_tags) };
}

/** The songs in title order (the list's order; the server's order is its own). */
export const sortSongs = <S extends Pick<Song, "title">>(songs: readonly S[]): S[] => [...songs].sort((a, b) => a.title.localeCompare(b.title));

const notFound = (message: string): Result<never> => ({ ok: false, failure: { kind: "body", status: 404, body: { code: "not_found", message } } });

export function createMusicActions(db: CutroomDb, call: ApiCall, outbox: Outbox) {
  return {
    /**
     * Every song into the mirror (on opening the Music tab, and at start when signed in); songs the server no
     * longer lists leave it. Offline: the mirror keeps the songs last seen.
     */
    async refreshSongs(): Promise<Result<{ total: number }>> {
      const result = await call("bgms.list", { query: {} });
      if (!result.ok) return result;
      const songs = result.data.data;
      await db.transaction("rw", db.songs, db.meta, async () => {
        const listed = new Set(songs.map((s) => s.id));
        const stale = (await db.songs.toCollection().primaryKeys()).filter((id) => !listed.has(id));
        await db.songs.bulkDelete(stale);
        await db.songs.bulkPut(songs);
        await db.meta.put({ key: "songs", value: { total: songs.length, fetchedAt: new Date().toISOString() } });
      });
      return { ok: true, data: { total: songs.length } };
    },

    /**
     * The project's song. Works offline: the project shows it at once and PUT /bgms/{id} waits in the outbox;
     * picking again before it is sent replaces the waiting pick.
     */
    async pickSong(projectId: number, songId: number): Promise<EditResult<Project | null>> {
      const project = await db.projects.get(projectId);
      if (!project) return notFound("No such project");
      if (!(await db.songs.get(songId))) return notFound("No such song");
      return outbox.submitPick({ projectId, songId });
    },
  };
}
