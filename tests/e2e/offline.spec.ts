import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { apiToken, createUser, processedProject, readStore, signIn, userApi } from "./helpers";

const card = (page: Page, order: number) => page.getByRole("article", { name: `Scene ${order}`, exact: true });
const cards = (page: Page) => page.getByRole("list", { name: "Scenes" }).getByRole("article");
const waitingCount = (page: Page) => page.locator(".sync-status").getByText(/^\d+ edits? waiting$/);

async function sceneMenu(page: Page, order: number) {
  await page.getByRole("button", { name: `More actions for scene ${order}` }).click();
  return page.getByRole("menu", { name: `Actions for scene ${order}` });
}

/** Gives scene `order` one text line, through the card's inline editor. */
async function setText(page: Page, order: number, text: string) {
  await page.getByRole("button", { name: `Edit text of scene ${order}` }).click();
  const form = page.getByRole("form", { name: `Text lines of scene ${order}` });
  const line = form.getByRole("textbox", { name: "Line 1", exact: true });
  if ((await line.count()) === 0) await form.getByRole("button", { name: "Add a line" }).click();
  await line.fill(text);
  // Enter saves (the Save button of a card in the last row can sit below the page's end).
  await line.press("Enter");
  await expect(form).toBeHidden();
}

async function setType(page: Page, order: number, type: "Intro" | "Default" | "Outro") {
  const menu = await sceneMenu(page, order);
  await menu.getByRole("menuitem", { name: "Change type" }).click();
  // The submenu takes its trigger's name; the current type carries a check mark.
  await page.getByRole("menu", { name: "Change type" }).getByRole("menuitemradio", { name: new RegExp(`^${type}`) }).click();
  await expect(page.getByRole("menu")).toHaveCount(0);
}

async function setFootageVolume(page: Page, order: number, level: "Low" | "High") {
  const menu = await sceneMenu(page, order);
  await menu.getByRole("menuitem", { name: "Volume" }).click();
  const dialog = page.getByRole("dialog", { name: `Volume of scene ${order}` });
  const footage = dialog.getByRole("radiogroup", { name: "Footage volume" });
  await footage.getByText(level, { exact: true }).click();
  await expect(footage.getByRole("radio", { name: level })).toBeChecked();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
}


/** What the server kept of the user's Idempotency-Keys: one row per edit that reached it, whichever path brought it. */
function storedKeys(email: string): { method: string; path: string; status: number }[] {
  const db = new Database(path.resolve(E2E_DATA_DIR, "cutroom.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT k.method, k.path, k.status FROM idempotency_keys k JOIN users u ON u.id = k.user_id
         WHERE u.email = ? AND k.path LIKE '/api/v1/scenes/%' ORDER BY k.created_at`,
      )
      .all(email.toLowerCase()) as { method: string; path: string; status: number }[];
  } finally {
    db.close();
  }
}

test("edits made offline survive a reload, land exactly once, and none is lost on a flapping network", async ({ page, context, request, baseURL }) => {
  test.setTimeout(420_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Edited on a train", "it-IT");
  const original = await api.scenes(projectId);
  const ids: number[] = original.map((s) => s.id);
  const serverScenes = async () => new Map((await api.scenes(projectId)).map((s) => [s.id, s]));
  expect(original.length).toBeGreaterThanOrEqual(5);

  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await page.goto(`/projects/${projectId}/storyboard`);
  await expect(cards(page)).toHaveCount(original.length);
  // Once the service worker runs, a reload puts the page and its sync worker under it: the pictures
  // go to its image cache and failed edits to its background-sync queue.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect(cards(page)).toHaveCount(original.length);
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  const firstPicture = card(page, 1).locator(".scene-thumb img");
  expect(original[0].thumbnail).toMatch(/^\/api\/v1\/files\/.+\?.*signature=/);
  await expect.poll(() => firstPicture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // The image cache names a thumbnail by its file, not by its signed link (which changes when signed again).
  const thumbnailPath = new URL(original[0].thumbnail, baseURL).pathname;
  await expect
    .poll(() => page.evaluate(async () => (await (await caches.open("cutroom-images")).keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search)))
    .toContain(thumbnailPath);

  await test.step("offline: structural actions are disabled and say why", async () => {
    await context.setOffline(true);
    await expect(page.getByText("You are offline.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Add scenes after scene 1" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Add scenes after scene 1" })).toHaveAccessibleDescription(/need a connection/);
    await expect(page.getByRole("switch", { name: /Drag to reorder/ })).toBeDisabled();
    const menu = await sceneMenu(page, 2);
    for (const item of ["Duplicate", "Move earlier", "Move later", "Move to position", "Add overlay"]) {
      const entry = menu.getByRole("menuitem", { name: new RegExp(`^${item}`) });
      await expect(entry).toBeDisabled();
      await expect(entry).toContainText("Needs a connection.");
    }
    // Attribute edits stay available.
    await expect(menu.getByRole("menuitem", { name: "Trim" })).toBeEnabled();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toHaveCount(0);
  });

  await test.step("ten attribute edits offline: applied at once, counted as waiting", async () => {
    await page.getByRole("button", { name: "Remove scene 1" }).click(); // 1
    await expect(page.getByText("Saved on this device").first()).toBeVisible();
    await page.getByRole("button", { name: "Restore scene 1" }).click(); // 2
    await page.getByRole("button", { name: "Remove scene 2" }).click(); // 3
    await setText(page, 1, "Written on a train"); // 4
    await setText(page, 3, "No signal in the tunnel"); // 5
    await setType(page, 3, "Intro"); // 6
    await setType(page, 5, "Outro"); // 7
    await setFootageVolume(page, 4, "High"); // 8
    await setText(page, 4, "Still offline"); // 9
    await setText(page, 1, "Written on a slow train"); // 10
    await expect(waitingCount(page)).toHaveText("10 edits waiting");
    await expect(card(page, 2).getByText("Removed", { exact: true })).toBeVisible();
    await expect(card(page, 1)).toContainText("Written on a slow train");
    await expect(card(page, 1).getByText("Waiting to sync")).toBeVisible();
    // Nothing reached the server.
    const server = await serverScenes();
    expect(server.get(ids[1])!.visibility).toBe(1);
    expect(server.get(ids[0])!.text).toEqual([]);
  });

  await test.step("a reload while offline keeps them, with the count and the pictures", async () => {
    await page.reload();
    await expect(cards(page)).toHaveCount(original.length);
    await expect(waitingCount(page)).toHaveText("10 edits waiting");
    await expect(page.getByText("You are offline.")).toBeVisible();
    await expect(card(page, 1)).toContainText("Written on a slow train");
    await expect(card(page, 2).getByText("Removed", { exact: true })).toBeVisible();
    await expect(card(page, 3).getByText("Intro", { exact: true })).toBeVisible();
    await expect(card(page, 4)).toContainText("Still offline");
    await expect(card(page, 5).getByText("Outro", { exact: true })).toBeVisible();
    await expect(page.getByText("Waiting to sync")).toHaveCount(5);
    // The service worker saw the sync worker's failed sends and keeps them for background sync, with
    // the very keys of the outbox (the same edit, whichever path delivers it first).
    const outboxKeys = new Set((await readStore(page, "cutroom", "outbox")).map((e) => e.idempotencyKey as string));
    expect(outboxKeys.size).toBe(10);
    const queued = (await readStore(page, "workbox-background-sync", "requests")).filter((r) => r.queueName === "cutroom-scene-edits");
    expect(queued.length).toBeGreaterThan(0);
    for (const r of queued) expect(outboxKeys).toContain(r.requestData.headers["idempotency-key"]);
    // Thumbnails come from the image cache, although their signed links changed.
    await expect.poll(() => firstPicture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });

  await test.step("back online: all ten land on the server, each exactly once", async () => {
    await context.setOffline(false);
    await expect(waitingCount(page)).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByText("You are offline.")).toHaveCount(0);
    const server = await serverScenes();
    expect(server.get(ids[0])).toMatchObject({ visibility: 1, type: "default" });
    expect(server.get(ids[0])!.text.map((l: { text: string }) => l.text)).toEqual(["Written on a slow train"]);
    expect(server.get(ids[1])!.visibility).toBe(0);
    expect(server.get(ids[2])).toMatchObject({ type: "intro" });
    expect(server.get(ids[2])!.text.map((l: { text: string }) => l.text)).toEqual(["No signal in the tunnel"]);
    expect(server.get(ids[3])).toMatchObject({ mediaAudio: "loud" });
    expect(server.get(ids[3])!.text.map((l: { text: string }) => l.text)).toEqual(["Still offline"]);
    expect(server.get(ids[4])).toMatchObject({ type: "outro" });
    // One stored answer per edit: ten keys, each applied once (a replay reuses its key and changes nothing).
    await expect.poll(() => storedKeys(email).length).toBe(10);
    const keys = storedKeys(email);
    expect(keys.every((k) => k.status === 200)).toBe(true);
    expect(keys.map((k) => `${k.method} ${k.path}`)).toEqual([
      `GET /api/v1/scenes/${ids[0]}/hide`,
      `GET /api/v1/scenes/${ids[0]}/show`,
      `GET /api/v1/scenes/${ids[1]}/hide`,
      `PUT /api/v1/scenes/${ids[0]}`,
      `PUT /api/v1/scenes/${ids[2]}`,
      `GET /api/v1/scenes/${ids[2]}/type/intro`,
      `GET /api/v1/scenes/${ids[4]}/type/outro`,
      `PUT /api/v1/scenes/${ids[3]}`,
      `PUT /api/v1/scenes/${ids[3]}`,
      `PUT /api/v1/scenes/${ids[0]}`,
    ]);
  });

  await test.step("a flapping network loses no edit", async () => {
    let flapping = true;
    const flap = (async () => {
      let offline = false;
      while (flapping) {
        offline = !offline;
        await context.setOffline(offline);
        await page.waitForTimeout(300);
      }
      await context.setOffline(false);
    })();
    const texts = ["Flap one", "Flap two", "Flap three", "Flap four", "Flap five"];
    try {
      for (const [i, text] of texts.entries()) await setText(page, i + 1, text);
      await page.getByRole("button", { name: "Restore scene 2" }).click();
      await page.getByRole("button", { name: "Remove scene 4" }).click();
      await setType(page, 3, "Default");
      await page.getByRole("button", { name: "Remove scene 5" }).click();
      await page.getByRole("button", { name: "Restore scene 5" }).click();
    } finally {
      flapping = false;
      await flap;
    }
    await expect(waitingCount(page)).toHaveCount(0, { timeout: 60_000 });
    const expected = [
      { text: "Flap one", visibility: 1, type: "default" },
      { text: "Flap two", visibility: 1, type: "default" },
      { text: "Flap three", visibility: 1, type: "default" },
      { text: "Flap four", visibility: 0, type: "default" },
      { text: "Flap five", visibility: 1, type: "outro" },
    ];
    const server = await serverScenes();
    expected.forEach((want, i) => {
      const got = server.get(ids[i])!;
      expect({ text: got.text.map((l: { text: string }) => l.text).join(" "), visibility: got.visibility, type: got.type }).toEqual(want);
    });
    // The page shows the same as the server.
    for (const [i, want] of expected.entries()) {
      await expect(card(page, i + 1)).toContainText(want.text);
      await expect(card(page, i + 1).getByText("Removed", { exact: true })).toHaveCount(want.visibility ? 0 : 1);
    }
    await expect(page.getByText("Waiting to sync")).toHaveCount(0);
  });
});
