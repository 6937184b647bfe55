import { expect, test, type Locator, type Page } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

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
