import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeProject } from "./edit-fixtures";

// jsdom has no CSS.escape; react-aria's overlays read a meta tag with it.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => ({ downloadLink: vi.fn() }));
vi.mock("../../src/worker", () => ({ worker }));
const hooks = vi.hoisted(() => ({ user: { video_tier: 1, ltd_tier: null as string | null }, config: { links: { pricing: "https://example.com/pricing" } } }));
vi.mock("../../src/app/hooks", () => ({ useCurrentUser: () => hooks.user, useConfig: () => hooks.config }));

import { DownloadButton } from "../../src/features/preview/DownloadButton";
import { createDownloadActions } from "../../workers/downloads";

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
const finished = makeProject({ status: "Render Ready", final_render: 1 });
let clicked: { href: string; download: string }[] = [];

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  worker.downloadLink.mockReset();
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.getAttribute("href")!, download: this.download });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Download video (SPEC §2 Share and export page, §6 tiers)", () => {
  it("shows only on a finished (Render Ready, final) project", () => {
    const { rerender } = wrap(<DownloadButton project={makeProject({ status: "Preview Ready" })} />);
    expect(screen.queryByRole("button", { name: "Download video" })).toBeNull();
    rerender(<I18nProvider i18n={i18n}><DownloadButton project={finished} /></I18nProvider>);
    expect(screen.getByRole("button", { name: "Download video" })).toBeTruthy();
  });

  it("hands a paid user's signed link to the browser as a plain download named by the server", async () => {
    hooks.user = { video_tier: 1, ltd_tier: null };
    worker.downloadLink.mockResolvedValue({ ok: true, data: { url: "/api/v1/files/projects/1/41/final.mp4?expires=1&download=Team%20talk.mp4&signature=s", filename: "Team talk.mp4", expires_at: "" } });
    wrap(<DownloadButton project={finished} />);
    fireEvent.click(screen.getByRole("button", { name: "Download video" }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(worker.downloadLink).toHaveBeenCalledWith(41);
    expect(clicked[0]).toEqual({ href: "/api/v1/files/projects/1/41/final.mp4?expires=1&download=Team%20talk.mp4&signature=s", download: "Team talk.mp4" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("shows a free user the upgrade modal with the plans link, and asks the server nothing", async () => {
    hooks.user = { video_tier: 0, ltd_tier: null };
    wrap(<DownloadButton project={finished} />);
    fireEvent.click(screen.getByRole("button", { name: "Download video" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("Downloading needs a paid plan");
    expect(screen.getByRole("link", { name: "See plans" }).getAttribute("href")).toBe("/account#plans");
    expect(worker.downloadLink).not.toHaveBeenCalled();
    expect(clicked).toEqual([]);
  });

  it("shows the upgrade modal when the server refuses with upgrade_required (a plan that changed meanwhile)", async () => {
    hooks.user = { video_tier: 0, ltd_tier: "ltd1" };
    worker.downloadLink.mockResolvedValue({ ok: false, failure: { kind: "body", status: 402, body: { message: "x", code: "upgrade_required" } } });
    wrap(<DownloadButton project={finished} />);
    fireEvent.click(screen.getByRole("button", { name: "Download video" }));
    await screen.findByRole("dialog");
    expect(worker.downloadLink).toHaveBeenCalledWith(41);
    expect(clicked).toEqual([]);
  });
});

describe("the worker's download link", () => {
  it("asks downloadrender for JSON with the bearer header and reads the link", async () => {
    const fetchImpl = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => new Response(JSON.stringify({ url: "/api/v1/files/x", filename: "a.mp4", expires_at: "2026-01-01T00:00:00.000Z" }), { status: 200 }));
    const actions = createDownloadActions(async () => "tok", fetchImpl as typeof fetch);
    expect(await actions.downloadLink(7)).toEqual({ ok: true, data: { url: "/api/v1/files/x", filename: "a.mp4", expires_at: "2026-01-01T00:00:00.000Z" } });
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe("/api/v1/projects/7/downloadrender");
    expect(init!.headers).toEqual({ accept: "application/json", authorization: "Bearer tok" });
  });

  it("turns a refusal into the failure the page words", async () => {
    const fetchImpl = async () => new Response(JSON.stringify({ message: "m", code: "upgrade_required" }), { status: 402 });
    const actions = createDownloadActions(async () => "tok", fetchImpl as typeof fetch);
    expect(await actions.downloadLink(7)).toEqual({ ok: false, failure: { kind: "body", status: 402, body: { message: "m", code: "upgrade_required" } } });
    const offline = createDownloadActions(async () => "tok", (async () => Promise.reject(new TypeError("offline"))) as typeof fetch);
    expect(await offline.downloadLink(7)).toEqual({ ok: false, failure: { kind: "network" } });
  });
});
