import { useLiveQuery } from "dexie-react-hooks";
import { useCallback, useEffect, useRef, useState } from "react";
import type { LibraryItem, LibraryTab } from "../../../api/media";
import type { Scene } from "../../../api/scenes";
import { usePolling } from "../../app/usePolling";
import { db, type LibraryListMeta, type MetaRow } from "../../db";
import type { Failure, Result } from "../../../workers/status";
import { libraryKey, libraryScenesKey } from "../../../workers/library";

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A list of the mirror: its meta (null before the first answer) and its rows in server order. */
interface MirroredList<T> {
  meta: LibraryListMeta | null;
  rows: T[];
}

async function readList<T>(key: MetaRow["key"], get: (ids: number[]) => Promise<(T | undefined)[]>): Promise<MirroredList<T>> {
  const row = await db.meta.get(key);
  const meta = (row?.value as LibraryListMeta | undefined) ?? null;
  if (!meta) return { meta: null, rows: [] };
  const rows = await get(meta.ids);
  return { meta, rows: rows.filter((r): r is T => !!r) };
}

export const useLibraryList = (tab: LibraryTab, query: string): MirroredList<LibraryItem> | undefined =>
  useLiveQuery(() => readList(libraryKey(tab, query), (ids) => db.library.bulkGet(ids)), [tab, query]);

export const useItemScenes = (projectId: number | null, query: string): MirroredList<Scene> | undefined =>
  useLiveQuery(
    () => (projectId === null ? { meta: null, rows: [] } : readList(libraryScenesKey(projectId, query), (ids) => db.scenes.bulkGet(ids))),
    [projectId, query],
  );

/** The item, null once it is known to be gone (e.g. removed), undefined while reading. */
export function useLibraryItem(id: number | null): LibraryItem | null | undefined {
  // Tagged with the id asked for: right after `id` changes the hook still holds the previous answer.
  const found = useLiveQuery(async () => (id === null ? undefined : { id, item: (await db.library.get(id)) ?? null }), [id]);
  return found && found.id === id ? found.item : undefined;
}

/**
 * Loads a paged list through the worker and keeps it fresh (SPEC §9: 60 s): each refresh reloads the
 * pages already shown, page 1 first (which replaces) then the rest (which append). `more` fetches the
 * next page.
 */
export function usePagedLoader(key: string, meta: LibraryListMeta | null | undefined, load: (page: number) => Promise<Result<LibraryListMeta>>, enabled = true) {
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const shownPages = useRef(1);
  shownPages.current = meta?.page ?? 1;
  const loader = useRef(load);
  loader.current = load;

  const run = useCallback(async (pages: number[]) => {
    setLoading(true);
    try {
      for (const page of pages) {
        const result = await loader.current(page);
        setFailure(result.ok ? null : result.failure);
        if (!result.ok) break;
      }
    } finally {
      setLoading(false);
    }
  }, []);

  // A new list starts from page 1; the pages shown before are reloaded on the next poll.
  usePolling(() => run(Array.from({ length: shownPages.current }, (_, i) => i + 1)), key, undefined, enabled);

  const more = () => (meta && meta.page < meta.lastPage ? run([meta.page + 1]) : Promise.resolve());
  return { loading, failure, more, reload: () => run([1]) };
}
