import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeProject } from "./edit-fixtures";

// jsdom has no CSS.escape; react-aria's overlays read a meta tag with it.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => ({ subtitlesLink: vi.fn() }));
vi.mock("../../src/worker", () => ({ worker }));
const hooks = vi.hoisted(() => ({ user: { video_tier: 1, ltd_tier: null as string | null }, config: { links: { pricing: "https://example.com/pricing" } } }));
vi.mock("../../src/app/hooks", () => ({ useCurrentUser: () => hooks.user, useConfig: () => hooks.config }));

import { SubtitlesDownloadButton } from "../../src/features/preview/SubtitlesDownloadButton";

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
const finished = makeProject({ status: "Render Ready", final_render: 1 });
let clicked: { href: string; download: string }[] = [];

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  worker.subtitlesLink.mockReset();
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.getAttribute("href")!, download: this.download });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Download subtitles (issue 14)", () => {
  it("shows only on a finished project that has subtitle lines", () => {
    const { rerender } = wrap(<SubtitlesDownloadButton project={makeProject({ status: "Preview Ready" })} linesCount={4} />);
    expect(screen.queryByRole("button", { name: "Download subtitles" })).toBeNull();
    rerender(<I18nProvider i18n={i18n}><SubtitlesDownloadButton project={finished} linesCount={0} /></I18nProvider>);
    expect(screen.queryByRole("button", { name: "Download subtitles" })).toBeNull();
    rerender(<I18nProvider i18n={i18n}><SubtitlesDownloadButton project={finished} linesCount={4} /></I18nProvider>);
    expect(screen.getByRole("button", { name: "Download subtitles" })).toBeTruthy();
  });

  it("hands a paid user's signed link to the browser as a download named by the server", async () => {
    hooks.user = { video_tier: 1, ltd_tier: null };
    worker.subtitlesLink.mockResolvedValue({ ok: true, data: { url: "/api/v1/files/projects/1/41/subtitles-0123456789abcdef.vtt?expires=1&download=Team%20talk.vtt&signature=s", filename: "Team talk.vtt", expires_at: "" } });
    wrap(<SubtitlesDownloadButton project={finished} linesCount={4} />);
    fireEvent.click(screen.getByRole("button", { name: "Download subtitles" }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(worker.subtitlesLink).toHaveBeenCalledWith(41);
    expect(clicked[0]).toEqual({ href: "/api/v1/files/projects/1/41/subtitles-0123456789abcdef.vtt?expires=1&download=Team%20talk.vtt&signature=s", download: "Team talk.vtt" });
  });

  it("offers the same lines as SRT beside the WebVTT file", async () => {
    hooks.user = { video_tier: 1, ltd_tier: null };
    worker.subtitlesLink.mockResolvedValue({ ok: true, data: { url: "/api/v1/files/projects/1/41/subtitles-0123456789abcdef.srt?signature=s", filename: "Team talk.srt", expires_at: "" } });
    wrap(<SubtitlesDownloadButton project={finished} linesCount={4} />);
    fireEvent.click(screen.getByRole("button", { name: "Subtitles as SRT" }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(worker.subtitlesLink).toHaveBeenCalledWith(41, { format: "srt" });
    expect(clicked[0]?.download).toBe("Team talk.srt");
  });

  it("shows a free user the upgrade modal and asks the server nothing", async () => {
    hooks.user = { video_tier: 0, ltd_tier: null };
    wrap(<SubtitlesDownloadButton project={finished} linesCount={4} />);
    fireEvent.click(screen.getByRole("button", { name: "Download subtitles" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("Downloading needs a paid plan");
    expect(worker.subtitlesLink).not.toHaveBeenCalled();
    expect(clicked).toEqual([]);
  });
});

describe("the preview player's subtitle track (SPEC §2)", () => {
  it("is offered when render_subtitle is set and the render is not final, labelled with the spoken language", async () => {
    const { previewTracks } = await import("../../src/features/preview/ReadyView");
    const url = "/api/v1/files/projects/1/41/preview-1.vtt?expires=1&signature=s";
    const preview = makeProject({ status: "Preview Ready", final_render: 0, locale: "de-DE", render_subtitle: 1, subtitles_track_url: url });
    expect(previewTracks(preview, i18n)).toEqual([{ src: url, srclang: "de-DE", label: "German", default: true }]);
    expect(previewTracks({ ...preview, render_subtitle: 0 }, i18n)).toEqual([]);
    expect(previewTracks({ ...preview, final_render: 1 }, i18n)).toEqual([]);
    expect(previewTracks({ ...preview, subtitles_track_url: null }, i18n)).toEqual([]);
  });

  it("lists each ready translation after the original, starting with the embedded language of Options", async () => {
    const { previewTracks } = await import("../../src/features/preview/ReadyView");
    const url = "/api/v1/files/projects/1/41/preview-1.vtt?signature=s";
    const preview = makeProject({ status: "Preview Ready", final_render: 0, locale: "en-US", render_subtitle: 1, subtitles_track_url: url });
    const translations = [{ locale: "es-ES", src: "blob:es" }, { locale: "fr-FR", src: "blob:fr" }];
    expect(previewTracks(preview, i18n, translations)).toEqual([
      { src: url, srclang: "en-US", label: "English (US)", default: true },
      { src: "blob:es", srclang: "es-ES", label: "Spanish", default: false },
      { src: "blob:fr", srclang: "fr-FR", label: "French", default: false },
    ]);
    const embedded = { ...preview, font: { ...preview.font, locale: "fr-FR" as const } };
    expect(previewTracks(embedded, i18n, translations).map((t) => t.default)).toEqual([false, false, true]);
  });

  it("writes a translation's WebVTT track, escaping what WebVTT would read as markup", async () => {
    const { vttOf, readyTranslations } = await import("../../src/features/preview/subtitle-tracks");
    expect(vttOf([{ start: 1.5, end: 3723.25, text: "a <b> & c" }, { start: 4, end: 4, text: "empty" }])).toBe("WEBVTT\n\n00:00:01.500 --> 01:02:03.250\na &lt;b&gt; &amp; c\n");
    const set = (locale: string, status: "ready" | "pending", lines = 1) => ({ locale, status, lines: Array.from({ length: lines }, () => ({ start: 0, end: 1, text: "x" })) });
    expect(readyTranslations([set("fr-FR", "ready"), set("en-US", "ready"), set("de-DE", "pending"), set("es-ES", "ready"), set("it-IT", "ready", 0)], "en-US").map((s) => s.locale)).toEqual(["es-ES", "fr-FR"]);
  });
});
