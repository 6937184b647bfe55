import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CutroomDb } from "../../src/db";
import { createLibraryActions, libraryKey, libraryScenesKey, type LibraryDeps } from "../../workers/library";
import type { ApiCall } from "../../workers/api-client";
import type { LibraryItem } from "../../api/media";
import type { Scene } from "../../api/scenes";

const item = (id: number, over: Partial<LibraryItem> = {}): LibraryItem => ({
  id,
  name: `file-${id}.mp4`,
  type: "library",
  kind: "video",
  media_file_id: id + 1000,
  duration: 12,
  scenes_count: 3,
  thumbnail_url: null,
  preview_url: null,
  raw_preview_render: 1,
  progress: 100,
  used_in_projects: 0,
  created_at: "2026-11-01T10:00:00.000Z",
  ...over,
});

const scene = (id: number, projectId: number, order: number): Scene => ({
  id,
  project_id: projectId,
  order,
  media_file_id: 1,
  media_file: { raw_preview_offset: 0 },
  isScene: true,
  type: "default",
  visibility: 1,
  start: 0,
  end: 2,
  trim_start: 0,
  trim_end: 2,
  trim_start_default: 0,
  trim_end_default: 2,
  trim_start_raw: 0,
  trim_end_raw: 2,
  thumbnail: null,
  text: [],
  mediaAudio: "standard",
  musicType: "bgmstandard",
  punch_in: 1,
  punch_in_status: 0,
  crop: false,
  selected_faces: [],
  overscene: null,
  overscene_type: null,
  overscene_fade: 0,
  overscene_overflow: 0,
  overscene_bg: 0,
});

const page = <T,>(data: T[], current_page: number, last_page: number, total: number) => ({ ok: true as const, data: { data, current_page, last_page, total } });

let db: CutroomDb;
let call: ReturnType<typeof vi.fn>;
let deps: { [K in keyof LibraryDeps]: ReturnType<typeof vi.fn> };
let actions: ReturnType<typeof createLibraryActions>;

beforeEach(() => {
  db = new CutroomDb(`library-${Math.random()}`);
  call = vi.fn();
  deps = { loadStoryboard: vi.fn(async () => undefined), reloadSlice: vi.fn(async () => undefined), refreshProject: vi.fn(async () => undefined) };
  actions = createLibraryActions(db, call as unknown as ApiCall, () => deps as unknown as LibraryDeps);
});

afterEach(async () => {
  await db.delete();
});

const metaOf = async (key: string) => (await db.meta.get(key as never))?.value as { ids: number[]; page: number; lastPage: number; total: number } | undefined;

describe("library search paging (SPEC §7: library lists append pages beyond page 1)", () => {
  it("page 1 stores the items and their order; page 2 appends", async () => {
    call.mockResolvedValueOnce(page([item(1), item(2)], 1, 2, 3));
    const first = await actions.searchLibrary("video", "", 1);
    expect(call).toHaveBeenCalledWith("library.search", { query: { query: "", page: 1, type: "video" } });
    expect(first.ok && first.data.ids).toEqual([1, 2]);

    call.mockResolvedValueOnce(page([item(3)], 2, 2, 3));
    await actions.searchLibrary("video", "", 2);
    expect(await metaOf(libraryKey("video", ""))).toMatchObject({ ids: [1, 2, 3], page: 2, lastPage: 2, total: 3 });
    expect((await db.library.toArray()).map((i) => i.id).sort()).toEqual([1, 2, 3]);
  });

  it("page 1 again replaces the ids (a refresh, or an item gone)", async () => {
    call.mockResolvedValueOnce(page([item(1), item(2)], 1, 2, 3)).mockResolvedValueOnce(page([item(3)], 2, 2, 3));
    await actions.searchLibrary("video", "", 1);
    await actions.searchLibrary("video", "", 2);
    call.mockResolvedValueOnce(page([item(4), item(1)], 1, 1, 2));
    await actions.searchLibrary("video", "", 1);
    expect(await metaOf(libraryKey("video", ""))).toMatchObject({ ids: [4, 1], page: 1, lastPage: 1, total: 2 });
  });

  it("keeps each tab and query apart, with the query trimmed", async () => {
    call.mockResolvedValueOnce(page([item(5)], 1, 1, 1));
    await actions.searchLibrary("audio", "  talk ", 1);
    expect(call).toHaveBeenCalledWith("library.search", { query: { query: "talk", page: 1, type: "audio" } });
    expect((await metaOf(libraryKey("audio", "talk")))?.ids).toEqual([5]);
    expect(await metaOf(libraryKey("video", ""))).toBeUndefined();
  });

  it("leaves the mirror alone when the call fails", async () => {
    call.mockResolvedValueOnce({ ok: false, failure: { kind: "network" } });
    const result = await actions.searchLibrary("video", "", 1);
    expect(result).toEqual({ ok: false, failure: { kind: "network" } });
    expect(await metaOf(libraryKey("video", ""))).toBeUndefined();
  });
});

describe("an item's scenes", () => {
  it("lists with an empty query and searches the text otherwise, appending later pages", async () => {
    call.mockResolvedValueOnce(page([scene(100, 9, 1), scene(101, 9, 2)], 1, 2, 3)).mockResolvedValueOnce(page([scene(102, 9, 3)], 2, 2, 3));
    await actions.loadLibraryScenes(9, "", 1);
    await actions.loadLibraryScenes(9, "", 2);
    expect(call).toHaveBeenNthCalledWith(1, "library.scenes", { params: { id: 9 }, query: { page: 1 } });
    expect((await metaOf(libraryScenesKey(9, "")))?.ids).toEqual([100, 101, 102]);
    expect(await db.scenes.count()).toBe(3);

    call.mockResolvedValueOnce(page([scene(101, 9, 2)], 1, 1, 1));
    await actions.loadLibraryScenes(9, "hello", 1);
    expect(call).toHaveBeenLastCalledWith("library.searchScenes", { params: { id: 9 }, query: { query: "hello", page: 1 } });
    expect((await metaOf(libraryScenesKey(9, "hello")))?.ids).toEqual([101]);
  });
});

describe("rename and remove", () => {
  it("renames at once and puts the old name back when refused", async () => {
    await db.library.put(item(1));
    let resolve!: (v: unknown) => void;
    call.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    const pending = actions.renameLibraryItem(1, "New name");
    await vi.waitFor(async () => expect((await db.library.get(1))?.name).toBe("New name"));
    resolve({ ok: false, failure: { kind: "bad_request" } });
    expect((await pending).ok).toBe(false);
    expect((await db.library.get(1))?.name).toBe("file-1.mp4");
    expect(call).toHaveBeenCalledWith("projects.update", { params: { id: 1 }, body: { name: "New name" } });
  });

  it("removes only library-type items, and a refused removal (media_in_use) keeps the item", async () => {
    await db.library.bulkPut([item(1), item(2, { type: "project" })]);
    expect(await actions.removeLibraryItem(2)).toEqual({ ok: false, failure: { kind: "bad_request", code: "not_library_item" } });
    expect(call).not.toHaveBeenCalled();

    const inUse = { ok: false, failure: { kind: "body", status: 409, body: { message: "in use", code: "media_in_use" } } };
    call.mockResolvedValueOnce(inUse);
    expect(await actions.removeLibraryItem(1)).toEqual(inUse);
    expect(await db.library.get(1)).toBeDefined();
  });

  it("a removed item leaves the mirror and every list that showed it", async () => {
    call.mockResolvedValueOnce(page([item(1), item(2)], 1, 1, 2));
    await actions.searchLibrary("video", "", 1);
    await db.scenes.put(scene(100, 1, 1));
    call.mockResolvedValueOnce({ ok: true, data: {} });
    expect(await actions.removeLibraryItem(1)).toEqual({ ok: true, data: null });
    expect(call).toHaveBeenLastCalledWith("projects.delete", { params: { id: 1 } });
    expect(await db.library.get(1)).toBeUndefined();
    expect(await db.scenes.get(100)).toBeUndefined();
    expect(await metaOf(libraryKey("video", ""))).toMatchObject({ ids: [2], total: 1 });
  });
});

describe("inserting into a project", () => {
  it("imports at a position, then reloads the storyboard and the project", async () => {
    call.mockResolvedValueOnce({ ok: true, data: { scenes: [scene(500, 3, 2)] } });
    const result = await actions.importScenes(3, 2, { scenes: [100], projects: [9] });
    expect(result.ok).toBe(true);
    expect(call).toHaveBeenCalledWith("projects.import", { params: { id: 3 }, body: { order: 2, scenes: [100], projects: [9] } });
    expect(deps.loadStoryboard).toHaveBeenCalledWith(3, true);
    expect(deps.refreshProject).toHaveBeenCalledWith(3);
  });

  it("does not reload after a refusal", async () => {
    call.mockResolvedValueOnce({ ok: false, failure: { kind: "bad_request", code: "media_not_ready" } });
    const result = await actions.importScenes(3, 1, { scenes: [100], projects: [] });
    expect(result.ok).toBe(false);
    expect(deps.loadStoryboard).not.toHaveBeenCalled();
  });

  it("puts one scene over a scene, then reloads that scene's slice and the project", async () => {
    const over = { ...scene(40, 3, 5), overscene_type: "pip_br" as const };
    call.mockResolvedValueOnce({ ok: true, data: over });
    const result = await actions.importOverlay(3, 40, 101, "pip_br");
    expect(result.ok).toBe(true);
    expect(call).toHaveBeenCalledWith("projects.importOverlay", { params: { id: 3 }, body: { sceneid: 40, scenes: [101], overscene_type: "pip_br" } });
    expect((await db.scenes.get(40))?.overscene_type).toBe("pip_br");
    expect(deps.reloadSlice).toHaveBeenCalledWith(3, [40]);
    expect(deps.refreshProject).toHaveBeenCalledWith(3);
  });
});
