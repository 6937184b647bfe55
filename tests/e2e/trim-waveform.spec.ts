import { expect, test, type Page } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

/**
 * Issue 14: trimming by ear and eye. The trim dialog of a processed English talk shows the scene's waveform with
 * its recognised words under it; a dragged marker plays the sound there and snaps to a word's edge, and with
 * Shift held it goes exactly where it is let go.
 */

/** Seconds as the trim fields show them (en-US, up to two decimals). */
const seconds = (value: number) => new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, useGrouping: false }).format(value);
const round = (value: number) => Math.round(value * 100) / 100;

interface Span {
  start: number;
  end: number;
}

async function dragTo(page: Page, from: { x: number; y: number }, x: number, modifier?: "Shift") {
  await page.mouse.move(from.x, from.y);
  if (modifier) await page.keyboard.down(modifier);
  await page.mouse.down();
  await page.mouse.move((from.x + x) / 2, from.y, { steps: 4 });
  await page.mouse.move(x, from.y, { steps: 4 });
  await page.mouse.up();
  if (modifier) await page.keyboard.up(modifier);
}

test("the trim dialog shows the waveform and words; a dragged marker snaps to a word's edge, and not with Shift held", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Trim by ear");
  const scenes = await api.scenes(projectId);
  const words = (await api.get(`/projects/${projectId}/words`)).media[0].words as (Span & { text: string })[];
  expect(words.length).toBeGreaterThan(3);

  // A scene with a word well inside the first half of its kept part: the start marker goes there.
  const pick = scenes
    .filter((s) => s.visibility === 1 && s.media_file_id !== null)
    .map((scene) => {
      const inside = words.filter((w) => w.start >= scene.start && w.end <= scene.end);
      const target = inside.find((w) => w.start > scene.trim_start + 0.3 && w.start < (scene.trim_start + scene.trim_end) / 2);
      return { scene, inside, target };
    })
    .find((p) => p.target);
  expect(pick, "a scene with a word to trim to").toBeTruthy();
  const { scene, inside, target } = pick!;
  const waveform = await api.get(`/media/${scene.media_file_id}/waveform`);
  const silences = (waveform.silences ?? []) as Span[];

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`/projects/${projectId}/storyboard`);
  await page.getByRole("button", { name: `More actions for scene ${scene.order}` }).click();
  await page.getByRole("menu", { name: `Actions for scene ${scene.order}` }).getByRole("menuitem", { name: "Trim" }).click();
  const dialog = page.getByRole("dialog", { name: `Trim scene ${scene.order}` });
  await expect(dialog).toBeVisible();

  // The waveform: bars of different heights (speech and pauses), and the scene's words under it.
  const bars = dialog.locator(".wave-peaks rect");
  await expect(bars.first()).toBeVisible();
  const heights = await bars.evaluateAll((rects) => rects.map((r) => Number(r.getAttribute("height"))));
  expect(heights.length).toBeGreaterThan(50);
  expect(Math.max(...heights)).toBeGreaterThan(Math.min(...heights) * 5);
  const shownWord = inside.find((w) => w.text.length >= 3) ?? inside[0]!;
  await expect(dialog.locator(".wave-word", { hasText: shownWord.text }).first()).toBeVisible();
  await expect(dialog.getByText("Hold Alt or Shift while dragging to place it freely", { exact: false })).toBeVisible();
  await expect(dialog.getByRole("slider", { name: /Start marker/ })).toBeVisible();

  const track = (await dialog.locator(".wave-track").boundingBox())!;
  const span = scene.end - scene.start;
  const xOf = (time: number) => track.x + ((time - scene.start) / span) * track.width;
  const secondsPerPixel = span / track.width;
  // Let go 5 px from the word's start, on the side away from every other edge the marker could snap to.
  const edges = [...inside.flatMap((w) => [w.start, w.end]), ...silences.flatMap((s) => [s.start, s.end])].filter((e) => Math.abs(e - target!.start) > 1e-6);
  const before = edges.filter((e) => e < target!.start).reduce((a, b) => Math.max(a, b), -Infinity);
  const after = edges.filter((e) => e > target!.start).reduce((a, b) => Math.min(a, b), Infinity);
  const side = target!.start - before > after - target!.start ? -1 : 1;
  const offset = side * 5 * secondsPerPixel;
  expect(Math.min(target!.start - before, after - target!.start), "no other edge near the word's start").toBeGreaterThan(16 * secondsPerPixel);

  const start = dialog.getByRole("textbox", { name: "Start (seconds)" });
  const startThumb = async () => {
    const box = (await dialog.locator(".trim-thumb").first().boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  await dragTo(page, await startThumb(), xOf(target!.start + offset));
  await expect(start).toHaveValue(seconds(round(target!.start)));
  // The drag played the sound where the marker went.
  await expect.poll(() => dialog.locator("video").evaluate((v: HTMLVideoElement) => v.played.length)).toBeGreaterThan(0);

  // Shift held: no snapping, the marker stays where it was let go.
  await dragTo(page, await startThumb(), xOf(target!.start + offset), "Shift");
  await expect(start).not.toHaveValue(seconds(round(target!.start)));
  const free = Number(await start.inputValue());
  expect(Math.abs(free - (target!.start + offset))).toBeLessThan(secondsPerPixel * 2 + 0.011);

  // And the keyboard: the focused marker moves a hundredth with an arrow key, a quarter second with Shift.
  await dialog.getByRole("slider", { name: /Start marker/ }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(start).toHaveValue(seconds(round(free + 0.01)));
  await page.keyboard.press("Shift+ArrowLeft");
  await expect(start).toHaveValue(seconds(round(free + 0.01 - 0.25)));

  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await api.scenes(projectId)).find((s) => s.id === scene.id).trim_start).toBeCloseTo(round(free + 0.01 - 0.25), 2);

  // Offline, the dialog still has the waveform (kept on the device) and its markers still move.
  await page.context().setOffline(true);
  await page.getByRole("button", { name: `More actions for scene ${scene.order}` }).click();
  await page.getByRole("menu", { name: `Actions for scene ${scene.order}` }).getByRole("menuitem", { name: "Trim" }).click();
  await expect(dialog.locator(".wave-peaks rect").first()).toBeVisible();
  await dialog.getByRole("slider", { name: /End marker/ }).focus();
  const end = dialog.getByRole("textbox", { name: "End (seconds)" });
  const endBefore = Number(await end.inputValue());
  await page.keyboard.press("Shift+ArrowLeft");
  await expect(end).toHaveValue(seconds(round(endBefore - 0.25)));
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.context().setOffline(false);

  // The scissors show where the cut falls on the waveform of a scene with two lines or more, and play from there.
  const lined = scenes.find((s) => s.visibility === 1 && s.text.length >= 2);
  expect(lined, "a scene with two caption lines").toBeTruthy();
  await page.getByRole("button", { name: `More actions for scene ${lined!.order}` }).click();
  await page.getByRole("menu", { name: `Actions for scene ${lined!.order}` }).getByRole("menuitem", { name: /Split by text line/ }).click();
  const scissors = page.getByRole("dialog", { name: `Split scene ${lined!.order} by text line` });
  await expect(scissors.locator(".wave-peaks rect").first()).toBeVisible();
  await expect(scissors.locator(".wave-cut")).toBeVisible();
  await expect(scissors.getByRole("button", { name: "Play from the cut" })).toBeVisible();
  await scissors.getByRole("button", { name: "Cancel" }).click();

  // On a 360 px wide phone: the waveform, the words and both markers fit on the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole("button", { name: `More actions for scene ${scene.order}` }).click();
  await page.getByRole("menu", { name: `Actions for scene ${scene.order}` }).getByRole("menuitem", { name: "Trim" }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.locator(".wave-peaks rect").first()).toBeVisible();
  await expect(dialog.locator(".wave-word", { hasText: shownWord.text }).first()).toBeAttached();
  for (const thumb of await dialog.locator(".trim-thumb").all()) {
    await thumb.scrollIntoViewIfNeeded();
    const box = (await thumb.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
