import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Project } from "../../api/projects";
import { makeProject } from "./edit-fixtures";

globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => ({ updateProjectSettings: vi.fn(async () => ({ ok: true as const, data: {} })), refreshSubtitles: vi.fn(async () => ({ ok: true as const, data: { sets: 0 } })) }));
vi.mock("../../src/worker", () => ({ worker }));
const user = vi.hoisted(() => ({ current: { features: ["render_notifications"] } as { features: string[] } | null }));
vi.mock("../../src/app/hooks", () => ({ useCurrentUser: () => user.current }));

import { OptionsPanel } from "../../src/features/edit/OptionsPanel";
import { optionPatch, optionsVisibility } from "../../src/features/edit/options";
import { toasts } from "../../src/ui/Toast";

const show = (over: Partial<Project>) => optionsVisibility(makeProject(over));
const wrap = (project: Project) => render(<I18nProvider i18n={i18n}>{<OptionsPanel project={project} />}</I18nProvider>);
const toggle = (name: string) => screen.queryByRole("switch", { name: new RegExp(`^${name}`) });
const settle = () => act(async () => {});

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  worker.updateProjectSettings.mockClear();
  user.current = { features: ["render_notifications"] };
  for (const toast of toasts.visibleToasts) toasts.close(toast.key);
});
afterEach(cleanup);

describe("the Options of a finished project (Render Ready, SPEC §4)", () => {
  // Every option on view, so that each control is checked.
  const all = { audio_preprocessor: 1, export_subtitle: 1, render_subtitle: 1, autobgm: 1, aspect: "16x9" } as const;
  const controls = () => [...screen.getAllByRole("switch"), ...screen.getAllByRole("button"), ...screen.getAllByRole("option")] as HTMLElement[];
  const isDisabled = (el: HTMLElement) => (el as HTMLInputElement).disabled || el.getAttribute("aria-disabled") === "true" || !!el.closest("[data-disabled]");

  it("disables every control, and a press sends nothing", async () => {
    wrap(makeProject({ ...all, status: "Render Ready", final_render: 1 }));
    expect(controls().length).toBeGreaterThan(15);
    for (const el of controls()) expect(isDisabled(el), el.textContent ?? el.getAttribute("aria-label") ?? "").toBe(true);
    fireEvent.click(toggle("Mute the footage")!);
    await settle();
    expect(worker.updateProjectSettings).not.toHaveBeenCalled();
  });

  it("disables nothing on Preview Ready", () => {
    wrap(makeProject({ ...all, status: "Preview Ready" }));
    for (const el of controls()) expect(isDisabled(el), el.textContent ?? el.getAttribute("aria-label") ?? "").toBe(false);
  });
});

describe("which options show (SPEC §5 Settings)", () => {
  it("offers the voice booster only with the audio enhancer on and the footage not muted", () => {
    expect(show({ audio_preprocessor: 0, mute_videos: 0 }).voiceBooster).toBe(false);
    expect(show({ audio_preprocessor: 1, mute_videos: 0 }).voiceBooster).toBe(true);
    expect(show({ audio_preprocessor: 1, mute_videos: 1 }).voiceBooster).toBe(false);
  });
  it("always offers smooth cuts and auto-cut silences: export_subtitle changes no render (issue 17 audit)", () => {
    expect(show({ export_subtitle: 0 }).cutOptions).toBe(true);
    expect(show({ export_subtitle: 1 }).cutOptions).toBe(true);
  });
  it("shows the subtitle style only with render_subtitle on", () => {
    expect(show({ render_subtitle: 0 }).subtitleStyle).toBe(false);
    expect(show({ render_subtitle: 1 }).subtitleStyle).toBe(true);
  });
  it("shows the shadow colour only with subtitles and their drop shadow on", () => {
    const font = makeProject().font;
    expect(show({ render_subtitle: 1, font: { ...font, dropshadow: 1 } }).shadowColour).toBe(true);
    expect(show({ render_subtitle: 1, font: { ...font, dropshadow: 0 } }).shadowColour).toBe(false);
    expect(show({ render_subtitle: 0, font: { ...font, dropshadow: 1 } }).shadowColour).toBe(false);
  });
  it("shows intro and outro music only with automatic music on", () => {
    expect(show({ autobgm: 0 }).introOutroMusic).toBe(false);
    expect(show({ autobgm: 1 }).introOutroMusic).toBe(true);
  });
});

describe("what a change sends", () => {
  it("clears the intro and outro modes when automatic music goes off, and starts them with music when on", () => {
    expect(optionPatch(makeProject({ intro_mode: "music", outro_mode: "silent" }), "autobgm", 0)).toEqual({ autobgm: 0, intro_mode: "", outro_mode: "" });
    expect(optionPatch(makeProject({ intro_mode: "", outro_mode: "silent" }), "autobgm", 1)).toEqual({ autobgm: 1, intro_mode: "music", outro_mode: "silent" });
  });
  it("turns the voice booster off with the audio enhancer", () => {
    expect(optionPatch(makeProject(), "audio_preprocessor", 0)).toEqual({ audio_preprocessor: 0, voice_booster: 0 });
    expect(optionPatch(makeProject(), "audio_preprocessor", 1)).toEqual({ audio_preprocessor: 1 });
  });
  it("sends other options alone", () => {
    expect(optionPatch(makeProject(), "musicType", "bgmloud")).toEqual({ musicType: "bgmloud" });
  });
});

describe("the Options tab", () => {
  it("hides the dependent options while their switch is off", () => {
    wrap(makeProject());
    expect(toggle("Audio enhancer")).toBeTruthy();
    expect(toggle("Voice booster")).toBeNull();
    expect(toggle("Drop shadow")).toBeNull();
    expect(screen.queryByRole("listbox", { name: "Text colour" })).toBeNull();
    expect(toggle("Music in the intro")).toBeNull();
  });

  it("shows them once their switch is on", () => {
    wrap(makeProject({ audio_preprocessor: 1, export_subtitle: 1, render_subtitle: 1, autobgm: 1, intro_mode: "music", outro_mode: "silent" }));
    expect(toggle("Voice booster")).toBeTruthy();
    expect(toggle("Smooth cuts")).toBeTruthy();
    expect(toggle("Auto-cut silences")).toBeTruthy();
    expect(toggle("Drop shadow")).toBeTruthy();
    expect(screen.getByRole("listbox", { name: "Text colour" }).querySelectorAll("[role=option]")).toHaveLength(10);
    expect(screen.getByRole("listbox", { name: "Border colour" })).toBeTruthy();
    expect(screen.getByRole("listbox", { name: "Shadow colour" }).querySelectorAll("[role=option]")).toHaveLength(10);
    // With no translation ready, the embedded language is the original one.
    expect(screen.getByRole("button", { name: /Language of the subtitles in the video/ }).textContent).toContain("English (US) (original)");
    expect((toggle("Music in the intro") as HTMLInputElement).checked).toBe(true);
    expect((toggle("Music in the outro") as HTMLInputElement).checked).toBe(false);
  });

  it("hides the voice booster on muted footage", () => {
    wrap(makeProject({ audio_preprocessor: 1, mute_videos: 1 }));
    expect(toggle("Voice booster")).toBeNull();
  });

  it("saves a switch at once and says 'settings updated'", async () => {
    wrap(makeProject());
    fireEvent.click(toggle("Subtitles")!);
    await settle();
    expect(worker.updateProjectSettings).toHaveBeenCalledWith(41, { render_subtitle: 1 });
    expect(toasts.visibleToasts.map((t) => t.content.title)).toContain("Settings updated");
  });

  it("saves 'Remove filler words' as the project's removefillers setting (issue 14)", async () => {
    wrap(makeProject({ export_subtitle: 1 }));
    const filler = toggle("Remove filler words") as HTMLInputElement;
    expect(filler.checked).toBe(false);
    fireEvent.click(filler);
    await settle();
    expect(worker.updateProjectSettings).toHaveBeenCalledWith(41, { removefillers: 1 });
  });

  it("sends the shadow colour with the rest of the font, and hides it without the drop shadow", async () => {
    const { unmount } = wrap(makeProject({ render_subtitle: 1 }));
    fireEvent.click(within(screen.getByRole("listbox", { name: "Shadow colour" })).getByRole("option", { name: /Blue/ }));
    await settle();
    expect(worker.updateProjectSettings).toHaveBeenCalledWith(41, { font: { color: "#ffffff", border_color: "#000000", shadow_color: "#1e88e5", dropshadow: 1, locale: null } });
    unmount();
    const project = makeProject({ render_subtitle: 1 });
    wrap({ ...project, font: { ...project.font, dropshadow: 0 } });
    expect(screen.queryByRole("listbox", { name: "Shadow colour" })).toBeNull();
  });

  it("sends the whole font when a subtitle colour is picked", async () => {
    wrap(makeProject({ render_subtitle: 1 }));
    fireEvent.click(within(screen.getByRole("listbox", { name: "Text colour" })).getByRole("option", { name: /Yellow/ }));
    await settle();
    expect(worker.updateProjectSettings).toHaveBeenCalledWith(41, { font: { color: "#ffd400", border_color: "#000000", shadow_color: "#000000", dropshadow: 1, locale: null } });
  });

  it("says why a change failed", async () => {
    worker.updateProjectSettings.mockResolvedValueOnce({ ok: false, failure: { kind: "network" } } as never);
    wrap(makeProject());
    fireEvent.click(toggle("Auto punch-in")!);
    await settle();
    const shown = toasts.visibleToasts.map((t) => [t.content.title, t.content.description]);
    expect(shown).toContainEqual(["Could not update the settings", "No connection. Check your network and try again."]);
  });

  it("offers no 'Edit from the transcript' switch, which changed no render (issue 17 audit)", () => {
    wrap(makeProject({ export_subtitle: 0 }));
    expect(toggle("Edit from the transcript")).toBeNull();
    expect(toggle("Smooth cuts")).not.toBeNull();
    expect(toggle("Auto-cut silences")).not.toBeNull();
  });

  it("shows render notifications only to users whose plan has them (SPEC §6)", () => {
    user.current = { features: [] };
    const { unmount } = wrap(makeProject());
    expect(toggle("Render notifications")).toBeNull();
    expect(screen.queryByRole("group", { name: "Notifications" })).toBeNull();
    unmount();
    user.current = { features: ["render_notifications"] };
    wrap(makeProject());
    expect(toggle("Render notifications")).not.toBeNull();
  });
});
