import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import type { Project } from "../../api/projects";
import type { Scene } from "../../api/scenes";
import { CutroomDb, db } from "../../src/db";
import { createSceneActions } from "../../workers/scenes";
import type { ApiCall } from "../../workers/api-client";
import { autoScrollSpeed, clipsRequest, columnsFor, dropOrder, gapAt, mergeAfter, projectLength, shownScenes } from "../../src/features/storyboard/model";
import { DRAG_SCROLL_SENSITIVITY } from "../../src/lib/constants";

const ok = <T,>(data: T) => Promise.resolve({ ok: true as const, data });
const worker = vi.hoisted(() => ({
  loadStoryboard: vi.fn(),
  moveScene: vi.fn(),
  mergeNextScene: vi.fn(),
  hideScene: vi.fn(),
  showScene: vi.fn(),
  createClips: vi.fn(),
}));
const navigate = vi.hoisted(() => vi.fn());
vi.mock("../../src/worker", () => ({ worker }));
vi.mock("@tanstack/react-router", async (original) => ({ ...(await original<object>()), useNavigate: () => navigate }));

const { Storyboard } = await import("../../src/features/storyboard/Storyboard");

const PROJECT_ID = 7;

function project(over: Partial<Project> = {}): Project {
  return {
    id: PROJECT_ID, name: "Talk", title: null, locale: "en-US", status: "Preview Ready", failure: null, is_new: 0, is_queued: 0,
    deleted_at: null, thumbnailPath: null, duration_in_seconds: 60, duration_out_seconds: 50, total_filesize: 1, scenes_count: 3,
    type: "video", cuts_project: 0, audioonly: 0, working_progress: 100, working_progress_raw: 100, raw_preview_render: 1,
    export_url: null, export_raw_url: null, final_render: 0, needs_render: 0, created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z",
    autobgm: 0, bgm_id: null, autoduck: 0, audio_preprocessor: 0, video_preprocessor: 0, voice_booster: 0, autopunchin: 0, autocrop: 0,
    mute_videos: 0, render_subtitle: 0, export_subtitle: 0, smoothcuts: 0, autocutsilences: 1, render_notifications: 0,
    musicType: "bgmstandard", mediaAudio: "standard", intro_mode: "", outro_mode: "", intro_seconds: 0, outro_seconds: 0,
    style: "video", audio_type: "speech", font: { color: "#fff", border_color: "#000", shadow_color: "#000", dropshadow: 0, locale: null }, aspect: "",
    ...over,
  };
}

/** Scene `order` of file `media`, covering [start, end) of it, trimmed as made. */
function scene(order: number, start: number, end: number, over: Partial<Scene> = {}): Scene {
  return {
    id: 100 + order, project_id: PROJECT_ID, order, media_file_id: 1, media_file: { raw_preview_offset: 0 }, isScene: true, type: "default", visibility: 1,
    start, end, trim_start: start, trim_end: end, trim_start_default: start, trim_end_default: end, trim_start_raw: start, trim_end_raw: end,
    thumbnail: "/thumb.jpg", text: [], mediaAudio: "standard", musicType: "bgmstandard", punch_in: 1, punch_in_status: 0, crop: false,
    selected_faces: [], overscene: null, overscene_type: null, overscene_fade: 0, overscene_overflow: 0, overscene_bg: 0,
    ...over,
  };
}

async function seed(scenes: Scene[], over: Partial<Project> = {}) {
  await db.projects.put(project(over));
  await db.scenes.bulkPut(scenes);
  await db.meta.put({ key: `storyboard:${PROJECT_ID}`, value: { total: scenes.length, loaded: scenes.length, loading: false, fetchedAt: "" } });
}

function show() {
  return render(
    <I18nProvider i18n={i18n}>
      <Storyboard projectId={PROJECT_ID} />
    </I18nProvider>,
  );
}

const toggle = (name: string) => screen.getByRole("switch", { name });

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
  // jsdom has no layout: the grid measures 0 px wide (one column) and the window is 1024×768.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  window.scrollTo = () => undefined;
  // react-aria's overlays read a meta tag through CSS.escape, which jsdom lacks.
  const css = (globalThis.CSS ??= {} as typeof CSS);
  css.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);
});

beforeEach(async () => {
  await Promise.all([db.projects.clear(), db.scenes.clear(), db.meta.clear()]);
  for (const fn of Object.values(worker)) fn.mockReset();
  worker.loadStoryboard.mockImplementation(() => ok({ total: 0 }));
  navigate.mockReset();
});

afterEach(cleanup);

describe("the storyboard's rules for what is listed (SPEC §2 Storyboard)", () => {
  const removed = scene(2, 5, 10, { visibility: 0 });
  const all = [scene(1, 0, 5), removed, scene(3, 10, 12.5)];

  it("lists every scene, or only the visible ones when hiding removed scenes", () => {
    expect(shownScenes(all, false).map((s) => s.order)).toEqual([1, 2, 3]);
    expect(shownScenes(all, true).map((s) => s.order)).toEqual([1, 3]);
  });

  it("counts only visible scenes in the project length", () => {
    expect(projectLength(all)).toBe(7.5);
  });

  it("puts a merge button between scenes of one file whose defaults meet", () => {
    const scenes = [scene(1, 0, 5), scene(2, 5, 10), scene(3, 11, 12), scene(4, 12, 13, { media_file_id: 2 })];
    expect(mergeAfter(scenes, scenes, false)).toEqual([true, false, false, false]);
  });

  it("hides the merge button around a removed scene unless removed scenes are on view", () => {
    expect(mergeAfter(all, all, false)).toEqual([true, true, false]);
    const shown = shownScenes(all, true);
    // 1 and 3 are next to each other on screen, but the server would merge 1 with the hidden 2.
    expect(mergeAfter(all, shown, true)).toEqual([false, false]);
  });

  it("places a dropped card before the card it lands on, hidden scenes included in the order", () => {
    const ids = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
    expect(dropOrder(ids, [1, 2, 3, 4], 1, 3)).toBe(3);
    expect(dropOrder(ids, [1, 2, 3, 4], 4, 0)).toBe(1);
    expect(dropOrder(ids, [1, 2, 3, 4], 1, 4)).toBe(4);
    expect(dropOrder(ids, [1, 2, 3, 4], 2, 1)).toBeNull();
    expect(dropOrder(ids, [1, 2, 3, 4], 2, 2)).toBeNull();
    // Scene 3 is hidden and not listed: dropping 1 before 4 puts it right before 4.
    expect(dropOrder(ids, [1, 2, 4], 1, 2)).toBe(3);
  });

  it("finds the gap under the pointer in a grid and in a single column", () => {
    const grid = { columns: 3, cellWidth: 100, rowHeight: 200, count: 7 };
    expect(gapAt(10, 10, grid)).toBe(0);
    expect(gapAt(90, 10, grid)).toBe(1);
    expect(gapAt(120, 250, grid)).toBe(4);
    expect(gapAt(350, 450, grid)).toBe(7);
    const column = { columns: 1, cellWidth: 300, rowHeight: 200, count: 3 };
    expect(gapAt(50, 50, column)).toBe(0);
    expect(gapAt(50, 150, column)).toBe(1);
    expect(gapAt(50, 9999, column)).toBe(3);
  });

  it("scrolls while dragging near an edge, at the scroll sensitivity at the very edge", () => {
    expect(autoScrollSpeed(400, 0, 800)).toBe(0);
    expect(autoScrollSpeed(0, 0, 800)).toBe(-DRAG_SCROLL_SENSITIVITY);
    expect(autoScrollSpeed(800, 0, 800)).toBe(DRAG_SCROLL_SENSITIVITY);
    expect(autoScrollSpeed(800 - 36, 0, 800, 72)).toBe(DRAG_SCROLL_SENSITIVITY / 2);
  });

  it("shows one column at 360 px and more on wider screens", () => {
    expect(columnsFor(360 - 2 * 16)).toBe(1);
    expect(columnsFor(1000)).toBeGreaterThanOrEqual(4);
  });
});

describe("the clips-project request (SPEC §2, §5)", () => {
  it("needs a name and scenes", () => {
    expect(clipsRequest({ name: "  ", aspect: "", autocrop: true, final: true }, [1])).toEqual({ ok: false, invalid: "name" });
    expect(clipsRequest({ name: "Cuts", aspect: "", autocrop: true, final: true }, [])).toEqual({ ok: false, invalid: "scenes" });
  });
  it("sends auto crop only with a size", () => {
    const original = clipsRequest({ name: "Cuts", aspect: "", autocrop: true, final: false }, [3, 1]);
    expect(original).toEqual({ ok: true, body: { name: "Cuts", final: false, scenes: [3, 1], aspect: "", autocrop: false } });
    const square = clipsRequest({ name: "Cuts", aspect: "1x1", autocrop: true, final: true }, [3]);
    expect(square.ok && square.body.autocrop).toBe(true);
  });
});

describe("the Storyboard tab", () => {
  it("loads the storyboard and lists the cards by their number", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 10), scene(3, 10, 12)]);
    show();
    expect(await screen.findByRole("article", { name: "Scene 1" })).toBeTruthy();
    expect(screen.getByRole("article", { name: "Scene 3" })).toBeTruthy();
    expect(worker.loadStoryboard).toHaveBeenCalledWith(PROJECT_ID);
    expect(screen.getByText("00:12")).toBeTruthy();
  });

  it("shows the scenes loaded against the total while the storyboard loads", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 10)]);
    await db.meta.put({ key: `storyboard:${PROJECT_ID}`, value: { total: 30, loaded: 2, loading: true, fetchedAt: "" } });
    show();
    const bar = await screen.findByRole("progressbar", { name: "Loading scenes" });
    expect(bar.getAttribute("aria-valuetext")).toBe("2 of 30 scenes");
    await db.scenes.bulkPut(Array.from({ length: 28 }, (_, i) => scene(i + 3, 10 + i, 11 + i)));
    await waitFor(() => expect(screen.queryByRole("progressbar", { name: "Loading scenes" })).toBeNull());
  });

  it("turns select off when drag is turned on, and drag off when select is turned on", async () => {
    await seed([scene(1, 0, 5)]);
    show();
    await screen.findByRole("article", { name: "Scene 1" });
    fireEvent.click(toggle("Select"));
    expect((toggle("Select") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(toggle("Drag to reorder"));
    expect((toggle("Drag to reorder") as HTMLInputElement).checked).toBe(true);
    expect((toggle("Select") as HTMLInputElement).checked).toBe(false);
    fireEvent.click(toggle("Select"));
    expect((toggle("Drag to reorder") as HTMLInputElement).checked).toBe(false);
    expect((toggle("Select") as HTMLInputElement).checked).toBe(true);
  });

  it("leaves removed scenes out when 'hide removed scenes' is on", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 10, { visibility: 0 }), scene(3, 10, 12)]);
    show();
    const removedCard = await screen.findByRole("article", { name: "Scene 2" });
    expect(within(removedCard).getByText("Removed")).toBeTruthy();
    expect(within(removedCard).getByRole("button", { name: "Restore scene 2" })).toBeTruthy();
    fireEvent.click(toggle("Hide removed scenes"));
    await waitFor(() => expect(screen.queryByRole("article", { name: "Scene 2" })).toBeNull());
    expect(screen.getByRole("article", { name: "Scene 3" })).toBeTruthy();
  });

  it("offers merge only where the rule allows, and merges through the worker", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 10), scene(3, 11, 12)]);
    worker.mergeNextScene.mockImplementation(() => ok({ scenes: [] }));
    show();
    const merge = await screen.findByRole("button", { name: "Merge scene 1 with scene 2" });
    expect(screen.queryByRole("button", { name: "Merge scene 2 with scene 3" })).toBeNull();
    expect(screen.getByRole("button", { name: "Add at the start" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add scenes after scene 3" })).toBeTruthy();
    fireEvent.click(merge);
    await waitFor(() => expect(worker.mergeNextScene).toHaveBeenCalledWith(101));
  });

  it("sends the add buttons to the library at the right order", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 10)]);
    show();
    fireEvent.click(await screen.findByRole("button", { name: "Add at the start" }));
    fireEvent.click(screen.getByRole("button", { name: "Add scenes after scene 2" }));
    expect(navigate).toHaveBeenNthCalledWith(1, { to: "/projects/$id/library/$order", params: { id: PROJECT_ID, order: 1 } });
    expect(navigate).toHaveBeenNthCalledWith(2, { to: "/projects/$id/library/$order", params: { id: PROJECT_ID, order: 3 } });
  });

  it("moves a scene with the keyboard from the card's menu", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 10), scene(3, 10, 15)]);
    worker.moveScene.mockImplementation(() => ok({ scenes: [] }));
    show();
    fireEvent.click(await screen.findByRole("button", { name: "More actions for scene 1" }));
    fireEvent.click(await screen.findByRole("menuitem", { name: "Move later" }));
    await waitFor(() => expect(worker.moveScene).toHaveBeenCalledWith(101, 2));
  });

  it("moves a scene to a typed position", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 10), scene(3, 10, 15), scene(4, 15, 20)]);
    worker.moveScene.mockImplementation(() => ok({ scenes: [] }));
    show();
    fireEvent.click(await screen.findByRole("button", { name: "More actions for scene 1" }));
    fireEvent.click(await screen.findByRole("menuitem", { name: /Move to position/ }));
    const dialog = await screen.findByRole("dialog", { name: "Move scene 1" });
    const position = within(dialog).getByRole("textbox", { name: /New position/ });
    fireEvent.change(position, { target: { value: "3" } });
    fireEvent.blur(position);
    fireEvent.click(within(dialog).getByRole("button", { name: "Move" }));
    // After scene 3: the 1-based order among the other scenes is 3.
    await waitFor(() => expect(worker.moveScene).toHaveBeenCalledWith(101, 3));
  });

  it("sums the selected scenes in the selection toolbar", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 15), scene(3, 15, 17)]);
    show();
    await screen.findByRole("article", { name: "Scene 1" });
    fireEvent.click(toggle("Select"));
    fireEvent.click(screen.getByRole("checkbox", { name: "Select scene 1" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Select scene 2" }));
    const bar = screen.getByRole("toolbar", { name: "Selected scenes" });
    expect(within(bar).getByText("2 scenes selected")).toBeTruthy();
    expect(within(bar).getByText("Length 00:15")).toBeTruthy();
  });

  it("says no scenes are selected when the clips modal opens without a selection", async () => {
    await seed([scene(1, 0, 5)]);
    show();
    await screen.findByRole("article", { name: "Scene 1" });
    fireEvent.click(toggle("Select"));
    fireEvent.click(screen.getByRole("button", { name: "Create clips project" }));
    const dialog = await screen.findByRole("dialog", { name: "Create a clips project" });
    expect(within(dialog).getByText(/No scenes are selected/)).toBeTruthy();
  });

  it("requires a name, offers auto crop only with a size, and goes to /open for a download-ready project", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 10), scene(3, 10, 15)]);
    worker.createClips.mockImplementation(() => ok({ status: "success", cutsproject_id: 99 }));
    show();
    await screen.findByRole("article", { name: "Scene 1" });
    fireEvent.click(toggle("Select"));
    fireEvent.click(screen.getByRole("checkbox", { name: "Select scene 3" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Select scene 1" }));
    fireEvent.click(screen.getByRole("button", { name: "Create clips project" }));
    const dialog = await screen.findByRole("dialog", { name: "Create a clips project" });

    const name = within(dialog).getByRole("textbox", { name: /Name/ });
    expect(within(dialog).queryByRole("switch", { name: /Auto crop/ })).toBeNull();
    expect((within(dialog).getByRole("switch", { name: /Download ready/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole("button", { name: "Create clips project" }));
    await waitFor(() => expect(name.getAttribute("aria-invalid")).toBe("true"));
    expect(worker.createClips).not.toHaveBeenCalled();
    // Flagged, with no message text.
    expect(within(dialog).queryByText(/required/i)).toBeNull();

    fireEvent.click(within(dialog).getByRole("button", { name: /Size/ }));
    fireEvent.click(await screen.findByRole("option", { name: "Square 1x1" }));
    const autocrop = await within(dialog).findByRole("switch", { name: /Auto crop/ });
    expect((autocrop as HTMLInputElement).checked).toBe(true);

    fireEvent.change(name, { target: { value: "Best bits" } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole("button", { name: "Create clips project" }));
    });
    await waitFor(() => expect(worker.createClips).toHaveBeenCalledWith(PROJECT_ID, { name: "Best bits", final: true, scenes: [101, 103], aspect: "1x1", autocrop: true }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: "/open" }));
  });

  it("opens a non-final clips project in its storyboard", async () => {
    await seed([scene(1, 0, 5)]);
    worker.createClips.mockImplementation(() => ok({ status: "success", cutsproject_id: 99 }));
    show();
    await screen.findByRole("article", { name: "Scene 1" });
    fireEvent.click(toggle("Select"));
    fireEvent.click(screen.getByRole("checkbox", { name: "Select scene 1" }));
    fireEvent.click(screen.getByRole("button", { name: "Create clips project" }));
    const dialog = await screen.findByRole("dialog", { name: "Create a clips project" });
    fireEvent.change(within(dialog).getByRole("textbox", { name: /Name/ }), { target: { value: "Draft" } });
    fireEvent.click(within(dialog).getByRole("switch", { name: /Download ready/ }));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole("button", { name: "Create clips project" }));
    });
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: "/projects/$id/storyboard", params: { id: 99 } }));
    expect(worker.createClips.mock.calls[0]?.[1]).toMatchObject({ final: false, aspect: "", autocrop: false });
  });

  it("shows a busy project read-only", async () => {
    await seed([scene(1, 0, 5)], { status: "Rendering" });
    show();
    const card = await screen.findByRole("article", { name: "Scene 1" });
    expect(screen.getByText(/This project is being processed/)).toBeTruthy();
    expect(within(card).queryByRole("button", { name: "Remove scene 1" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Add at the start" })).toBeNull();
    expect((toggle("Drag to reorder") as HTMLInputElement).disabled).toBe(true);
  });

  it("shows a finished (Render Ready) project read-only, and editable again once reopened (SPEC §4)", async () => {
    await seed([scene(1, 0, 5), scene(2, 5, 10)], { status: "Render Ready", final_render: 1 });
    show();
    const card = await screen.findByRole("article", { name: "Scene 1" });
    // Readable: the cards and their play action stay.
    expect(within(card).getByRole("button", { name: "Play scene 1" })).toBeTruthy();
    // No edit: no text, remove, add or merge; drag and select off; the menu only plays.
    expect(within(card).queryByRole("button", { name: "Edit text of scene 1" })).toBeNull();
    expect(within(card).queryByRole("button", { name: "Remove scene 1" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Add at the start" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Add scenes after scene 1" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Merge scene 1 with scene 2" })).toBeNull();
    expect((toggle("Drag to reorder") as HTMLInputElement).disabled).toBe(true);
    expect((toggle("Select") as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(card).getByRole("button", { name: "More actions for scene 1" }));
    expect(await screen.findByRole("menuitem", { name: "Play from here" })).toBeTruthy();
    for (const name of ["Trim", "Duplicate", "Move later", "Change type"]) expect(screen.queryByRole("menuitem", { name })).toBeNull();
    fireEvent.keyDown(screen.getByRole("menu"), { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
    // The reason is said once, by the edit screen's banner, not again by the storyboard.
    expect(screen.queryByText(/This project is being processed/)).toBeNull();

    // Reopened: the worker stores the project as Preview Ready and the storyboard is editable again.
    await act(async () => {
      await db.projects.update(PROJECT_ID, { status: "Preview Ready", final_render: 0 });
    });
    expect(await screen.findByRole("button", { name: "Merge scene 1 with scene 2" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Remove scene 1" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add at the start" })).toBeTruthy();
    expect((toggle("Drag to reorder") as HTMLInputElement).disabled).toBe(false);
    expect((toggle("Select") as HTMLInputElement).disabled).toBe(false);
  });

  it("mounts only the cards on screen of a 2,000-scene storyboard", async () => {
    await seed(Array.from({ length: 2000 }, (_, i) => scene(i + 1, i * 2, i * 2 + 2)));
    show();
    expect(await screen.findByRole("article", { name: "Scene 1" })).toBeTruthy();
    const mounted = screen.getAllByRole("article").length;
    expect(mounted).toBeGreaterThan(0);
    expect(mounted).toBeLessThan(40);
    expect(screen.getByRole("list", { name: "Scenes" }).style.height).toBe(`${2000 * 280}px`);
    expect(screen.getByText("1:06:40")).toBeTruthy();
  });
});

describe("reloading after a structural edit (workers/scenes.ts)", () => {
  it("loads again after a load already under way, whose first batches may predate the edit", async () => {
    const mirror = new CutroomDb(`storyboard-reload-${Date.now()}`);
    const scenes = [scene(1, 0, 5), scene(2, 5, 10)];
    await mirror.scenes.bulkPut(scenes);
    const pending: (() => void)[] = [];
    const loads: number[] = [];
    const call = (async (name: string) => {
      if (name === "storyboard.get") {
        loads.push(loads.length + 1);
        await new Promise<void>((resolve) => pending.push(resolve));
        return { ok: true, data: { projectId: PROJECT_ID, offset: 0, limit: 25, hasMoreScenes: false, timeline: { scenes, projectScenesTotal: 2 } } };
      }
      if (name === "scenes.order") return { ok: true, data: { scenes } };
      return { ok: false, failure: { kind: "network" } };
    }) as unknown as ApiCall;
    const actions = createSceneActions(mirror, call);

    const polling = actions.loadStoryboard(PROJECT_ID);
    expect(actions.loadStoryboard(PROJECT_ID)).toBe(polling);
    const moved = actions.moveScene(101, 2);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    pending.shift()!();
    await polling;
    await vi.waitFor(() => expect(loads).toEqual([1, 2]));
    pending.shift()!();
    expect((await moved).ok).toBe(true);
    mirror.close();
  });
});
