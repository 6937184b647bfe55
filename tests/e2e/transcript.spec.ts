import { expect, test } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

/**
 * Issue 14, edit by transcript, as a user does it: the storyboard's Transcript view of a processed English talk,
 * two words selected (click, shift+click) and Delete pressed; the storyboard shows the cut as a removed part of
 * the scene; selecting the cut and pressing Restore brings the scene back whole.
 */

interface SceneJson {
  id: number;
  visibility: number;
  media_file_id: number;
  trim_start: number;
  trim_end: number;
  trim_start_raw: number;
  text: { start: number; end: number; text: string }[];
}
interface Word {
  start: number;
  end: number;
  text: string;
}

test("select two words of the transcript, press Delete, see the cut in the storyboard, and restore it", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const id = await processedProject(api, baseURL!, token, "Transcript talk");
  const scenesOf = async () => (await api.post(`/projects/${id}/storyboard?offset=0&limit=250`, {})).timeline.scenes as SceneJson[];
  const before = await scenesOf();
  await expect.poll(async () => (await api.get(`/projects/${id}/words`)).media.length, { timeout: 120_000, intervals: [1_000] }).toBe(1);
  const words = ((await api.get(`/projects/${id}/words`)).media[0].words as Word[]).slice().sort((a, b) => a.start - b.start);
  // The transcript as the view lists it: each shown scene's words within its trim, in storyboard order.
  const listed = before
    .filter((s) => s.visibility === 1)
    .flatMap((s) => words.filter((w) => (w.start + w.end) / 2 >= s.trim_start && (w.start + w.end) / 2 < s.trim_end).map((w) => ({ w, s })));
  expect(listed.length).toBeGreaterThan(3);

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`/projects/${id}/storyboard`);
  await expect(page.getByRole("article", { name: "Scene 1" })).toBeVisible();
  await expect(page.locator('.scene-card[data-removed="true"]')).toHaveCount(before.filter((s) => s.visibility === 0).length);

  await page.getByRole("radio", { name: "Transcript" }).click();
  const list = page.getByRole("listbox", { name: "Words of the project" });
  await expect(list).toBeVisible();
  const options = list.getByRole("option");
  await expect(options).toHaveCount(listed.length);
  await expect(options.nth(1)).toHaveText(listed[1]!.w.text);

  // Clicking a word moves the reference player to it.
  await options.nth(1).click();
  const expected = listed[1]!.s.trim_start_raw + (listed[1]!.w.start - listed[1]!.s.trim_start);
  await expect.poll(() => page.locator(".reference-player video").evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeCloseTo(expected, 1);

  await options.nth(2).click({ modifiers: ["Shift"] });
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(options.nth(2)).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("status").filter({ hasText: "2 words selected" })).toBeVisible();
  await page.keyboard.press("Delete");

  // The two words become one cut in the transcript…
  const cut = list.getByRole("option", { name: `Cut: ${listed[1]!.w.text} ${listed[2]!.w.text}` });
  await expect(cut).toBeVisible({ timeout: 20_000 });
  await expect(options).toHaveCount(listed.length - 1);
  // …and a removed part of the scene on the server and in the storyboard.
  const afterCut = await scenesOf();
  const hidden = afterCut.find((s) => s.visibility === 0 && Math.abs(s.trim_start - listed[1]!.w.start) < 0.002);
  expect(hidden).toBeDefined();
  expect(hidden!.trim_end).toBeCloseTo(listed[2]!.w.end, 2);
  await page.getByRole("radio", { name: "Scenes" }).click();
  await expect(page.locator(`.scene-card[data-scene-id="${hidden!.id}"][data-removed="true"]`)).toBeVisible();
  await expect(page.locator(`.scene-card[data-scene-id="${hidden!.id}"]`)).toContainText("Removed");

  // Restore: select the cut, press Restore; the scene is whole again.
  await page.getByRole("radio", { name: "Transcript" }).click();
  await list.getByRole("option", { name: /^Cut:/ }).click();
  await page.getByRole("button", { name: "Restore" }).click();
  await expect(list.getByRole("option", { name: /^Cut:/ })).toHaveCount(0, { timeout: 20_000 });
  await expect(options).toHaveCount(listed.length);
  // …its text lines joined again where the cut had divided them.
  const whole = (list: SceneJson[]) => list.map((s) => [s.id, s.visibility, s.trim_start, s.trim_end, s.text.map((l) => l.text)]);
  await expect.poll(async () => whole(await scenesOf())).toEqual(whole(before));

  // Offline: a cut inside a scene waits for the connection and says so; all the words of one scene are cut
  // offline (a hide, kept on the device), and sent when the connection is back.
  await page.context().setOffline(true);
  await options.nth(1).click();
  await options.nth(2).click({ modifiers: ["Shift"] });
  await expect(page.getByText("Cutting inside a scene needs a connection. Whole scenes can be cut offline.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cut", exact: true })).toBeDisabled();
  const target = listed[0]!.s.id;
  const ofTarget = listed.flatMap((entry, i) => (entry.s.id === target ? [i] : []));
  await options.nth(ofTarget[0]!).click();
  await options.nth(ofTarget[ofTarget.length - 1]!).click({ modifiers: ["Shift"] });
  await expect(page.getByText("Cutting inside a scene needs a connection.")).toHaveCount(0);
  await page.keyboard.press("Delete");
  await expect(page.getByText("Saved on this device", { exact: true })).toBeVisible();
  await expect(list.getByRole("option", { name: /^Cut:/ })).toHaveCount(1);
  await page.context().setOffline(false);
  await expect.poll(async () => (await scenesOf()).find((s) => s.id === target)!.visibility, { timeout: 30_000 }).toBe(0);

  // 360 px wide: the words wrap, nothing runs off the side.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(list).toBeVisible();
  expect(await list.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= 360)).toBe(true);
});
