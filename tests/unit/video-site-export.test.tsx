import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { PublicConfig } from "../../api/config";
import type { YoutubeConnection } from "../../api/youtube";
import { db } from "../../src/db";
import { makeProject } from "./edit-fixtures";

// jsdom has no CSS.escape; react-aria's overlays read a meta tag with it.
globalThis.CSS ??= {} as typeof CSS;
CSS.escape ??= (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);

const CONSENT_URL = "https://accounts.example/o/oauth2/v2/auth?state=s";
const setConnection = (value: YoutubeConnection) => db.meta.put({ key: "youtube", value });
const worker = vi.hoisted(() => ({
  refreshYoutube: vi.fn(),
  youtubeConnectLink: vi.fn(),
  disconnectYoutube: vi.fn(),
  exportToYoutube: vi.fn(),
  refreshProject: vi.fn(),
}));
vi.mock("../../src/worker", () => ({ worker }));
const toasts = vi.hoisted(() => vi.fn());
vi.mock("../../src/ui/Toast", () => ({ toast: toasts }));

import { VideoSiteExport } from "../../src/features/preview/VideoSiteExport";

const config = (available: boolean) => ({ youtube: { available }, captcha: { provider: "off", recaptchaSiteKey: null }, links: {}, sunsetRedirectUrl: null, betaHost: false, push: { vapidPublicKey: null } }) as unknown as PublicConfig;
const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
const finished = makeProject({ status: "Render Ready", final_render: 1 });

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(async () => {
  await db.meta.clear();
  await db.meta.put({ key: "config", value: config(true) });
  for (const fn of Object.values(worker)) fn.mockReset();
  worker.refreshYoutube.mockResolvedValue({ ok: true, data: {} });
  worker.refreshProject.mockResolvedValue({ ok: true, data: {} });
  toasts.mockReset();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("video-site export (SPEC §2 finished view, §3 form, §4 video-site export)", () => {
  it("shows the temporarily unavailable empty state on a server without YouTube credentials", async () => {
    await db.meta.put({ key: "config", value: config(false) });
    wrap(<VideoSiteExport project={finished} />);
    expect(await screen.findByText("Video-site export is temporarily unavailable.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Connect YouTube" })).toBeNull();
    expect(worker.refreshYoutube).not.toHaveBeenCalled();
  });

  it("opens the consent page in a new window, checks the connection every second and closes the window once connected", async () => {
    await setConnection({ available: true, connected: false, channel: null });
    const popup = { location: { href: "" }, closed: false, close: vi.fn() };
    const open = vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
    worker.youtubeConnectLink.mockResolvedValue({ ok: true, data: { url: CONSENT_URL } });
    let checks = 0;
    worker.refreshYoutube.mockImplementation(async () => {
      checks += 1;
      if (checks === 3) await setConnection({ available: true, connected: true, channel: "Rui's channel" });
      return { ok: true, data: {} };
    });
    wrap(<VideoSiteExport project={finished} />);
    fireEvent.click(await screen.findByRole("button", { name: "Connect YouTube" }));
    expect(open).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(popup.location.href).toBe(CONSENT_URL));
    expect(await screen.findByText("Waiting for you to allow access in the YouTube window…")).toBeTruthy();
    expect(await screen.findByText("Connected to YouTube as Rui's channel", {}, { timeout: 4000 })).toBeTruthy();
    expect(popup.close).toHaveBeenCalled();
    open.mockRestore();
  });

  it("gives up after 180 checks, one a second, and says so", async () => {
    await setConnection({ available: true, connected: false, channel: null });
    vi.spyOn(window, "open").mockReturnValue(null);
    worker.youtubeConnectLink.mockResolvedValue({ ok: true, data: { url: CONSENT_URL } });
    // Only the intervals are faked: the connection check runs on setInterval.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    wrap(<VideoSiteExport project={finished} />);
    fireEvent.click(await screen.findByRole("button", { name: "Connect YouTube" }));
    // Blocked popup: a plain link to the consent page instead.
    const link = await screen.findByRole("link", { name: "Open the YouTube sign-in page" });
    expect(link.getAttribute("href")).toBe(CONSENT_URL);
    const before = worker.refreshYoutube.mock.calls.length;
    await act(async () => vi.advanceTimersByTime(179_000));
    expect(worker.refreshYoutube.mock.calls.length - before).toBe(179);
    expect(screen.queryByText("YouTube was not connected. Try again.")).toBeNull();
    await act(async () => vi.advanceTimersByTime(5_000));
    expect(worker.refreshYoutube.mock.calls.length - before).toBe(180);
    expect(screen.getByText("YouTube was not connected. Try again.")).toBeTruthy();
    // Connect again: the check starts over, 180 more seconds.
    fireEvent.click(screen.getByRole("button", { name: "Connect YouTube" }));
    await waitFor(() => expect(screen.queryByText("YouTube was not connected. Try again.")).toBeNull());
    await screen.findByText("Waiting for you to allow access in the YouTube window…");
    await act(async () => vi.advanceTimersByTime(179_000));
    expect(screen.queryByText("YouTube was not connected. Try again.")).toBeNull();
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(screen.getByText("YouTube was not connected. Try again.")).toBeTruthy();
    vi.restoreAllMocks();
  });

  it("requires title, description and privacy before sending anything", async () => {
    await setConnection({ available: true, connected: true, channel: null });
    wrap(<VideoSiteExport project={finished} />);
    fireEvent.change(await screen.findByRole("textbox", { name: /Title/ }), { target: { value: " " } });
    fireEvent.click(screen.getByRole("button", { name: "Export to YouTube" }));
    expect((await screen.findAllByText("This field is required")).length).toBe(3);
    expect(worker.exportToYoutube).not.toHaveBeenCalled();
  });

  it("sends title, description and privacy through the worker", async () => {
    await setConnection({ available: true, connected: true, channel: null });
    worker.exportToYoutube.mockResolvedValue({ ok: true, data: {} });
    wrap(<VideoSiteExport project={finished} />);
    fireEvent.change(await screen.findByRole("textbox", { name: /Title/ }), { target: { value: "Our talk" } });
    fireEvent.change(screen.getByRole("textbox", { name: /Description/ }), { target: { value: "Recorded in Lisbon" } });
    fireEvent.click(screen.getByRole("button", { name: /Privacy/ }));
    fireEvent.click(await screen.findByRole("option", { name: "Unlisted (anyone with the link)" }));
    fireEvent.click(screen.getByRole("button", { name: "Export to YouTube" }));
    await waitFor(() => expect(worker.exportToYoutube).toHaveBeenCalledWith(41, { title: "Our talk", description: "Recorded in Lisbon", privacy: "unlisted" }));
  });

  it("while exporting shows the upload, hides the form and re-reads the project", async () => {
    await setConnection({ available: true, connected: true, channel: null });
    wrap(<VideoSiteExport project={{ ...finished, youtube_export: "exporting" }} />);
    expect(await screen.findByText(/Uploading to YouTube/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Export to YouTube/ })).toBeNull();
    expect(worker.refreshProject).toHaveBeenCalledWith(41);
  });

  it("once exported links the video and offers to export again", async () => {
    await setConnection({ available: true, connected: true, channel: null });
    wrap(<VideoSiteExport project={{ ...finished, youtube_export: "done", youtubeUrl: "https://www.youtube.com/watch?v=abc123" }} />);
    expect((await screen.findByRole("link", { name: "Watch on YouTube" })).getAttribute("href")).toBe("https://www.youtube.com/watch?v=abc123");
    expect(screen.getByText("Already exported to YouTube.", { exact: false })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Export to YouTube again" })).toBeTruthy();
  });

  it("prefills the title and description from the export form's video name and description", async () => {
    await setConnection({ available: true, connected: true, channel: null });
    wrap(<VideoSiteExport project={{ ...finished, video_name: "Cut for YouTube", description: "Recorded in Porto" }} />);
    expect((await screen.findByRole("textbox", { name: /Title/ }) as HTMLInputElement).value).toBe("Cut for YouTube");
    expect((screen.getByRole("textbox", { name: /Description/ }) as HTMLTextAreaElement).value).toBe("Recorded in Porto");
  });

  it("keeps the earlier video's link when exporting again failed, and says why", async () => {
    await setConnection({ available: true, connected: true, channel: null });
    wrap(<VideoSiteExport project={{ ...finished, youtube_export: "done", youtubeUrl: "https://www.youtube.com/watch?v=abc123", youtube_error: "youtube_quota" }} />);
    expect((await screen.findByRole("alert")).textContent).toContain("YouTube's daily upload limit has been reached.");
    expect(screen.getByRole("link", { name: "Watch on YouTube" })).toBeTruthy();
  });

  it("says why the last export did not finish (quota)", async () => {
    await setConnection({ available: true, connected: true, channel: null });
    wrap(<VideoSiteExport project={{ ...finished, youtube_error: "youtube_quota" }} />);
    expect((await screen.findByRole("alert")).textContent).toContain("YouTube's daily upload limit has been reached. Try again tomorrow.");
  });

  it("asks for a final render first on a project that is only previewed", async () => {
    await setConnection({ available: true, connected: true, channel: null });
    wrap(<VideoSiteExport project={makeProject({ status: "Preview Ready" })} />);
    expect(await screen.findByText("Export the video first; then you can publish it on YouTube.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Export to YouTube/ })).toBeNull();
  });

  it("disconnects through the worker", async () => {
    await setConnection({ available: true, connected: true, channel: "Rui's channel" });
    worker.disconnectYoutube.mockImplementation(async () => {
      await setConnection({ available: true, connected: false, channel: null });
      return { ok: true, data: {} };
    });
    wrap(<VideoSiteExport project={finished} />);
    fireEvent.click(await screen.findByRole("button", { name: "Disconnect YouTube" }));
    expect(await screen.findByRole("button", { name: "Connect YouTube" })).toBeTruthy();
  });
});
