import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, uploadToLibrary, userApi } from "./helpers";

interface Song {
  id: number;
  title: string;
  author: string;
  genre_tags: string[];
  instrument_tags: string[];
  video_theme_tags: string[];
}

const songList = (page: Page) => page.getByRole("list", { name: "Songs", exact: true });
const songItem = (page: Page, title: string) => songList(page).getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3, name: title, exact: true }) });
const shownTitles = (page: Page) => songList(page).getByRole("heading", { level: 3 }).allTextContents();
const player = (page: Page, title: string) => page.getByRole("region", { name: `Music player: ${title}`, exact: true });
const audioTime = (demo: Locator) => demo.locator("audio").evaluate((a: HTMLAudioElement) => a.currentTime);
const audioPaused = (demo: Locator) => demo.locator("audio").evaluate((a: HTMLAudioElement) => a.paused);
const tagsOf = (s: Song) => [...s.genre_tags, ...s.instrument_tags, ...s.video_theme_tags];
const sorted = (titles: string[]) => [...titles].sort((a, b) => a.localeCompare(b));

test("the Music tab lists, filters, plays and picks songs, and a song picked offline reaches the server", async ({ page, context, request, baseURL }) => {
  test.setTimeout(300_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "A talk with music");
  // The catalogue is the server's: titles and tags are read from it, never assumed.
  const songs: Song[] = (await api.get("/bgms")).data;
  expect(songs.length).toBeGreaterThanOrEqual(2);

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`/projects/${projectId}/music`);
  await expect(page.getByRole("heading", { name: "Songs", exact: true })).toBeVisible();
  await expect(songList(page).getByRole("heading", { level: 3 })).toHaveCount(songs.length);
  // No song yet: no player in the shell.
  await expect(page.locator(".song-player")).toHaveCount(0);

  // Each song with its author and its tags.
  for (const song of songs) {
    const item = songItem(page, song.title);
    await expect(item.getByText(song.author, { exact: true })).toBeVisible();
    for (const [name, tags] of [["Genres", song.genre_tags], ["Instruments", song.instrument_tags], ["Themes", song.video_theme_tags]] as const) {
      for (const tag of tags) await expect(item.getByRole("list", { name, exact: true }).getByText(tag, { exact: true })).toBeVisible();
    }
  }

  // A tag some songs have and others not: only those stay.
  const allTags = [...new Set(songs.flatMap(tagsOf))];
  const tag = allTags.find((t) => songs.some((s) => !tagsOf(s).includes(t)))!;
  expect(tag, "the catalogue has a tag that tells songs apart").toBeTruthy();
  const withTag = songs.filter((s) => tagsOf(s).includes(tag)).map((s) => s.title);
  const group = songs.some((s) => s.genre_tags.includes(tag)) ? "Genres" : songs.some((s) => s.instrument_tags.includes(tag)) ? "Instruments" : "Themes";
  const tagRow = page.getByRole("grid", { name: group, exact: true }).getByRole("row", { name: tag, exact: true });
  await tagRow.click();
  await expect(tagRow).toHaveAttribute("aria-selected", "true");
  await expect.poll(async () => sorted(await shownTitles(page))).toEqual(sorted(withTag));
  await expect(page.getByText(`${withTag.length} song${withTag.length === 1 ? "" : "s"}`, { exact: true })).toBeVisible();
  await tagRow.click();
  await expect(songList(page).getByRole("heading", { level: 3 })).toHaveCount(songs.length);

  // A search by a word of one title (in other case), then a search nothing matches.
  const target = songs.find((s) => s.title.split(/\s+/).some((w) => w.length > 2 && songs.filter((o) => o.title.toLowerCase().includes(w.toLowerCase()) || o.author.toLowerCase().includes(w.toLowerCase())).length === 1))!;
  expect(target, "a song with a word of its own").toBeTruthy();
  const word = target.title.split(/\s+/).find((w) => w.length > 2 && songs.filter((o) => o.title.toLowerCase().includes(w.toLowerCase()) || o.author.toLowerCase().includes(w.toLowerCase())).length === 1)!;
  const search = page.getByRole("searchbox", { name: "Search by title or author" });
  await search.fill(word.toUpperCase());
  await expect.poll(() => shownTitles(page)).toEqual([target.title]);
  await search.fill("zzqx no such song");
  await expect(page.getByText("No song matches your search and tags.")).toBeVisible();
  await page.getByRole("button", { name: "Clear search and tags" }).click();
  await expect(songList(page).getByRole("heading", { level: 3 })).toHaveCount(songs.length);

  // Play a demo: its <audio> plays; a second demo pauses the first (one song at a time).
  const [first, second] = songs as [Song, Song];
  const demo1 = page.getByRole("group", { name: `Demo of ${first.title}`, exact: true });
  const demo2 = page.getByRole("group", { name: `Demo of ${second.title}`, exact: true });
  await demo1.getByRole("button", { name: "play", exact: true }).click();
  await expect.poll(() => audioTime(demo1), { timeout: 20_000 }).toBeGreaterThan(0.3);
  await demo2.getByRole("button", { name: "play", exact: true }).click();
  await expect.poll(() => audioTime(demo2), { timeout: 20_000 }).toBeGreaterThan(0.3);
  expect(await audioPaused(demo1)).toBe(true);
  await demo2.getByRole("button", { name: "pause", exact: true }).click();
  await expect.poll(() => audioPaused(demo2)).toBe(true);

  // Pick the first song: the shell's player shows it, the list marks it In use.
  await songItem(page, first.title).getByRole("button", { name: "Use this song" }).click();
  await expect(player(page, first.title)).toBeVisible();
  await expect(player(page, first.title).getByText(first.author, { exact: true })).toBeVisible();
  await expect(player(page, first.title).getByRole("slider", { name: "seek" })).toBeVisible();
  await expect(songItem(page, first.title).getByText("In use", { exact: true })).toBeVisible();
  await expect.poll(async () => (await api.get(`/projects/${projectId}`)).bgm_id).toBe(first.id);

  // The shell player plays the song.
  await player(page, first.title).getByRole("button", { name: "play", exact: true }).click();
  await expect.poll(() => audioTime(player(page, first.title)), { timeout: 20_000 }).toBeGreaterThan(0.3);
  await player(page, first.title).getByRole("button", { name: "pause", exact: true }).click();

  // A reload keeps it; the player is on the other tabs too.
  await page.reload();
  await expect(player(page, first.title)).toBeVisible();
  await expect(songItem(page, first.title).getByText("In use", { exact: true })).toBeVisible();
  await page.goto(`/projects/${projectId}/storyboard`);
  await expect(player(page, first.title)).toBeVisible();
  await page.goto(`/projects/${projectId}/music`);
  await expect(songList(page)).toBeVisible();

  // Offline: the songs saved on this device, and a pick shown at once.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await context.setOffline(true);
  await expect(page.getByText(/You are offline: these are the songs saved on this device/)).toBeVisible();
  await songItem(page, second.title).getByRole("button", { name: "Use this song" }).click();
  await expect(player(page, second.title)).toBeVisible();
  await expect(songItem(page, second.title).getByText("In use", { exact: true })).toBeVisible();
  await expect(page.locator(".song-player")).toHaveCount(1);
  expect((await api.get(`/projects/${projectId}`)).bgm_id).toBe(first.id);
  // Still offline, a reload keeps the pick: it waits on this device.
  await page.reload();
  await expect(player(page, second.title)).toBeVisible();
  await expect(songItem(page, second.title).getByText("In use", { exact: true })).toBeVisible();
  expect((await api.get(`/projects/${projectId}`)).bgm_id).toBe(first.id);

  // Back online: the server has it, and the view still shows it.
  await context.setOffline(false);
  await expect.poll(async () => (await api.get(`/projects/${projectId}`)).bgm_id, { timeout: 60_000 }).toBe(second.id);
  await page.reload();
  await expect(player(page, second.title)).toBeVisible();
  await expect(songItem(page, second.title).getByText("In use", { exact: true })).toBeVisible();
});

test("the Music tab works at 360 px wide", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "A narrow talk");
  const songs: Song[] = (await api.get("/bgms")).data;
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`/projects/${projectId}/music`);
  await expect(songList(page).getByRole("heading", { level: 3 })).toHaveCount(songs.length);
  // From the keyboard: a tag chosen with Space, a song picked with Enter.
  const tag = songs[0]!.video_theme_tags[0] ?? songs[0]!.genre_tags[0]!;
  const group = songs[0]!.video_theme_tags.length ? "Themes" : "Genres";
  const row = page.getByRole("grid", { name: group, exact: true }).getByRole("row", { name: tag, exact: true });
  await row.focus();
  await page.keyboard.press("Space");
  await expect(row).toHaveAttribute("aria-selected", "true");
  await expect(songItem(page, songs[0]!.title)).toBeVisible();
  await songItem(page, songs[0]!.title).getByRole("button", { name: "Use this song" }).focus();
  await page.keyboard.press("Enter");
  await expect(player(page, songs[0]!.title)).toBeVisible();
  // Nothing wider than the window.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await songItem(page, songs[0]!.title).boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
});

/** 100 ms RMS levels (dBFS) of a file's sound, in order. */
function windowLevels(file: string): number[] {
  const out = execFileSync("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-vn", "-ac", "1", "-ar", "48000", "-af", "asetnsamples=n=4800:p=0,astats=metadata=1:reset=1,ametadata=print:key=lavfi.astats.Overall.RMS_level:file=-", "-f", "null", "-"]).toString();
  return [...out.matchAll(/RMS_level=(-?[\d.]+|-inf)/g)].map((m) => (m[1] === "-inf" ? -150 : Number(m[1])));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The file the preview player plays, saved for measuring. */
async function playedFile(page: Page, request: APIRequestContext, name: string): Promise<string> {
  const video = page.locator("video");
  await expect(video).toBeVisible();
  const src = await video.evaluate((v: HTMLVideoElement) => v.currentSrc || v.src);
  expect(src).toBeTruthy();
  const res = await request.get(src);
  expect(res.ok()).toBe(true);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cutroom-music-")), name);
  writeFileSync(file, await res.body());
  return file;
}

test("a song picked in the Music tab plays in the render, under the speech and in its pauses", async ({ page, request, baseURL }) => {
  test.setTimeout(420_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  // Silences kept (auto cut off): the talk's pauses stay long enough for the music to come back up in them.
  const talk = await uploadToLibrary(api, baseURL!, token, "talk.mp4", { speech: true, language: "it-IT" });
  const projectId: number = (await api.post("/createproject", { name: "A talk to set to music", locale: "it-IT", style: "video", autocutsilences: 0, media: [talk.id] })).id;
  await expect.poll(async () => (await api.get(`/projects/${projectId}`)).status, { timeout: 150_000, intervals: [1_000] }).toBe("Preview Ready");
  const songs: Song[] = (await api.get("/bgms")).data;
  const song = songs[songs.length - 1]!;

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  // The preview as processed: no music. Its pauses (the windows near silence) are where the song must be heard.
  await page.goto(`/projects/${projectId}/preview`);
  const before = windowLevels(await playedFile(page, request, "before.mp4"));
  // (Windows of 0.1 s; the song fades in over the first second and out over the last few.)
  // A pause window is one well inside a pause: no speech in the 0.5 s before it (the duck's release) nor the 0.2 s after.
  const quiet = (i: number) => before.slice(i - 5, i + 3).every((level) => level < -45);
  const pauses = before.flatMap((level, i) => (level < -50 && i >= 15 && i < before.length - 30 && quiet(i) ? [i] : []));
  expect(pauses.length, "the edit keeps some pauses").toBeGreaterThanOrEqual(2);

  await page.goto(`/projects/${projectId}/music`);
  await songItem(page, song.title).getByRole("button", { name: "Use this song" }).click();
  await expect(player(page, song.title)).toBeVisible();
  await expect.poll(async () => (await api.get(`/projects/${projectId}`)).bgm_id).toBe(song.id);

  await page.goto(`/projects/${projectId}/storyboard`);
  await page.getByRole("button", { name: "Render now" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/share$`));
  await expect.poll(async () => (await api.get(`/projects/${projectId}`)).status, { timeout: 300_000, intervals: [2_000] }).toBe("Preview Ready");
  // What Cutroom did says music now.
  await expect(page.getByRole("heading", { name: "What Cutroom did" })).toBeVisible({ timeout: 90_000 });
  expect(await api.get(`/projects/${projectId}/highlights`)).toMatchObject({ music: true });

  await page.goto(`/projects/${projectId}/preview`);
  const after = windowLevels(await playedFile(page, request, "after.mp4"));
  expect(after.length).toBe(before.length);
  const inPauses = pauses.map((i) => after[i]!);
  // The song is heard in the pauses: above −40 dBFS where the render without it was near silence.
  expect(median(inPauses)).toBeGreaterThan(-40);
  for (const [n, i] of pauses.entries()) expect(inPauses[n]!).toBeGreaterThan(before[i]! + 10);
});
