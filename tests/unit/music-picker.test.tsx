import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Song } from "../../api/music";
import type { Project } from "../../api/projects";
import { makeProject } from "./edit-fixtures";

const worker = vi.hoisted(() => ({
  refreshSongs: vi.fn(),
  pickSong: vi.fn(),
  resetVolumes: vi.fn(),
  dismissFailedEdit: vi.fn(),
}));
vi.mock("../../src/worker", () => ({ worker }));
vi.mock("@tanstack/react-router", () => ({ Link: ({ children }: { children: ReactNode }) => <a href="/options">{children}</a> }));

import { db } from "../../src/db";
import { MusicTab } from "../../src/features/edit/MusicTab";
import { SongPlayer } from "../../src/features/music/SongPlayer";
import { playOnlyThis } from "../../src/features/music/playback";

function song(id: number, title: string, author: string, tags: Partial<Song> = {}): Song {
  return {
    id, title, author, genre_tags: [], instrument_tags: [], video_theme_tags: [], public_demo: `/api/v1/bgms/${id}/demo`, duration_ms: 120_000,
    licence: { id: "CC0-1.0", attribution: null }, source: "catalogue", ...tags,
  };
}

const SONGS = [
  song(1, "Morning Café", "Cutroom", { genre_tags: ["acoustic"], instrument_tags: ["guitar"], video_theme_tags: ["travel"] }),
  song(2, "Night Drive", "Ana Núñez", { genre_tags: ["electronic"], instrument_tags: ["synth"], video_theme_tags: ["travel"], licence: { id: "CC-BY-4.0", attribution: "\"Night Drive\" by Ana Núñez, CC BY 4.0" } }),
  song(3, "Quiet Desk", "Cutroom", { genre_tags: ["ambient"], instrument_tags: ["piano"], video_theme_tags: ["tutorial"] }),
];

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
const settle = () => act(async () => {});
const songList = () => screen.getByRole("list", { name: "Songs" });
const titles = () => within(songList()).getAllByRole("heading", { level: 3 }).map((h) => h.textContent);

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(async () => {
  await db.songs.clear();
  await db.outbox.clear();
  await db.meta.clear();
  await db.failedEdits.clear();
  worker.refreshSongs.mockReset().mockImplementation(async () => {
    await db.songs.bulkPut(SONGS);
    await db.meta.put({ key: "songs", value: { total: SONGS.length, fetchedAt: new Date().toISOString() } });
    return { ok: true, data: { total: SONGS.length } };
  });
  worker.pickSong.mockReset().mockResolvedValue({ ok: true, data: null });
});
afterEach(cleanup);

async function openTab(project: Project) {
  wrap(<MusicTab project={project} />);
  await waitFor(() => expect(screen.getByRole("list", { name: "Songs" })).toBeTruthy());
}

describe("the Music tab's song picker (SPEC §2 Music picker, issue 15)", () => {
  it("fetches the songs on opening and lists each with its title, author and tags, the promise of 'coming soon' gone", async () => {
    await openTab(makeProject({ bgm_id: null }));
    expect(worker.refreshSongs).toHaveBeenCalledTimes(1);
    expect(titles()).toEqual(["Morning Café", "Night Drive", "Quiet Desk"]);
    const night = within(songList()).getAllByRole("listitem").find((li) => li.getAttribute("aria-labelledby") && within(li).queryByText("Night Drive"))!;
    expect(within(night).getByText("Ana Núñez")).toBeTruthy();
    expect(within(within(night).getByRole("list", { name: "Genres" })).getByText("electronic")).toBeTruthy();
    expect(within(within(night).getByRole("list", { name: "Instruments" })).getByText("synth")).toBeTruthy();
    expect(within(within(night).getByRole("list", { name: "Themes" })).getByText("travel")).toBeTruthy();
    expect(within(night).getByRole("group", { name: "Demo of Night Drive" }).querySelector("audio")?.getAttribute("src")).toBe("/api/v1/bgms/2/demo");
    expect(screen.queryByText(/coming soon/i)).toBeNull();
    expect(screen.getByRole("status", { name: "" }).textContent).toContain("3 songs");
  });

  it("searches title and author, without accents, and says when nothing matches", async () => {
    await openTab(makeProject());
    const search = screen.getByRole("searchbox", { name: "Search by title or author" });
    fireEvent.change(search, { target: { value: "nunez" } });
    expect(titles()).toEqual(["Night Drive"]);
    fireEvent.change(search, { target: { value: "cutroom" } });
    expect(titles()).toEqual(["Morning Café", "Quiet Desk"]);
    fireEvent.change(search, { target: { value: "opera" } });
    expect(screen.queryByRole("list", { name: "Songs" })).toBeNull();
    expect(screen.getByText("No song matches your search and tags.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Clear search and tags" }));
    expect(titles()).toHaveLength(3);
  });

  it("filters by tags from the three labelled lists; chosen tags add up", async () => {
    await openTab(makeProject());
    const themes = screen.getByRole("grid", { name: "Themes" });
    fireEvent.click(within(themes).getByRole("row", { name: "travel" }));
    expect(within(themes).getByRole("row", { name: "travel" }).getAttribute("aria-selected")).toBe("true");
    expect(titles()).toEqual(["Morning Café", "Night Drive"]);
    fireEvent.click(within(screen.getByRole("grid", { name: "Instruments" })).getByRole("row", { name: "synth" }));
    expect(titles()).toEqual(["Night Drive"]);
    fireEvent.click(within(screen.getByRole("grid", { name: "Genres" })).getByRole("row", { name: "ambient" }));
    expect(screen.getByText("No song matches your search and tags.")).toBeTruthy();
  });

  it("puts the project's song first, marked In use with its licence and credit, and picks another with Use this song", async () => {
    await openTab(makeProject({ bgm_id: 2, autobgm: 1 }));
    expect(titles()[0]).toBe("Night Drive");
    const items = within(songList()).getAllByRole("listitem").filter((li) => li.classList.contains("song-item"));
    expect(within(items[0]!).getByText("In use")).toBeTruthy();
    expect(within(items[0]!).queryByRole("button", { name: "Use this song" })).toBeNull();
    expect(await screen.findByText("Night Drive by Ana Núñez")).toBeTruthy();
    expect(screen.getByText("CC-BY-4.0")).toBeTruthy();
    expect(screen.getByText("\"Night Drive\" by Ana Núñez, CC BY 4.0")).toBeTruthy();

    fireEvent.click(within(items[1]!).getByRole("button", { name: "Use this song" }));
    await settle();
    expect(worker.pickSong).toHaveBeenCalledWith(41, 1);
  });

  it("shows a pick still waiting in the outbox as the song in use", async () => {
    await db.outbox.add({
      sceneId: 0, projectId: 41, command: "pickSong", args: { projectId: 41, songId: 3 }, kind: "music",
      request: { route: "bgms.pick", params: { id: 3 }, body: { project_id: 41 } }, idempotencyKey: "k", createdAt: 0, attempts: 0, state: "waiting",
    });
    await openTab(makeProject({ bgm_id: 1, autobgm: 1 }));
    await waitFor(() => expect(titles()[0]).toBe("Quiet Desk"));
    expect(await screen.findByText("Quiet Desk by Cutroom")).toBeTruthy();
  });

  it("says when a pick made offline was refused by the server, until dismissed", async () => {
    await db.failedEdits.add({ projectId: 41, sceneId: 0, sceneOrder: null, kind: "music", failure: { kind: "body", status: 409, body: { code: "project_finished", message: "Finished" } }, at: 1 });
    await db.failedEdits.add({ projectId: 41, sceneId: 5, sceneOrder: 2, kind: "trim", failure: { kind: "network" }, at: 2 });
    await openTab(makeProject());
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The song choice was not saved:");
    fireEvent.click(within(alert).getByRole("button", { name: "Dismiss this message" }));
    expect(worker.dismissFailedEdit).toHaveBeenCalledWith(1);
  });

  it("lets nothing be picked on a finished project", async () => {
    await openTab(makeProject({ status: "Render Ready", final_render: 1, bgm_id: null }));
    const buttons = screen.getAllByRole("button", { name: "Use this song" });
    expect(buttons).toHaveLength(3);
    for (const b of buttons) expect(b.hasAttribute("disabled") || b.getAttribute("aria-disabled") === "true" || !!b.closest("[data-disabled]")).toBe(true);
    fireEvent.click(buttons[0]!);
    await settle();
    expect(worker.pickSong).not.toHaveBeenCalled();
  });

  it("offline, shows the saved songs and says so", async () => {
    await db.songs.bulkPut(SONGS);
    worker.refreshSongs.mockResolvedValue({ ok: false, failure: { kind: "network" } });
    await db.meta.put({ key: "connection", value: { reachable: false, at: new Date().toISOString() } });
    await openTab(makeProject());
    await waitFor(() => expect(screen.getByText(/these are the songs saved on this device/)).toBeTruthy());
    expect(titles()).toHaveLength(3);
  });

  it("offline with no song saved yet, says where they come from", async () => {
    worker.refreshSongs.mockResolvedValue({ ok: false, failure: { kind: "network" } });
    wrap(<MusicTab project={makeProject()} />);
    await waitFor(() => expect(screen.getByText("The songs are not on this device yet. Connect to the internet to see them.")).toBeTruthy());
  });
});

describe("the shell's music player (SPEC §2 Shell)", () => {
  it("appears with the song's title, author, play and seek when the project has a song", async () => {
    await db.songs.bulkPut(SONGS);
    wrap(<SongPlayer project={{ id: 41, bgm_id: 3 }} />);
    const player = await screen.findByRole("region", { name: "Music player: Quiet Desk" });
    expect(within(player).getByText("Quiet Desk")).toBeTruthy();
    expect(within(player).getByText("Cutroom")).toBeTruthy();
    expect(player.querySelector("audio")?.getAttribute("src")).toBe("/api/v1/bgms/3/demo");
    expect(player.querySelector("media-play-button")).toBeTruthy();
    expect(player.querySelector("media-time-range")).toBeTruthy();
  });

  it("is not there without a song, and asks for the songs when the project's is not on this device", async () => {
    const { container } = wrap(<SongPlayer project={{ id: 41, bgm_id: null }} />);
    await settle();
    expect(container.querySelector(".song-player")).toBeNull();
    expect(worker.refreshSongs).not.toHaveBeenCalled();
    cleanup();
    wrap(<SongPlayer project={{ id: 41, bgm_id: 2 }} />);
    await screen.findByRole("region", { name: "Music player: Night Drive" });
    expect(worker.refreshSongs).toHaveBeenCalledTimes(1);
  });

  it("plays one song at a time", () => {
    const a = document.createElement("audio");
    const b = document.createElement("audio");
    let paused = true;
    Object.defineProperty(a, "paused", { get: () => paused });
    a.pause = vi.fn(() => void (paused = true));
    playOnlyThis(a);
    paused = false;
    playOnlyThis(b);
    expect(a.pause).toHaveBeenCalledTimes(1);
  });
});
