import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeProject } from "./edit-fixtures";

// jsdom has no CSS.escape; react-aria's overlays read a meta tag with it.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => ({ renderProject: vi.fn() }));
vi.mock("../../src/worker", () => ({ worker }));
type TestUser = { video_tier: number; ltd_tier: string | null; features: string[] };
const hooks = vi.hoisted(() => ({ user: { video_tier: 0, ltd_tier: null, features: [] } as TestUser }));
vi.mock("../../src/app/hooks", () => ({ useCurrentUser: () => hooks.user, useConfig: () => null }));
const toasts = vi.hoisted(() => vi.fn());
vi.mock("../../src/ui/Toast", () => ({ toast: toasts }));

import { ExportForm } from "../../src/features/preview/ExportForm";
import { CutroomDb } from "../../src/db";
import type { ApiCall } from "../../workers/api-client";
import { createProjectActions } from "../../workers/projects";

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
const preview = makeProject({ status: "Preview Ready" });
const resolutions = () => within(screen.getByRole("radiogroup", { name: "Resolution" })).getAllByRole("radio").map((r) => r.closest("label")!.textContent);

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  worker.renderProject.mockReset();
  worker.renderProject.mockResolvedValue({ ok: true, data: {} });
  toasts.mockReset();
});
afterEach(cleanup);

describe("the export form (SPEC §3 Export options, §5 Export, §6 tiers)", () => {
  it("offers a free user only 720p and says the export carries the watermark", () => {
    hooks.user = { video_tier: 0, ltd_tier: null, features: [] };
    wrap(<ExportForm project={preview} />);
    expect(resolutions()).toEqual(["720p"]);
    expect(screen.getByText("On your plan the exported video carries the Cutroom watermark.")).toBeTruthy();
    expect(screen.getByText("Cutroom never upscales: a smaller source stays at its own size.")).toBeTruthy();
  });

  it("offers a free user 1080p without the watermark line on a project whose export was bought once (issue 16)", () => {
    hooks.user = { video_tier: 0, ltd_tier: null, features: [] };
    wrap(<ExportForm project={{ ...preview, export_unlocked: 1 }} />);
    expect(resolutions()).toEqual(["720p", "1080p (Full HD)"]);
    expect(screen.queryByText(/watermark/)).toBeNull();
  });

  it("offers a tier-2 user 720p and 1080p, no 4k, and no watermark line", () => {
    hooks.user = { video_tier: 2, ltd_tier: null, features: ["no_watermark"] };
    wrap(<ExportForm project={preview} />);
    expect(resolutions()).toEqual(["720p", "1080p (Full HD)"]);
    expect(screen.queryByText(/watermark/)).toBeNull();
  });

  it("offers a lifetime deal 1080p (as the server's render rights) and 4k only above tier 3", () => {
    hooks.user = { video_tier: 0, ltd_tier: "ltd1", features: [] };
    const { unmount } = wrap(<ExportForm project={preview} />);
    expect(resolutions()).toEqual(["720p", "1080p (Full HD)"]);
    unmount();
    hooks.user = { video_tier: 4, ltd_tier: null, features: ["no_watermark"] };
    wrap(<ExportForm project={preview} />);
    expect(resolutions()).toEqual(["720p", "1080p (Full HD)", "4k (Ultra HD)"]);
  });

  it("sends a final render with the chosen tier and aspect through the worker", async () => {
    hooks.user = { video_tier: 2, ltd_tier: null, features: ["no_watermark"] };
    wrap(<ExportForm project={preview} />);
    fireEvent.click(screen.getByRole("radio", { name: "720p" }));
    fireEvent.click(screen.getByRole("button", { name: /Aspect/ }));
    fireEvent.click(await screen.findByRole("option", { name: "Square 1:1" }));
    fireEvent.click(screen.getByRole("button", { name: "Export" }));
    await waitFor(() => expect(worker.renderProject).toHaveBeenCalledTimes(1));
    expect(worker.renderProject).toHaveBeenCalledWith(41, true, expect.objectContaining({ tier: 1, aspect: "1x1" }));
  });

  it("defaults to 1080p where the plan has it and the original aspect, and says Export again when Render Ready", async () => {
    hooks.user = { video_tier: 2, ltd_tier: null, features: ["no_watermark"] };
    wrap(<ExportForm project={makeProject({ status: "Render Ready", final_render: 1, aspect: "" })} />);
    fireEvent.click(screen.getByRole("button", { name: "Export again" }));
    // No aspect: crop means nothing and is not sent; the name defaults to the project's, privacy to private.
    await waitFor(() => expect(worker.renderProject).toHaveBeenCalledWith(41, true, { tier: 2, aspect: "", name: "Team talk", description: "", privacy: "private" }));
  });

  it("shows the server's tier_not_allowed refusal in words", async () => {
    hooks.user = { video_tier: 2, ltd_tier: null, features: ["no_watermark"] };
    worker.renderProject.mockResolvedValue({ ok: false, failure: { kind: "body", status: 422, body: { message: "x", code: "tier_not_allowed" } } });
    wrap(<ExportForm project={preview} />);
    fireEvent.click(screen.getByRole("button", { name: "Export" }));
    await waitFor(() => expect(toasts).toHaveBeenCalledTimes(1));
    expect(toasts.mock.calls[0]![0]).toMatchObject({
      variant: "danger",
      description: "Your plan does not include this resolution. Choose a lower one or upgrade your plan.",
    });
  });

  it("offers crop only with an aspect, starting from the project's auto crop, and sends the choice", async () => {
    hooks.user = { video_tier: 2, ltd_tier: null, features: ["no_watermark"] };
    wrap(<ExportForm project={makeProject({ status: "Preview Ready", aspect: "", autocrop: 1 })} />);
    expect(screen.queryByRole("switch", { name: /Crop to fill the frame/ })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: /Aspect/ }));
    fireEvent.click(await screen.findByRole("option", { name: "Portrait 9:16" }));
    const crop = screen.getByRole("switch", { name: /Crop to fill the frame/ });
    expect((crop as HTMLInputElement).checked).toBe(true);
    fireEvent.click(crop);
    expect(screen.getByText("The whole picture is kept, with bars at its sides or above and below.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Export" }));
    await waitFor(() => expect(worker.renderProject).toHaveBeenCalledWith(41, true, expect.objectContaining({ aspect: "9x16", crop: false })));
  });

  it("sends the video name, description and privacy, starting from what the project has", async () => {
    hooks.user = { video_tier: 2, ltd_tier: null, features: ["no_watermark"] };
    wrap(<ExportForm project={makeProject({ status: "Preview Ready", video_name: "Old title", description: "Old text", privacy: "public" })} />);
    const name = screen.getByRole("textbox", { name: /Video name/ }) as HTMLInputElement;
    expect(name.value).toBe("Old title");
    expect(name.maxLength).toBe(140);
    expect((screen.getByRole("radio", { name: /^Public/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(name, { target: { value: "  Launch day  " } });
    fireEvent.change(screen.getByRole("textbox", { name: /Description/ }), { target: { value: "What we shipped." } });
    fireEvent.click(screen.getByRole("radio", { name: /^Unlisted/ }));
    fireEvent.click(screen.getByRole("button", { name: "Export" }));
    await waitFor(() =>
      expect(worker.renderProject).toHaveBeenCalledWith(41, true, expect.objectContaining({ name: "Launch day", description: "What we shipped.", privacy: "unlisted" })),
    );
  });

  it("once finished, leaves who can watch to the share panel and exports again with the privacy it set", async () => {
    hooks.user = { video_tier: 2, ltd_tier: null, features: ["no_watermark"] };
    const { rerender } = wrap(<ExportForm project={makeProject({ status: "Render Ready", final_render: 1, privacy: "private" })} />);
    rerender(
      <I18nProvider i18n={i18n}>
        <ExportForm project={makeProject({ status: "Render Ready", final_render: 1, privacy: "unlisted" })} />
      </I18nProvider>,
    );
    // One place decides who can watch a finished video: the share panel beside the form.
    expect(screen.queryByRole("radio", { name: /^Unlisted/ })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Export again" }));
    await waitFor(() => expect(worker.renderProject).toHaveBeenCalledWith(41, true, expect.objectContaining({ privacy: "unlisted" })));
  });

  it("asks for a video name instead of exporting without one", async () => {
    hooks.user = { video_tier: 2, ltd_tier: null, features: ["no_watermark"] };
    wrap(<ExportForm project={preview} />);
    fireEvent.change(screen.getByRole("textbox", { name: /Video name/ }), { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: "Export" }));
    expect(await screen.findByText("Give the video a name.")).toBeTruthy();
    expect(worker.renderProject).not.toHaveBeenCalled();
  });

  it("is not offered while the project is busy", () => {
    hooks.user = { video_tier: 2, ltd_tier: null, features: [] };
    wrap(<ExportForm project={makeProject({ status: "Final Rendering" })} />);
    expect(screen.queryByRole("form")).toBeNull();
    expect(screen.queryByRole("button", { name: "Export" })).toBeNull();
  });
});

describe("the worker's export (POST render with final 1)", () => {
  it("carries the export options in the render body and mirrors the project the server answers", async () => {
    const db = new CutroomDb(`export-${Math.random()}`);
    const calls: { name: string; input: unknown }[] = [];
    const call = (async (name: string, input: unknown) => {
      calls.push({ name, input });
      return { ok: true, data: makeProject({ status: "Final Rendering", is_queued: 1 }) };
    }) as unknown as ApiCall;
    const actions = createProjectActions(db, call, vi.fn());
    const result = await actions.renderProject(41, true, { tier: 2, aspect: "9x16", crop: false, name: "Launch", description: "Text", privacy: "unlisted" });
    expect(result.ok).toBe(true);
    expect(calls[0]).toEqual({
      name: "projects.render",
      input: { params: { id: 41 }, body: { final: true, tier: 2, aspect: "9x16", crop: false, name: "Launch", description: "Text", privacy: "unlisted" } },
    });
    expect(await db.projects.get(41)).toMatchObject({ status: "Final Rendering" });
    await db.delete();
  });
});
