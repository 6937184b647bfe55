import { expect, test, type Locator, type Page } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

/**
 * Issue 18, a chaos run's flake: the scene menu's "Volume" was clicked and "Faces and framing" opened. While
 * the network flapped, items switched between enabled and disabled and their reason line came and went, so
 * the open menu changed height and the items moved under the pointer. An open menu now keeps the connection
 * state it opened with; an item chosen after the connection went is refused, with a message, and nothing is sent.
 */

const sceneMenu = (page: Page, order: number) => page.getByRole("menu", { name: `Actions for scene ${order}` });

async function openSceneMenu(page: Page, order: number) {
  await page.getByRole("button", { name: `More actions for scene ${order}` }).click();
  const menu = sceneMenu(page, order);
  await expect(menu).toBeVisible();
  return menu;
}

/** Every item of the menu with its box on the page, in order. */
function itemBoxes(menu: Locator) {
  return menu.evaluate((element) =>
    Array.from(element.querySelectorAll<HTMLElement>('[role="menuitem"]')).map((item) => {
      const box = item.getBoundingClientRect();
      return { item: item.textContent, x: box.x, y: box.y, width: box.width, height: box.height };
    }),
  );
}

/** The page's own word that the connection went or came back (both the browser and the sync worker know). */
async function setOffline(page: Page, offline: boolean) {
  await page.context().setOffline(offline);
  if (offline) await expect(page.getByText("You are offline.")).toBeVisible();
  else await expect(page.getByText("You are offline.")).toHaveCount(0);
}

test("the open scene menu keeps still while the network flaps, and the item clicked is the one acted on", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Menu on a train");
  const scenes = await api.scenes(projectId);
  // Two text lines: "Split by text line" is listed, a structural item that is disabled offline.
  const first = scenes[0]!;
  const middle = Math.round(((first.start + first.end) / 2) * 1000) / 1000;
  const put = await request.put(`/api/v1/scenes/${first.id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { text: [{ start: first.start, end: middle, text: "First line" }, { start: middle, end: first.end, text: "Second line" }] },
  });
  expect(put.ok(), await put.text()).toBe(true);

  // Every structural request the page sends, to check that a refused item sends none.
  const structural: string[] = [];
  page.context().on("request", (r) => {
    if (/\/api\/v1\/scenes\/\d+\/(duplicate|split|splitbyline|order|mergenext)/i.test(new URL(r.url()).pathname)) structural.push(r.url());
  });

  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await page.goto(`/projects/${projectId}/storyboard`);
  await expect(page.getByRole("list", { name: "Scenes" }).getByRole("article").first()).toBeVisible();

  await test.step("opened online: offline and back, no item moves and every item stays as it was", async () => {
    const menu = await openSceneMenu(page, 1);
    await expect(menu.getByRole("menuitem", { name: /^Split by text line/ })).toBeEnabled();
    const before = await itemBoxes(menu);
    expect(before.length).toBeGreaterThanOrEqual(10);
    for (const offline of [true, false, true, false]) {
      await setOffline(page, offline);
      expect(await itemBoxes(menu), `items after going ${offline ? "offline" : "online"}`).toEqual(before);
    }
    // Online again: the item clicked is the item acted on.
    await menu.getByRole("menuitem", { name: "Volume", exact: true }).click();
    await expect(page.getByRole("dialog", { name: "Volume of scene 1" })).toBeVisible();
    await expect(page.getByRole("dialog", { name: /^Faces and framing/ })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  await test.step("opened offline: back online and offline again, no item moves", async () => {
    await setOffline(page, true);
    const menu = await openSceneMenu(page, 1);
    const duplicate = menu.getByRole("menuitem", { name: /^Duplicate/ });
    await expect(duplicate).toBeDisabled();
    await expect(duplicate).toContainText("Needs a connection.");
    const before = await itemBoxes(menu);
    for (const offline of [false, true, false]) {
      await setOffline(page, offline);
      expect(await itemBoxes(menu), `items after going ${offline ? "offline" : "online"}`).toEqual(before);
    }
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toHaveCount(0);
    // Reopened online, the menu shows the connection as it is now.
    await expect((await openSceneMenu(page, 1)).getByRole("menuitem", { name: /^Duplicate/ })).toBeEnabled();
    await page.keyboard.press("Escape");
  });

  await test.step("an item that needs the connection, chosen after it went, is refused and sends nothing", async () => {
    for (const [item, dialog] of [
      ["Duplicate", null],
      ["Split by text line (scissors)", "Split scene 1 by text line"],
      ["Move to position…", "Move scene 1"],
    ] as const) {
      const menu = await openSceneMenu(page, 1);
      await setOffline(page, true);
      await menu.getByRole("menuitem", { name: item, exact: true }).click();
      const toast = page.getByRole("alertdialog").filter({ hasText: "The scene was not changed" });
      await expect(toast).toContainText("Needs a connection.");
      await expect(page.getByRole("menu")).toHaveCount(0);
      if (dialog) await expect(page.getByRole("dialog", { name: dialog })).toHaveCount(0);
      await setOffline(page, false);
      // The toast goes by itself (SPEC §9), so the next round's is its own.
      await expect(toast).toHaveCount(0);
    }
    expect(structural).toEqual([]);
    expect((await api.scenes(projectId)).length).toBe(scenes.length);
  });

  await test.step("clicks while the network flaps on its own land on the item clicked", async () => {
    let flapping = true;
    const flaps = (async () => {
      let offline = false;
      while (flapping) {
        offline = !offline;
        await page.context().setOffline(offline);
        await page.waitForTimeout(offline ? 170 : 230);
      }
      await page.context().setOffline(false);
    })();
    try {
      for (let round = 0; round < 6; round++) {
        const menu = await openSceneMenu(page, 1);
        await page.waitForTimeout(100 + round * 60);
        await menu.getByRole("menuitem", { name: "Volume", exact: true }).click();
        const volume = page.getByRole("dialog", { name: "Volume of scene 1" });
        await expect(volume).toBeVisible();
        await expect(page.getByRole("dialog")).toHaveCount(1);
        await volume.getByRole("button", { name: "Cancel" }).click();
        await expect(page.getByRole("dialog")).toHaveCount(0);
      }
    } finally {
      flapping = false;
      await flaps;
    }
  });
});
