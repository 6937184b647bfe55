import { expect, test, type Page } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, translation, userApi } from "./helpers";

/**
 * Issue 18: the phone (360–430 px wide) as a first-class layout. A tap on ☰ opens the menu without the
 * same tap landing on a link; the banners keep to a compact line each; the storyboard's first screen
 * shows a scene; New project is in the header; the trim fields ask for a decimal keypad and read the
 * interface language's decimal separator; no page scrolls sideways.
 */

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** A placeholder-bearing message in `locale`, its placeholder filled. */
const message = (locale: string, english: string, value: number) => translation(locale, english).replace(/\{\w+\}/, String(value));

/** Nothing wider than the phone: a wider page would also make a mobile browser zoom out (innerWidth grows with it). */
async function noSidewaysScroll(page: Page) {
  const width = page.viewportSize()!.width;
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(innerWidth, `${page.url()} is zoomed out to fit something too wide`).toBe(width);
  expect(scrollWidth, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(width);
}

/** The banners above the page (announcement, refresh notice, promotion) together take at most ~80 px. */
async function bannersCompact(page: Page) {
  const banners = page.locator(".top-banner, .notice-banner, .promotion-banner");
  await expect(banners.first()).toBeVisible();
  let total = 0;
  for (const box of await banners.evaluateAll((all) => all.map((b) => b.getBoundingClientRect().height))) total += box;
  expect(total).toBeLessThanOrEqual(80);
}

/** Taps ☰: the menu opens and stays open, and the page under the finger did not change (no click-through). */
async function tapMenuOpen(page: Page, locale = "en") {
  const before = page.url();
  const handle = page.getByRole("button", { name: translation(locale, "Open menu"), exact: true });
  await handle.tap();
  await expect(handle).toHaveAttribute("aria-expanded", "true");
  const menu = page.getByRole("navigation", { name: translation(locale, "Main menu") });
  await expect(menu.getByRole("link", { name: translation(locale, "Media"), exact: true })).toBeVisible();
  // Past any delayed synthetic click: still open, still on the same page.
  await page.waitForTimeout(400);
  expect(page.url()).toBe(before);
  await expect(menu.getByRole("link", { name: translation(locale, "Media"), exact: true })).toBeVisible();
  return menu;
}

test("at 390×844: menu without click-through, compact banners, New project, a scene on the first screen, a decimal trim field", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Phone edit");

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));

  await test.step("home: banners compact and expandable, the menu opens on a tap and closes on Escape and outside", async () => {
    await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
    await bannersCompact(page);
    await noSidewaysScroll(page);

    // The refresh notice is cut to one line; its chevron shows the whole message and hides it again.
    const notice = page.locator(".notice-banner");
    const more = notice.getByRole("button", { name: "Show the whole message" });
    const oneLine = (await notice.boundingBox())!.height;
    await more.tap();
    await expect(notice.getByRole("button", { name: "Show less of this message" })).toHaveAttribute("aria-expanded", "true");
    expect((await notice.boundingBox())!.height).toBeGreaterThan(oneLine + 10);
    await notice.getByRole("button", { name: "Show less of this message" }).tap();
    await expect.poll(async () => (await notice.boundingBox())!.height).toBeLessThanOrEqual(oneLine + 1);

    const menu = await tapMenuOpen(page);
    await page.keyboard.press("Escape");
    await expect(menu.getByRole("link", { name: "Media", exact: true })).toBeHidden();

    await tapMenuOpen(page);
    await page.getByRole("heading", { name: /Welcome to Cutroom/ }).tap();
    await expect(menu.getByRole("link", { name: "Media", exact: true })).toBeHidden();

    // Then Media, chosen deliberately.
    await tapMenuOpen(page);
    await menu.getByRole("link", { name: "Media", exact: true }).tap();
    await page.waitForURL((u) => u.pathname === "/library");
    await expect(menu.getByRole("link", { name: "Media", exact: true })).toBeHidden();
    await noSidewaysScroll(page);
  });

  await test.step("the dismissed refresh notice stays dismissed after a reload", async () => {
    await page.locator(".notice-banner").getByRole("button", { name: "Dismiss" }).tap();
    await expect(page.locator(".notice-banner")).toHaveCount(0);
    await page.reload();
    await expect(page.locator(".top-banner")).toBeVisible();
    await expect(page.locator(".notice-banner")).toHaveCount(0);
  });

  await test.step("wizard: New project is in the phone header and opens it", async () => {
    const newProject = page.getByRole("banner").getByRole("link", { name: "New project", exact: true });
    await expect(newProject).toBeVisible();
    await newProject.tap();
    await page.waitForURL((u) => u.pathname === "/new");
    await bannersCompact(page);
    await noSidewaysScroll(page);
    await tapMenuOpen(page);
    await page.keyboard.press("Escape");
  });

  const scenes = (await api.scenes(projectId)).filter((s) => s.visibility === 1);
  await test.step("storyboard: a scene card on the first screen", async () => {
    await page.goto(`/projects/${projectId}/storyboard`);
    await expect(page.getByRole("heading", { name: "Phone edit" })).toBeVisible();
    const first = page.getByRole("list", { name: "Scenes" }).getByRole("article").first();
    await expect(first).toBeVisible();
    const box = (await first.boundingBox())!;
    expect(box.y + box.height / 2, "at least half of the first card (its picture) is on the first screen").toBeLessThanOrEqual(844);
    await bannersCompact(page);
    await noSidewaysScroll(page);
    await tapMenuOpen(page);
    await page.keyboard.press("Escape");
  });

  await test.step("trim: decimal keypad, '1.5' typed in English is saved", async () => {
    const scene = scenes.find((s) => s.start < 1.5 && s.trim_end > 1.9) ?? scenes[0];
    const typed = scene.start < 1.5 && scene.trim_end > 1.9 ? 1.5 : Math.round((scene.trim_start + 0.5) * 10) / 10;
    await page.getByRole("button", { name: `More actions for scene ${scene.order}` }).tap();
    await page.getByRole("menu", { name: `Actions for scene ${scene.order}` }).getByRole("menuitem", { name: "Trim" }).tap();
    const dialog = page.getByRole("dialog", { name: `Trim scene ${scene.order}` });
    await expect(dialog).toBeVisible();
    const start = dialog.getByRole("textbox", { name: "Start (seconds)" });
    await expect(start).toHaveAttribute("inputmode", "decimal");
    await expect(dialog.getByRole("textbox", { name: "End (seconds)" })).toHaveAttribute("inputmode", "decimal");
    await noSidewaysScroll(page);
    await start.fill(String(typed));
    await start.blur();
    await expect(start).toHaveValue(String(typed));
    await dialog.getByRole("button", { name: "Save", exact: true }).tap();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await api.scenes(projectId)).find((s) => s.id === scene.id).trim_start).toBe(typed);
  });

  await test.step("preview: fits, banners compact, the menu opens without click-through", async () => {
    await page.goto(`/projects/${projectId}/preview`);
    await expect(page.getByRole("heading", { name: "Phone edit" })).toBeVisible();
    await bannersCompact(page);
    await noSidewaysScroll(page);
    await expect(page.getByRole("banner").getByRole("link", { name: "New project", exact: true })).toBeVisible();
    const menu = await tapMenuOpen(page);
    await menu.getByRole("link", { name: "Project list", exact: true }).tap();
    await page.waitForURL((u) => u.pathname === "/open");
    await noSidewaysScroll(page);
  });
});

test("at 360 px in German: the trim field reads '1,5', New project is in the header, nothing scrolls sideways", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 360, height: 740 });
  const de = (english: string) => translation("de", english);
  const { email } = await createUser(request, { locale: "de" });
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Telefon");

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await expect(page.getByRole("banner").getByRole("link", { name: de("New project"), exact: true })).toBeVisible();
  await bannersCompact(page);
  await noSidewaysScroll(page);
  await tapMenuOpen(page, "de");
  await page.keyboard.press("Escape");

  await page.goto(`/projects/${projectId}/storyboard`);
  await expect(page.getByRole("heading", { name: "Telefon" })).toBeVisible();
  await expect(page.getByRole("list", { name: de("Scenes") }).getByRole("article").first()).toBeVisible();
  await noSidewaysScroll(page);

  const scenes = (await api.scenes(projectId)).filter((s) => s.visibility === 1);
  const scene = scenes.find((s) => s.start < 1.5 && s.trim_end > 1.9);
  expect(scene, "a scene that can start at 1.5 s").toBeTruthy();
  await page.getByRole("button", { name: message("de", "More actions for scene {0}", scene.order) }).tap();
  await page.getByRole("menu", { name: message("de", "Actions for scene {number}", scene.order) }).getByRole("menuitem", { name: de("Trim") }).tap();
  const dialog = page.getByRole("dialog", { name: message("de", "Trim scene {0}", scene.order) });
  const start = dialog.getByRole("textbox", { name: de("Start (seconds)") });
  await expect(start).toHaveAttribute("inputmode", "decimal");
  await start.fill("1,5");
  await start.blur();
  await expect(start).toHaveValue("1,5");
  await dialog.getByRole("button", { name: de("Save"), exact: true }).tap();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await api.scenes(projectId)).find((s) => s.id === scene.id).trim_start).toBe(1.5);
  await noSidewaysScroll(page);
});
