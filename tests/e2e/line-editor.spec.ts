import { expect, test, type Page } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

/** Issue 18: the scene's text-line editor was tiny. It now takes a full 35-character line, in a readable size, with its count. */
/** A real 35-character line (the most a line holds). */
const LINE = "Welcome to the storyboard, friends!";

async function openEditor(page: Page, scene: number) {
  await page.getByRole("button", { name: `Edit text of scene ${scene}` }).click();
  const form = page.getByRole("form", { name: `Text lines of scene ${scene}` });
  await expect(form).toBeVisible();
  if (await form.getByText("This scene has no text.").isVisible()) await form.getByRole("button", { name: "Add a line" }).click();
  const field = form.getByRole("textbox", { name: "Line 1", exact: true });
  await field.fill(LINE);
  await expect(form.locator(".lines-editor-row").first().getByText("35/35 characters")).toBeInViewport();
  return { form, field };
}

async function fitsWholeLine(page: Page, field: ReturnType<Page["getByRole"]>, where: string) {
  const m = await field.evaluate((input: HTMLInputElement) => ({ editor: input.closest(".scene-text-editor")!.getBoundingClientRect().width, font: parseFloat(getComputedStyle(input).fontSize), scroll: input.scrollWidth, client: input.clientWidth, right: input.getBoundingClientRect().right, left: input.getBoundingClientRect().left }));
  expect(m.font, where).toBeGreaterThanOrEqual(16);
  expect(m.scroll, `${where}: the 35 characters show without scrolling the field (editor ${m.editor} px)`).toBeLessThanOrEqual(m.client + 1);
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  expect(m.left).toBeGreaterThanOrEqual(0);
  expect(m.right).toBeLessThanOrEqual(width);
}

test("the text-line editor fits a 35-character line at 1280 px (both halves of the grid) and at 360 px", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Line editor");
  const scenes = (await api.scenes(projectId)).length;

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`/projects/${projectId}/storyboard`);
  for (const scene of [1, Math.min(scenes, 3)]) {
    const { form, field } = await openEditor(page, scene);
    await fitsWholeLine(page, field, `1280 px, scene ${scene}`);
    await form.getByRole("button", { name: "Cancel" }).click();
    await expect(form).toHaveCount(0);
  }

  await page.setViewportSize({ width: 360, height: 800 });
  await page.reload();
  const { field } = await openEditor(page, 1);
  // A phone: the field spans the editor, which spans the card, in the same readable size.
  const m = await field.evaluate((input: HTMLInputElement) => ({ font: parseFloat(getComputedStyle(input).fontSize), input: input.getBoundingClientRect(), editor: input.closest(".scene-text-editor")!.getBoundingClientRect(), card: input.closest(".scene-card")!.getBoundingClientRect() }));
  expect(m.font).toBeGreaterThanOrEqual(16);
  expect(m.input.width).toBeGreaterThanOrEqual(m.editor.width - 24);
  expect(m.editor.width).toBeGreaterThanOrEqual(m.card.width - 2);
  expect(m.editor.right).toBeLessThanOrEqual(360);
});
