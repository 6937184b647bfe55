import type { CutroomDb, LibraryListMeta } from "../src/db";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";
import type { LibraryItem, LibraryTab } from "../api/media";
import type { Scene, OverlayType } from "../api/scenes";

/** The meta key of a library list: a tab and its (trimmed) query. */
export const libraryKey = (tab: LibraryTab, query: string) => `library:${tab}:${query.trim()}` as const;
/** The meta key of one item's scenes and a text query. */
export const libraryScenesKey = (projectId: number, query: string) => `libraryScenes:${projectId}:${query.trim()}` as const;

/** What the library needs of the other actions: the storyboard and the project reloaded after an insert. */
export interface LibraryDeps {
  loadStoryboard(projectId: number, fresh?: boolean): Promise<unknown>;
  reloadSlice(projectId: number, sceneIds: number[]): Promise<unknown>;
  refreshProject(projectId: number): Promise<unknown>;
}

type Page<T> = { data: T[]; current_page: number; last_page: number; total: number };

/** Page 1 replaces the list's ids; later pages append (SPEC §7: library lists append pages beyond page 1). */
function nextMeta(before: LibraryListMeta | undefined, page: Page<{ id: number }>): LibraryListMeta {
  const fresh = page.data.map((row) => row.id);
  const kept = page.current_page > 1 && before ? before.ids.filter((id) => !fresh.includes(id)) : [];
  return {
    ids: [...kept, ...fresh],
    page: page.current_page,
    lastPage: page.last_page,
    total: page.total,
    fetchedAt: new Date().toISOString(),
  };
}

const metaValue = (row: { value: unknown } | undefined) => row?.value as LibraryListMeta | undefined;

/**
 * The media library page (SPEC §2 Media library): items of a tab (each upload is a library-type project,
 * the "scenes" tab lists the user's projects), the scenes of one item, rename and remove, and the inserts
 * into a project that go back to its storyboard.
 */
export function createLibraryActions(db: CutroomDb, call: ApiCall, deps: () => LibraryDeps) {
  /** Takes a removed item out of every list that showed it. */
  async function forgetItem(id: number) {
    await db.transaction("rw", db.library, db.meta, db.scenes, async () => {
      await db.library.delete(id);
      await db.scenes.where("project_id").equals(id).delete();
      const lists = await db.meta.where("key").startsWith("library:").toArray();
      for (const row of lists) {
        const value = metaValue(row);
        if (!value?.ids.includes(id)) continue;
        await db.meta.put({ ...row, value: { ...value, ids: value.ids.filter((x) => x !== id), total: Math.max(0, value.total - 1) } } as typeof row);
      }
    });
  }

  return {
    /** One page of a tab's items; an empty query lists the tab, otherwise it searches by name. */
    async searchLibrary(tab: LibraryTab, query: string, page = 1): Promise<Result<LibraryListMeta>> {
      const result = await call("library.search", { query: { query: query.trim(), page, type: tab } });
      if (!result.ok) return result;
      const key = libraryKey(tab, query);
      let meta!: LibraryListMeta;
      await db.transaction("rw", db.library, db.meta, async () => {
        await db.library.bulkPut(result.data.data);
        meta = nextMeta(metaValue(await db.meta.get(key)), result.data);
        await db.meta.put({ key, value: meta });
      });
      return { ok: true, data: meta };
    },

    /** One page of an item's scenes: all of them for an empty query, else those whose text has it. */
    async loadLibraryScenes(projectId: number, query: string, page = 1): Promise<Result<LibraryListMeta>> {
      const text = query.trim();
      const result = text
        ? await call("library.searchScenes", { params: { id: projectId }, query: { query: text, page } })
        : await call("library.scenes", { params: { id: projectId }, query: { page } });
      if (!result.ok) return result;
      const key = libraryScenesKey(projectId, text);
      let meta!: LibraryListMeta;
      await db.transaction("rw", db.scenes, db.meta, async () => {
        await db.scenes.bulkPut(result.data.data);
        meta = nextMeta(metaValue(await db.meta.get(key)), result.data);
        await db.meta.put({ key, value: meta });
      });
      return { ok: true, data: meta };
    },

    /** Renames at once in the mirror; the old name comes back if the server refuses. */
    async renameLibraryItem(id: number, name: string): Promise<Result<LibraryItem | undefined>> {
      const before = await db.library.get(id);
      await db.library.update(id, { name });
      const result = await call("projects.update", { params: { id }, body: { name } });
      if (!result.ok) {
        if (before) await db.library.update(id, { name: before.name });
        return result;
      }
      await db.library.update(id, { name: result.data.name });
      if (await db.projects.get(id)) await db.projects.put(result.data);
      return { ok: true, data: await db.library.get(id) };
    },

    /** Removes an uploaded file (only library-type items); a file used in a project is refused (media_in_use). */
    async removeLibraryItem(id: number): Promise<Result<null>> {
      const item = await db.library.get(id);
      if (item && item.type !== "library") return { ok: false, failure: { kind: "bad_request", code: "not_library_item" } };
      const result = await call("projects.delete", { params: { id } });
      if (!result.ok) {
        if (result.failure.kind === "body" && result.failure.body.code === "not_found") await forgetItem(id);
        return result;
      }
      await forgetItem(id);
      // The file's name is free again for the upload screen's double-file check.
      if (item?.media_file_id) await db.media.delete(item.media_file_id);
      return { ok: true, data: null };
    },

    /** Inserts library scenes (or whole items) at a 1-based position, then reloads the project and its storyboard. */
    async importScenes(projectId: number, order: number, pick: { scenes: number[]; projects: number[] }): Promise<Result<Scene[]>> {
      const result = await call("projects.import", { params: { id: projectId }, body: { order, scenes: pick.scenes, projects: pick.projects } });
      if (!result.ok) return result;
      await Promise.all([deps().loadStoryboard(projectId, true), deps().refreshProject(projectId)]);
      return { ok: true, data: result.data.scenes };
    },

    /** Puts one library scene over the project's scene `sceneId`, then reloads that scene's slice and the project. */
    async importOverlay(projectId: number, sceneId: number, librarySceneId: number, overlayType: OverlayType): Promise<Result<Scene>> {
      const result = await call("projects.importOverlay", {
        params: { id: projectId },
        body: { sceneid: sceneId, scenes: [librarySceneId], overscene_type: overlayType },
      });
      if (!result.ok) return result;
      await db.scenes.put(result.data);
      await Promise.all([deps().reloadSlice(projectId, [sceneId]), deps().refreshProject(projectId)]);
      return result;
    },
  };
}
