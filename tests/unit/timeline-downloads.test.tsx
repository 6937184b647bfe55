import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeProject } from "./edit-fixtures";

// jsdom has no CSS.escape; react-aria's overlays read a meta tag with it.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => ({ timelineFile: vi.fn(), refreshHighlights: vi.fn(async () => undefined) }));
vi.mock("../../src/worker", () => ({ worker }));
const toasts = vi.hoisted(() => vi.fn());
vi.mock("../../src/ui/Toast", () => ({ toast: toasts }));
vi.mock("../../src/app/hooks", () => ({ useCurrentUser: () => ({ video_tier: 1, ltd_tier: null }), useConfig: () => null }));

import { ShareTab } from "../../src/features/edit/ShareTab";
import { TimelineDownloads } from "../../src/features/preview/TimelineDownloads";
import { createTimelineActions, dispositionFileName } from "../../workers/timelines";

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
const FCP = "Final Cut Pro / DaVinci Resolve (FCPXML)";
const OTIO = "OpenTimelineIO (.otio)";
const EDL = "EDL (CMX 3600)";
let clicked: { href: string; download: string }[] = [];
let created: Blob[] = [];
let revoked: string[] = [];

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  worker.timelineFile.mockReset();
  toasts.mockReset();
  clicked = [];
  created = [];
  revoked = [];
  // jsdom has no object URLs: record what the page makes and frees.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    created.push(blob);
    return `blob:cutroom/${created.length}`;
  }) as typeof URL.createObjectURL;
  URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.getAttribute("href")!, download: this.download });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Edit elsewhere (timelines for desktop editors)", () => {
  it("shows the three formats on Preview Ready and Render Ready, not while busy, queued or without a storyboard", () => {
    const { rerender } = wrap(<TimelineDownloads project={makeProject({ status: "Preview Ready" })} />);
    expect(screen.getByRole("heading", { name: "Edit elsewhere" })).toBeTruthy();
    for (const name of [FCP, OTIO, EDL]) expect(screen.getByRole("button", { name })).toBeTruthy();
    rerender(<I18nProvider i18n={i18n}><TimelineDownloads project={makeProject({ status: "Render Ready", final_render: 1 })} /></I18nProvider>);
    expect(screen.getByRole("button", { name: EDL })).toBeTruthy();
    for (const busy of [makeProject({ status: "Rendering" }), makeProject({ status: "Preview Ready", is_queued: 1 }), makeProject({ status: "Failed" })]) {
      rerender(<I18nProvider i18n={i18n}><TimelineDownloads project={busy} /></I18nProvider>);
      expect(screen.queryByRole("heading", { name: "Edit elsewhere" })).toBeNull();
      expect(screen.queryByRole("button", { name: FCP })).toBeNull();
    }
  });

  it("asks the worker for the pressed format and saves the file under the server's name, freeing the object URL", async () => {
    const blob = new Blob(["<fcpxml/>"], { type: "application/xml" });
    worker.timelineFile.mockResolvedValue({ ok: true, data: { blob, filename: "Team talk ✓.fcpxml" } });
    wrap(<TimelineDownloads project={makeProject({ status: "Preview Ready" })} />);
    fireEvent.click(screen.getByRole("button", { name: FCP }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(worker.timelineFile).toHaveBeenCalledWith(41, "fcpxml");
    expect(created).toEqual([blob]);
    expect(clicked[0]).toEqual({ href: "blob:cutroom/1", download: "Team talk ✓.fcpxml" });
    expect(document.querySelector("a[download]")).toBeNull();
    await waitFor(() => expect(revoked).toEqual(["blob:cutroom/1"]), { timeout: 3000 });
    expect(toasts).not.toHaveBeenCalled();

    worker.timelineFile.mockResolvedValue({ ok: true, data: { blob: new Blob(["TITLE: x"]), filename: "Team talk.edl" } });
    fireEvent.click(screen.getByRole("button", { name: EDL }));
    await waitFor(() => expect(clicked).toHaveLength(2));
    expect(worker.timelineFile).toHaveBeenLastCalledWith(41, "edl");
    expect(clicked[1]!.download).toBe("Team talk.edl");
  });

  it("words a refusal in a toast (busy project, every scene hidden) and downloads nothing", async () => {
    worker.timelineFile.mockResolvedValue({ ok: false, failure: { kind: "body", status: 409, body: { message: "busy", code: "project_busy" } } });
    wrap(<TimelineDownloads project={makeProject({ status: "Preview Ready" })} />);
    fireEvent.click(screen.getByRole("button", { name: OTIO }));
    await waitFor(() => expect(toasts).toHaveBeenCalledTimes(1));
    expect(worker.timelineFile).toHaveBeenCalledWith(41, "otio");
    expect(toasts.mock.calls[0]![0]).toMatchObject({ variant: "danger", title: "Could not download the timeline", description: "This project is busy. Try again when it has finished." });

    worker.timelineFile.mockResolvedValue({ ok: false, failure: { kind: "bad_request" } });
    fireEvent.click(screen.getByRole("button", { name: EDL }));
    await waitFor(() => expect(toasts).toHaveBeenCalledTimes(2));
    expect(toasts.mock.calls[1]![0]).toMatchObject({ description: "Bad request" });
    expect(clicked).toEqual([]);
    expect(created).toEqual([]);
  });
});

describe("the Preview & Export tab", () => {
  it("offers Edit elsewhere next to the export form on Preview Ready, and the progress without it while rendering", async () => {
    const { rerender } = wrap(<ShareTab project={makeProject({ status: "Preview Ready" })} />);
    expect(screen.getByRole("form", { name: "Export" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Edit elsewhere" })).toBeTruthy();
    expect(screen.getByRole("button", { name: OTIO })).toBeTruthy();
    rerender(<I18nProvider i18n={i18n}><ShareTab project={makeProject({ status: "Rendering", working_progress: 10 })} /></I18nProvider>);
    expect(screen.queryByRole("heading", { name: "Edit elsewhere" })).toBeNull();
    expect(screen.queryByRole("button", { name: OTIO })).toBeNull();
  });
});

describe("the worker's timeline file", () => {
  it("asks for the format with the bearer header and reads the bytes and the RFC 5987 file name", async () => {
    const fetchImpl = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response("<fcpxml version=\"1.10\"/>", {
        status: 200,
        headers: { "content-type": "application/xml", "content-disposition": `attachment; filename="Talk_ take_2 _.fcpxml"; filename*=UTF-8''Talk_%20take_2%20%E2%9C%93.fcpxml` },
      }),
    );
    const actions = createTimelineActions(async () => "tok", fetchImpl as typeof fetch);
    const result = await actions.timelineFile(7, "fcpxml");
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe("/api/v1/projects/7/timeline?format=fcpxml");
    expect(init!.headers).toEqual({ authorization: "Bearer tok" });
    if (!result.ok) throw new Error("expected a file");
    expect(result.data.filename).toBe("Talk_ take_2 ✓.fcpxml");
    expect(await result.data.blob.text()).toBe("<fcpxml version=\"1.10\"/>");
  });

  it("falls back to the plain filename, then to a generic name", async () => {
    const answer = (disposition?: string) => createTimelineActions(async () => "tok", (async () => new Response("x", { status: 200, headers: disposition ? { "content-disposition": disposition } : {} })) as typeof fetch);
    expect(await answer(`attachment; filename="Team talk.otio"`).timelineFile(7, "otio")).toMatchObject({ ok: true, data: { filename: "Team talk.otio" } });
    expect(await answer(undefined).timelineFile(7, "edl")).toMatchObject({ ok: true, data: { filename: "timeline.edl" } });
  });

  it("turns a refusal into the failure the page words", async () => {
    const refuse = (status: number, code: string) => createTimelineActions(async () => "tok", (async () => new Response(JSON.stringify({ message: "m", code }), { status })) as typeof fetch);
    expect(await refuse(409, "project_busy").timelineFile(7, "otio")).toEqual({ ok: false, failure: { kind: "body", status: 409, body: { message: "m", code: "project_busy" } } });
    expect(await refuse(400, "bad_request").timelineFile(7, "edl")).toEqual({ ok: false, failure: { kind: "bad_request" } });
    const offline = createTimelineActions(async () => "tok", (async () => Promise.reject(new TypeError("offline"))) as typeof fetch);
    expect(await offline.timelineFile(7, "fcpxml")).toEqual({ ok: false, failure: { kind: "network" } });
  });
});

describe("Content-Disposition file names", () => {
  it("prefers filename* over filename, in either order, and keeps only the base name", () => {
    expect(dispositionFileName(`attachment; filename*=UTF-8''Caf%C3%A9%20talk.edl; filename="Cafe talk.edl"`)).toBe("Café talk.edl");
    expect(dispositionFileName(`attachment; filename*=utf-8'en'%E2%9C%93.otio`)).toBe("✓.otio");
    expect(dispositionFileName(`attachment; filename=plain.edl`)).toBe("plain.edl");
    expect(dispositionFileName(`attachment; filename="a \\"quoted\\" name.edl"`)).toBe(`a "quoted" name.edl`);
    expect(dispositionFileName(`attachment; filename*=UTF-8''%E2%9C; filename="fallback.edl"`)).toBe("fallback.edl");
    expect(dispositionFileName(`attachment; filename="../../etc/x.edl"`)).toBe("x.edl");
    expect(dispositionFileName(`attachment`)).toBeUndefined();
    expect(dispositionFileName(null)).toBeUndefined();
  });
});
