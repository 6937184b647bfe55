import { act, cleanup, fireEvent, render, renderHook, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeProject } from "./edit-fixtures";

const worker = vi.hoisted(() => ({
  renderNow: vi.fn(async () => ({ ok: true as const, data: {} })),
  reopenProject: vi.fn(async () => ({ ok: true as const, data: {} })),
  recreateStoryboard: vi.fn(async () => ({ ok: true as const, data: {} })),
}));
vi.mock("../../src/worker", () => ({ worker }));
const navigate = vi.hoisted(() => vi.fn());
vi.mock("@tanstack/react-router", () => ({ useNavigate: () => navigate }));

import { NeedsRenderAlert } from "../../src/features/edit/NeedsRenderAlert";
import { ProjectStateBanner } from "../../src/features/edit/ProjectStateBanner";
import { StoryboardTools } from "../../src/features/edit/StoryboardTools";
import { ReferencePlayerContext, ReferencePlayerController, useReferencePlayer } from "../../src/features/edit/reference-player";
import { isEditRouteTab, tabOfRoute } from "../../src/features/edit/tabs";
import { openTarget } from "../../src/lib/project-state";

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  worker.renderNow.mockClear();
  worker.reopenProject.mockClear();
  navigate.mockClear();
});
afterEach(cleanup);

describe("the edit screen's routes (SPEC §2 Routes, Project edit)", () => {
  it("opens each path on its tab; translate on the storyboard for now, download on Preview & Export", () => {
    expect(tabOfRoute("storyboard")).toBe("storyboard");
    expect(tabOfRoute("music")).toBe("music");
    expect(tabOfRoute("settings")).toBe("settings");
    expect(tabOfRoute("share")).toBe("share");
    expect(tabOfRoute("translate")).toBe("translate");
    expect(tabOfRoute("download")).toBe("share");
  });
  it("knows no other tab", () => {
    expect(isEditRouteTab("storyboard")).toBe(true);
    expect(isEditRouteTab("options")).toBe(false);
    expect(isEditRouteTab("")).toBe(false);
  });
  it("opens a project where the project list says (SPEC §2 Project list)", () => {
    expect(openTarget(makeProject({ status: "Render Ready" }))).toBe("share");
    expect(openTarget(makeProject({ status: "Preview Ready", export_raw_url: null }))).toBe("preview");
    expect(openTarget(makeProject({ status: "Working", export_raw_url: null }))).toBe("preview");
    expect(openTarget(makeProject({ status: "Preview Ready" }))).toBe("storyboard");
  });
});

describe("the needs-render alert (SPEC §2 Storyboard, §4)", () => {
  it("shows only for a needs-render project that is not busy", () => {
    const { rerender } = wrap(<NeedsRenderAlert project={makeProject({ needs_render: 0 })} />);
    expect(screen.queryByRole("button", { name: "Render now" })).toBeNull();
    for (const busy of [{ status: "Rendering" as const }, { status: "Working" as const }, { is_queued: 1 as const }]) {
      rerender(<I18nProvider i18n={i18n}>{<NeedsRenderAlert project={makeProject({ needs_render: 1, ...busy })} />}</I18nProvider>);
      expect(screen.queryByRole("button", { name: "Render now" })).toBeNull();
    }
    rerender(<I18nProvider i18n={i18n}>{<NeedsRenderAlert project={makeProject({ needs_render: 1 })} />}</I18nProvider>);
    expect(screen.getByText("This project has changes that are not in the preview.")).toBeTruthy();
  });

  it("renders, then goes to the preview", async () => {
    wrap(<NeedsRenderAlert project={makeProject({ needs_render: 1 })} />);
    fireEvent.click(screen.getByRole("button", { name: "Render now" }));
    await act(async () => {});
    expect(worker.renderNow).toHaveBeenCalledWith(41);
    expect(navigate).toHaveBeenCalledWith({ to: "/projects/$id/share", params: { id: 41 } });
  });
});

describe("a finished project (Render Ready) is read-only until reopened (SPEC §4)", () => {
  const FINISHED = "This project is finished and read-only. Reopen it to edit it again.";

  it("says why once at the top, with Reopen to edit, which reopens through the worker", async () => {
    wrap(<ProjectStateBanner project={makeProject({ status: "Render Ready", final_render: 1 })} />);
    expect(screen.getByText(FINISHED)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Reopen to edit" }));
    await act(async () => {});
    expect(worker.reopenProject).toHaveBeenCalledWith(41);
  });

  it("says nothing and offers no reopen on Preview Ready", () => {
    wrap(<ProjectStateBanner project={makeProject({ status: "Preview Ready" })} />);
    expect(screen.queryByText(FINISHED)).toBeNull();
    expect(screen.queryByRole("button", { name: "Reopen to edit" })).toBeNull();
  });

  it("offers no Render now, even with edits not in the preview", () => {
    wrap(<NeedsRenderAlert project={makeProject({ status: "Render Ready", final_render: 1, needs_render: 1 })} />);
    expect(screen.queryByRole("button", { name: "Render now" })).toBeNull();
  });

  it("disables reset and recreate storyboard, which Preview Ready offers", () => {
    const { rerender } = wrap(<StoryboardTools project={makeProject({ status: "Render Ready", final_render: 1 })} />);
    for (const name of ["Reset storyboard", "Recreate storyboard"]) expect((screen.getByRole("button", { name }) as HTMLButtonElement).disabled).toBe(true);
    rerender(<I18nProvider i18n={i18n}>{<StoryboardTools project={makeProject({ status: "Preview Ready" })} />}</I18nProvider>);
    for (const name of ["Reset storyboard", "Recreate storyboard"]) expect((screen.getByRole("button", { name }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe("the reference player's remote control (SPEC §2 Storyboard)", () => {
  const video = () => {
    const element = document.createElement("video");
    const played = vi.fn(async () => undefined);
    element.play = played;
    element.pause = vi.fn();
    return { element, played };
  };

  it("does nothing outside the edit screen", () => {
    const { result } = renderHook(() => useReferencePlayer());
    expect(result.current.available).toBe(false);
    expect(() => result.current.playRange(1, 2)).not.toThrow();
  });

  it("plays a range of the raw preview and pauses at its end", () => {
    const controller = new ReferencePlayerController();
    const { result } = renderHook(() => useReferencePlayer(), {
      wrapper: ({ children }) => <ReferencePlayerContext.Provider value={controller}>{children}</ReferencePlayerContext.Provider>,
    });
    const { element, played } = video();
    act(() => controller.setAvailable(true));
    expect(result.current.available).toBe(true);
    controller.attach(element);
    result.current.playRange(31, 39);
    expect(element.currentTime).toBe(31);
    expect(played).toHaveBeenCalled();
    element.currentTime = 38;
    element.dispatchEvent(new Event("timeupdate"));
    expect(element.pause).not.toHaveBeenCalled();
    element.currentTime = 39.05;
    element.dispatchEvent(new Event("timeupdate"));
    expect(element.pause).toHaveBeenCalledTimes(1);
  });

  it("plays on to the end from a scene ('play from here')", () => {
    const controller = new ReferencePlayerController();
    const { element } = video();
    controller.setAvailable(true);
    controller.attach(element);
    controller.playRange(12, null);
    element.currentTime = 500;
    element.dispatchEvent(new Event("timeupdate"));
    expect(element.pause).not.toHaveBeenCalled();
  });

  it("opens a collapsed panel and plays once its video is there", () => {
    const controller = new ReferencePlayerController();
    const open = vi.fn();
    controller.onOpenRequest = open;
    controller.setAvailable(true);
    controller.playRange(5, 8);
    expect(open).toHaveBeenCalled();
    const { element, played } = video();
    controller.attach(element);
    expect(element.currentTime).toBe(5);
    expect(played).toHaveBeenCalled();
  });

  it("ignores requests while there is no raw preview", () => {
    const controller = new ReferencePlayerController();
    const open = vi.fn();
    controller.onOpenRequest = open;
    controller.playRange(5, 8);
    expect(open).not.toHaveBeenCalled();
  });
});
