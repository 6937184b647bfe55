import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeProject } from "./edit-fixtures";

// jsdom has no CSS.escape; react-aria's overlays read a meta tag with it.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const worker = vi.hoisted(() => ({ shareProject: vi.fn(), unshareProject: vi.fn(), sharePage: vi.fn() }));
vi.mock("../../src/worker", () => ({ worker }));
const toasts = vi.hoisted(() => vi.fn());
vi.mock("../../src/ui/Toast", () => ({ toast: toasts }));
vi.mock("@tanstack/react-router", () => ({ Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => <a href={to} className={className}>{children}</a> }));

import { SharePanel } from "../../src/features/share/SharePanel";
import { WatchView } from "../../src/features/share/WatchView";
import { CutroomDb } from "../../src/db";
import type { ApiCall } from "../../workers/api-client";
import { createShareActions } from "../../workers/share";

const TOKEN = "a".repeat(43);
const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
const finished = (over = {}) => makeProject({ status: "Render Ready", final_render: 1, ...over });
const robots = () => document.head.querySelector('meta[name="robots"]')?.getAttribute("content") ?? null;

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  worker.shareProject.mockReset().mockResolvedValue({ ok: true, data: {} });
  worker.unshareProject.mockReset().mockResolvedValue({ ok: true, data: {} });
  worker.sharePage.mockReset();
  toasts.mockReset();
});
afterEach(cleanup);

describe("the share panel (SPEC §6 private, public or unlisted)", () => {
  it("shows only on a finished project", () => {
    wrap(<SharePanel project={makeProject({ status: "Preview Ready" })} />);
    expect(screen.queryByRole("region", { name: "Share page" })).toBeNull();
  });

  it("starts private with no link, and choosing who can watch asks the worker (which makes the link)", async () => {
    wrap(<SharePanel project={finished({ privacy: "private", share_token: null })} />);
    const panel = screen.getByRole("region", { name: "Share page" });
    expect((within(panel).getByRole("radio", { name: /^Private/ }) as HTMLInputElement).checked).toBe(true);
    expect(within(panel).queryByRole("textbox", { name: "Link to the share page" })).toBeNull();
    fireEvent.click(within(panel).getByRole("radio", { name: /^Unlisted/ }));
    await waitFor(() => expect(worker.shareProject).toHaveBeenCalledWith(41, { privacy: "unlisted" }));
    fireEvent.click(within(panel).getByRole("button", { name: "Make a link" }));
    await waitFor(() => expect(worker.shareProject).toHaveBeenLastCalledWith(41, { privacy: "private" }));
  });

  it("shows the watch link with Copy, says a private link is for the owner only, and revokes after confirming", async () => {
    wrap(<SharePanel project={finished({ privacy: "private", share_token: TOKEN })} />);
    const link = screen.getByRole("textbox", { name: "Link to the share page" }) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/watch/${TOKEN}`);
    expect(screen.getByText("The page is private: the link works only for you while you are signed in.")).toBeTruthy();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(link.value));
    expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ variant: "success", title: "Link copied" }));

    fireEvent.click(screen.getByRole("button", { name: "Revoke link" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Revoke the link?" });
    expect(worker.unshareProject).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke link" }));
    await waitFor(() => expect(worker.unshareProject).toHaveBeenCalledWith(41));
  });
});

describe("the watch page", () => {
  const page = { name: "Launch day", description: "What we shipped.", privacy: "unlisted", video: { url: "/api/v1/share/x/video?expires=1&signature=s", width: 1280, height: 720, duration_seconds: 12 }, poster: null, tracks: [] };

  it("shows the video, its title and text, and keeps an unlisted page out of search engines", async () => {
    worker.sharePage.mockResolvedValue({ ok: true, data: page });
    wrap(<WatchView token={TOKEN} />);
    expect(await screen.findByRole("heading", { name: "Launch day" })).toBeTruthy();
    expect(screen.getByText("What we shipped.")).toBeTruthy();
    expect(document.querySelector("video")!.getAttribute("src")).toBe(page.video.url);
    expect(document.querySelectorAll("video track")).toHaveLength(0);
    expect(worker.sharePage).toHaveBeenCalledWith(TOKEN);
    expect(robots()).toBe("noindex, nofollow");
  });

  it("lets a public page be indexed and lists its subtitle tracks", async () => {
    worker.sharePage.mockResolvedValue({ ok: true, data: { ...page, privacy: "public", tracks: [{ locale: "fr", label: "Français", url: "/subs/fr.vtt" }] } });
    wrap(<WatchView token={TOKEN} />);
    await screen.findByRole("heading", { name: "Launch day" });
    expect(robots()).toBeNull();
    const track = document.querySelector("video track")!;
    expect(track.getAttribute("srclang")).toBe("fr");
    expect(track.getAttribute("label")).toBe("Français");
  });

  it("says the video is not available for a missing, revoked or private page", async () => {
    worker.sharePage.mockResolvedValue({ ok: false, failure: { kind: "body", status: 404, body: { message: "x", code: "not_found" } } });
    wrap(<WatchView token={TOKEN} />);
    expect(await screen.findByRole("heading", { name: "This video is not available" })).toBeTruthy();
    expect(document.querySelector("video")).toBeNull();
    expect(robots()).toBe("noindex, nofollow");
  });

  it("offers Try again when the server cannot be reached", async () => {
    worker.sharePage.mockResolvedValueOnce({ ok: false, failure: { kind: "network" } }).mockResolvedValueOnce({ ok: true, data: page });
    wrap(<WatchView token={TOKEN} />);
    fireEvent.click(await screen.findByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { name: "Launch day" })).toBeTruthy();
  });
});

describe("the worker's share actions", () => {
  it("mirrors the project the server answers after sharing and revoking, and asks for a page by its token", async () => {
    const db = new CutroomDb(`share-${Math.random()}`);
    const calls: { name: string; input: unknown }[] = [];
    const call = (async (name: string, input: unknown) => {
      calls.push({ name, input });
      if (name === "share.get") return { ok: true, data: page() };
      return { ok: true, data: finished({ privacy: name === "projects.share" ? "unlisted" : "private", share_token: name === "projects.share" ? TOKEN : null }) };
    }) as unknown as ApiCall;
    const page = () => ({ name: "n" });
    const actions = createShareActions(db, call);
    await actions.shareProject(41, { privacy: "unlisted" });
    expect(await db.projects.get(41)).toMatchObject({ privacy: "unlisted", share_token: TOKEN });
    await actions.unshareProject(41);
    expect(await db.projects.get(41)).toMatchObject({ privacy: "private", share_token: null });
    await actions.sharePage(TOKEN);
    expect(calls.map((c) => c.name)).toEqual(["projects.share", "projects.unshare", "share.get"]);
    expect(calls[2]!.input).toEqual({ params: { token: TOKEN } });
    await db.delete();
  });
});
