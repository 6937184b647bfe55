import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Project } from "../../api/projects";
import type { Scene } from "../../api/scenes";

// jsdom has no CSS.escape; react-aria's overlays read a meta tag with it.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => {
  const ok = (data: unknown = {}) => vi.fn(async () => ({ ok: true as const, data }));
  return {
    trimScene: ok(),
    setSceneText: ok(),
    removeSceneLines: ok(),
    setSceneAttributes: ok(),
    removeOverlay: ok(),
    setSceneType: ok(),
    splitSceneByPosition: ok(),
    splitSceneByLine: ok(),
    // Issue 14: the trim and split dialogs ask for the scene's words and waveform (none here: they work without).
    loadProjectWords: ok({ files: 0 }),
    loadWaveform: vi.fn(async () => ({ ok: false as const, failure: { kind: "network" as const } })),
  };
});
vi.mock("../../src/worker", () => ({ worker }));

import {
  canSplitByLine,
  canSplitByPosition,
  FacesDialog,
  OverlayDialog,
  SceneTypeMenu,
  SplitByLineDialog,
  SplitDialog,
  TextLinesEditor,
  TrimDialog,
  VolumeDialog,
  volumeUnavailable,
} from "../../src/features/storyboard/tools";
import { withAddedLine } from "../../src/features/storyboard/tools/lines";
import { toasts } from "../../src/ui/Toast";

const scene = (over: Partial<Scene> = {}): Scene => ({
  id: 7,
  project_id: 1,
  order: 3,
  media_file_id: 2,
  media_file: { raw_preview_offset: 20 },
  isScene: true,
  type: "default",
  visibility: 1,
  start: 10,
  end: 20,
  trim_start: 11,
  trim_end: 19,
  trim_start_default: 11,
  trim_end_default: 19,
  trim_start_raw: 31,
  trim_end_raw: 39,
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
  ...over,
});
const project = (over: Partial<Project> = {}) => ({ id: 1, mute_videos: 0, export_raw_url: null, ...over }) as Project;
const lines = (...texts: string[]) => texts.map((text, i) => ({ start: 11 + i, end: 12 + i, text }));
const dialog = { isOpen: true, onOpenChange: () => {} };

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
const press = (element: Element) => fireEvent.click(element);
const type = (label: string, value: string) => {
  const input = screen.getByRole("textbox", { name: label });
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};
const button = (name: string | RegExp) => screen.getByRole("button", { name });
const settle = () => act(async () => {});

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  for (const action of Object.values(worker)) action.mockClear();
  for (const toast of toasts.visibleToasts) toasts.close(toast.key);
});
afterEach(cleanup);

describe("the trim tool (SPEC §4: the markers cannot pass each other)", () => {
  it("refuses a typed end before the start, says why and sends nothing", async () => {
    wrap(<TrimDialog scene={scene()} project={project()} {...dialog} />);
    type("End (seconds)", "10.5");
    expect(screen.getByText("The start marker cannot pass the end marker.")).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>("textbox", { name: "End (seconds)" }).value).toBe("19");
    press(button("Save"));
    await settle();
    expect(worker.trimScene).not.toHaveBeenCalled();
  });

  it("refuses equal markers", async () => {
    wrap(<TrimDialog scene={scene()} project={project()} {...dialog} />);
    type("Start (seconds)", "19");
    expect(screen.getByText("The start marker cannot pass the end marker.")).toBeTruthy();
    await settle();
    expect(worker.trimScene).not.toHaveBeenCalled();
  });

  it("refuses a marker outside the footage", () => {
    wrap(<TrimDialog scene={scene()} project={project()} {...dialog} />);
    type("Start (seconds)", "9");
    expect(screen.getByText("The trim goes past the start or the end of the footage.")).toBeTruthy();
  });

  it("stops a thumb one frame before the other on the track", () => {
    wrap(<TrimDialog scene={scene()} project={project()} {...dialog} />);
    const end = screen.getByRole<HTMLInputElement>("slider", { name: /^End marker/ });
    fireEvent.keyDown(end, { key: "Home" });
    expect(Number(end.value)).toBeCloseTo(11.04, 5);
    expect(Number(screen.getByRole<HTMLInputElement>("slider", { name: /^Start marker/ }).value)).toBe(11);
  });

  it("saves a good trim, toasts 'settings updated', and goes back to the default cut", async () => {
    const onOpenChange = vi.fn();
    wrap(<TrimDialog scene={scene({ trim_start: 12, trim_end: 18 })} project={project()} isOpen onOpenChange={onOpenChange} />);
    type("End (seconds)", "18.5");
    press(button("Save"));
    await settle();
    expect(worker.trimScene).toHaveBeenCalledWith(7, 12, 18.5);
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(toasts.visibleToasts.map((t) => t.content)).toEqual([{ variant: "success", title: "Settings updated" }]);

    cleanup();
    wrap(<TrimDialog scene={scene({ trim_start: 12, trim_end: 18 })} project={project()} {...dialog} />);
    press(button("Back to default"));
    press(button("Save"));
    await settle();
    expect(worker.trimScene).toHaveBeenLastCalledWith(7, 11, 19);
  });

  it("toasts the worker's refusal in words", async () => {
    worker.trimScene.mockResolvedValueOnce({ ok: false, failure: { kind: "bad_request", code: "out_of_bounds" } } as never);
    wrap(<TrimDialog scene={scene()} project={project()} {...dialog} />);
    type("Start (seconds)", "12");
    press(button("Save"));
    await settle();
    expect(toasts.visibleToasts[0]?.content).toMatchObject({ variant: "danger", description: "The trim goes past the start or the end of the footage." });
  });

  it("plays the preview from the new trim start, mapped onto the raw preview", () => {
    wrap(<TrimDialog scene={scene()} project={project({ export_raw_url: "/raw.mp4" })} {...dialog} />);
    const video = screen.getByLabelText<HTMLVideoElement>("Preview of the trimmed scene");
    const play = vi.spyOn(video, "play").mockResolvedValue();
    type("Start (seconds)", "12.5");
    press(button("Play the preview"));
    expect(play).toHaveBeenCalled();
    expect(video.currentTime).toBeCloseTo(32.5, 5);
  });
});

describe("text lines (SPEC §9: 35 characters a line)", () => {
  it("saves a 35-character line with Enter", async () => {
    const onClose = vi.fn();
    wrap(<TextLinesEditor scene={scene({ text: lines("Hello") })} project={project()} onClose={onClose} />);
    const input = screen.getByLabelText("Line 1");
    fireEvent.change(input, { target: { value: "x".repeat(35) } });
    expect(screen.getByText("35/35 characters")).toBeTruthy();
    fireEvent.submit(input.closest("form")!);
    await settle();
    expect(worker.setSceneText).toHaveBeenCalledWith(7, [{ start: 11, end: 12, text: "x".repeat(35) }]);
    expect(onClose).toHaveBeenCalled();
  });

  it("refuses a 36-character line and sends nothing", async () => {
    wrap(<TextLinesEditor scene={scene({ text: lines("Hello") })} project={project()} onClose={() => {}} />);
    const input = screen.getByLabelText("Line 1");
    fireEvent.change(input, { target: { value: "x".repeat(36) } });
    expect(screen.getByText("36/35 characters")).toBeTruthy();
    fireEvent.submit(input.closest("form")!);
    await settle();
    expect(screen.getAllByText("A text line has at most 35 characters.").length).toBeGreaterThan(0);
    expect(worker.setSceneText).not.toHaveBeenCalled();
  });

  it("cancels with Escape", () => {
    const onClose = vi.fn();
    wrap(<TextLinesEditor scene={scene({ text: lines("Hello") })} project={project()} onClose={onClose} />);
    fireEvent.keyDown(screen.getByLabelText("Line 1"), { key: "Escape" });
    expect(onClose).toHaveBeenCalled();
    expect(worker.setSceneText).not.toHaveBeenCalled();
  });

  it("adds a line in the span left, removes one, and removing all lines uses removelines", async () => {
    wrap(<TextLinesEditor scene={scene({ text: lines("One", "Two") })} project={project()} onClose={() => {}} />);
    press(button("Add a line"));
    fireEvent.change(screen.getByLabelText("Line 3"), { target: { value: "Three" } });
    press(button("Remove line 1"));
    press(button("Save"));
    await settle();
    expect(worker.setSceneText).toHaveBeenCalledWith(7, [
      { start: 12, end: 13, text: "Two" },
      { start: 13, end: 19, text: "Three" },
    ]);
    cleanup();
    wrap(<TextLinesEditor scene={scene({ text: lines("One") })} project={project()} onClose={() => {}} />);
    press(button("Remove line 1"));
    press(button("Save"));
    await settle();
    expect(worker.removeSceneLines).toHaveBeenCalledWith(7);
  });

  it("splits the last line's span evenly when no time is left", () => {
    expect(withAddedLine([{ start: 11, end: 19, text: "All" }], 11, 19)).toEqual([
      { start: 11, end: 15, text: "All" },
      { start: 15, end: 19, text: "" },
    ]);
    expect(withAddedLine([], 11, 19)).toEqual([{ start: 11, end: 19, text: "" }]);
  });
});

describe("splitting (SPEC §5)", () => {
  it("offers split by position only without text, and says why", () => {
    expect(canSplitByPosition(scene())).toBe(true);
    expect(canSplitByPosition(scene({ text: lines("Hi") }))).toBe(false);
    wrap(<SplitDialog scene={scene({ text: lines("Hi") })} project={project()} {...dialog} />);
    expect(screen.getByText("Split by position is only for scenes without text.")).toBeTruthy();
    expect(button("Split").hasAttribute("disabled")).toBe(true);
    expect(screen.queryByLabelText("Split at (seconds from the scene start)")).toBeNull();
  });

  it("refuses a split at the start or the end of the scene", () => {
    wrap(<SplitDialog scene={scene()} project={project()} {...dialog} />);
    type("Split at (seconds from the scene start)", "0");
    expect(screen.getByText("A split must leave something on both sides.")).toBeTruthy();
    expect(button("Split").hasAttribute("disabled")).toBe(true);
    type("Split at (seconds from the scene start)", "8");
    expect(button("Split").hasAttribute("disabled")).toBe(true);
  });

  it("splits at a position in seconds from the trim start", async () => {
    wrap(<SplitDialog scene={scene()} project={project()} {...dialog} />);
    type("Split at (seconds from the scene start)", "3");
    press(button("Split"));
    await settle();
    expect(worker.splitSceneByPosition).toHaveBeenCalledWith(7, 3);
  });

  it("offers the scissors only with two lines or more", async () => {
    expect(canSplitByLine(scene({ text: lines("One") }))).toBe(false);
    expect(canSplitByLine(scene({ text: lines("One", "Two") }))).toBe(true);
    wrap(<SplitByLineDialog scene={scene({ text: lines("One") })} project={project()} {...dialog} />);
    expect(screen.getByText("Split by text line needs a scene with more than one text line.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Split" })).toBeNull();
    cleanup();

    wrap(<SplitByLineDialog scene={scene({ text: lines("One", "Two", "Three") })} project={project()} {...dialog} />);
    const group = screen.getByRole("radiogroup", { name: "Where to cut" });
    expect(within(group).getAllByRole("radio").map((r) => r.closest("label")?.textContent)).toEqual(["Before line 2“Two”", "Before line 3“Three”"]);
    press(within(group).getByRole("radio", { name: /Before line 3/ }));
    press(button("Split"));
    await settle();
    expect(worker.splitSceneByLine).toHaveBeenCalledWith(7, 3);
  });
});

describe("volume (SPEC §5: unavailable when the project is muted)", () => {
  it("is unavailable when the project's footage is muted, and says why", () => {
    expect(volumeUnavailable(project({ mute_videos: 1 }))).toBe(true);
    expect(volumeUnavailable(project({ mute_videos: 0 }))).toBe(false);
    wrap(<VolumeDialog scene={scene()} project={project({ mute_videos: 1 })} {...dialog} />);
    expect(screen.getByText(/The volume tool is unavailable/)).toBeTruthy();
    expect(screen.queryByRole("radiogroup")).toBeNull();
  });

  it("shows the levels in the interface's words and saves both", async () => {
    wrap(<VolumeDialog scene={scene()} project={project()} {...dialog} />);
    const footage = screen.getByRole("radiogroup", { name: "Footage volume" });
    expect(within(footage).getAllByRole("radio").map((r) => r.closest("label")?.textContent)).toEqual(["Mute", "Low", "Medium", "High", "Full"]);
    press(within(footage).getByRole("radio", { name: "High" }));
    press(within(screen.getByRole("radiogroup", { name: "Music volume" })).getByRole("radio", { name: "Full" }));
    press(button("Save"));
    await settle();
    expect(worker.setSceneAttributes).toHaveBeenCalledWith(7, { mediaAudio: "loud", musicType: "mainmusic" });
  });
});

describe("faces and framing (SPEC §3 Framing)", () => {
  it("stores drawn and keyboard boxes as fractions of the frame", async () => {
    wrap(<FacesDialog scene={scene({ selected_faces: [{ BoundingBox: { Left: 0.1, Top: 0.1, Width: 0.2, Height: 0.2 }, visibility: 1 }] })} project={project()} {...dialog} />);
    const layer = document.querySelector<HTMLDivElement>(".faces-layer")!;
    vi.spyOn(layer, "getBoundingClientRect").mockReturnValue({ left: 100, top: 50, width: 400, height: 200, right: 500, bottom: 250, x: 100, y: 50, toJSON: () => ({}) });
    fireEvent.pointerDown(layer, { clientX: 200, clientY: 100, pointerId: 1 });
    fireEvent.pointerMove(layer, { clientX: 400, clientY: 200, pointerId: 1 });
    fireEvent.pointerUp(layer, { clientX: 400, clientY: 200, pointerId: 1 });

    press(button("Add a box"));
    const third = button("Face 3");
    fireEvent.keyDown(third, { key: "ArrowRight" });
    fireEvent.keyDown(third, { key: "ArrowDown", shiftKey: true });
    press(button("Face 1"));
    press(screen.getByRole("radio", { name: "Always punch in" }));
    press(screen.getByRole("switch", { name: /Crop this scene/ }));
    press(button("Save"));
    await settle();

    expect(worker.setSceneAttributes).toHaveBeenCalledWith(7, {
      selected_faces: [
        { BoundingBox: { Left: 0.1, Top: 0.1, Width: 0.2, Height: 0.2 }, visibility: 0 },
        { BoundingBox: { Left: 0.25, Top: 0.25, Width: 0.5, Height: 0.5 }, visibility: 1 },
        { BoundingBox: { Left: 0.36, Top: 0.3, Width: 0.3, Height: 0.41 }, visibility: 1 },
      ],
      punch_in: 2,
      crop: true,
    });
  });

  it("keeps a box inside the frame and deletes it with Delete", () => {
    wrap(<FacesDialog scene={scene({ selected_faces: [{ BoundingBox: { Left: 0.7, Top: 0, Width: 0.3, Height: 0.2 }, visibility: 1 }] })} project={project()} {...dialog} />);
    const box = button("Face 1");
    fireEvent.keyDown(box, { key: "ArrowRight" });
    fireEvent.keyDown(box, { key: "ArrowUp" });
    expect(box.style.left).toBe("70%");
    expect(box.style.top).toBe("0%");
    fireEvent.keyDown(box, { key: "Delete" });
    expect(screen.queryByRole("button", { name: "Face 1" })).toBeNull();
  });
});

describe("overlay (SPEC §4: the position sets the background rule)", () => {
  const overscene = { id: 70, media_file_id: 5, start: 0, end: 4, trim_start: 0, trim_end: 4, thumbnail: "/o.jpg", preview_url: null };

  async function choosePosition(name: string) {
    press(screen.getByRole("button", { name: /Position$/ }));
    press(await screen.findByRole("option", { name }));
  }

  it("hides the main scene for full screen and scale to fill, shows it for picture in picture, and lets the user flip it", async () => {
    wrap(<OverlayDialog scene={scene({ overscene, overscene_type: "pip_br", overscene_bg: 0 })} project={project()} {...dialog} />);
    const hide = () => screen.getByRole<HTMLInputElement>("switch", { name: "Hide the main scene" });
    expect(hide().checked).toBe(false);
    await choosePosition("Full screen");
    expect(hide().checked).toBe(true);
    await choosePosition("Picture in picture: top left");
    expect(hide().checked).toBe(false);
    await choosePosition("Scale to fill");
    expect(hide().checked).toBe(true);
    press(hide());
    press(screen.getByRole("switch", { name: "Fade transition" }));
    press(button("Save"));
    await settle();
    expect(worker.setSceneAttributes).toHaveBeenCalledWith(7, { overscene_type: "autozoom", overscene_fade: 1, overscene_overflow: 0, overscene_bg: 0 });
  });

  it("removes the overlay after asking", async () => {
    wrap(<OverlayDialog scene={scene({ overscene, overscene_type: "fullscrn", overscene_bg: 1 })} project={project()} {...dialog} />);
    press(button("Remove overlay"));
    const confirm = await screen.findByRole("alertdialog");
    press(within(confirm).getByRole("button", { name: "Remove overlay" }));
    await settle();
    expect(worker.removeOverlay).toHaveBeenCalledWith(7);
  });
});

describe("scene type (SPEC §4: intro, default, outro)", () => {
  it("changes the type from the menu", async () => {
    wrap(<SceneTypeMenu scene={scene()} project={project()} />);
    press(button("Scene type: Default"));
    press(await screen.findByRole("menuitemradio", { name: "Intro" }));
    await settle();
    expect(worker.setSceneType).toHaveBeenCalledWith(7, "intro");
  });
});
