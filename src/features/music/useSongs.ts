import { useLiveQuery } from "dexie-react-hooks";
import type { Project } from "../../../api/projects";
import { db, type SongRow } from "../../db";
import { waitingPick } from "../../../workers/outbox";

const NO_SONGS: SongRow[] = [];

/** The songs the mirror holds (GET /bgms as last seen), in title order. */
export const useSongs = (): SongRow[] => useLiveQuery(() => db.songs.orderBy("title").toArray(), [], NO_SONGS);

/** When the songs were last fetched, or null when never (nothing to show offline). */
export const useSongsFetched = (): string | null | undefined =>
  useLiveQuery(async () => {
    const row = await db.meta.get("songs");
    return row?.key === "songs" ? row.value.fetchedAt : null;
  }, []);

/**
 * The project's song id as this device sees it: a pick still waiting in the outbox wins over the project row
 * (which a refresh from the server may have written meanwhile).
 */
export function useSongId(project: Pick<Project, "id" | "bgm_id">): number | null {
  const pick = useLiveQuery(async () => waitingPick(project.id, await db.outbox.where("projectId").equals(project.id).sortBy("seq")), [project.id], null);
  return pick ? pick.songId : project.bgm_id;
}

/** A song of the mirror: undefined while reading, null when the mirror does not have it. */
export const useSong = (id: number | null): SongRow | null | undefined =>
  useLiveQuery(async () => (id === null ? null : ((await db.songs.get(id)) ?? null)), [id]);
