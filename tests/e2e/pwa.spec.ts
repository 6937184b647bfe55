import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import type { PushPayload } from "../../api/push";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (bytes: Buffer) => {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
};

/** The page is controlled by the service worker, so its precache is complete. */
async function serviceWorkerInControl(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 20_000 }).toBe(true);
}

const accountMenu = (page: Page) => page.getByRole("button", { name: /^Account menu for / });

/** Delivers a Web Push to the page's service worker registration, as the push service would. */
async function deliverPush(context: BrowserContext, page: Page, payload: PushPayload) {
  const cdp = await context.newCDPSession(page);
  const origin = new URL(page.url()).origin;
  const registrationId = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((r) => !r.isDeleted && r.scopeURL === `${origin}/`);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId: await registrationId, data: JSON.stringify(payload) });
  await cdp.detach();
}

const shownNotifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, icon: n.icon, badge: n.badge, data: n.data }));
  });

test("the manifest makes Cutroom installable: name, icons of the stated sizes, maskable ones, shortcuts", async ({ page, request }) => {
  await page.goto("/login");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBeTruthy();
  const response = await request.get(href!);
  expect(response.ok()).toBe(true);
  expect(response.headers()["content-type"]).toMatch(/application\/manifest\+json|application\/json/);
  const manifest = await response.json();
  expect(manifest).toMatchObject({ id: "/", name: "Cutroom", short_name: "Cutroom", display: "standalone", start_url: "/", scope: "/" });
  expect(manifest.description).toBeTruthy();
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);

  const icons: { src: string; sizes: string; type: string; purpose?: string }[] = manifest.icons;
  for (const icon of icons) {
    const file = await request.get(icon.src);
    expect(file.ok(), icon.src).toBe(true);
    expect(file.headers()["content-type"]).toBe(icon.type);
    expect(pngSize(await file.body()), icon.src).toBe(icon.sizes);
  }
  const sizes = (purpose: string) => icons.filter((i) => (i.purpose ?? "any").split(" ").includes(purpose)).map((i) => i.sizes);
  expect(sizes("any")).toEqual(expect.arrayContaining(["192x192", "512x512"]));
  expect(sizes("maskable")).toEqual(expect.arrayContaining(["192x192", "512x512"]));

  const shortcuts: { name: string; url: string; icons: { src: string; sizes: string }[] }[] = manifest.shortcuts;
  expect(shortcuts.map((s) => s.url).sort()).toEqual(["/library", "/open"]);
  for (const shortcut of shortcuts) {
    expect(shortcut.name).toBeTruthy();
    for (const icon of shortcut.icons) expect(pngSize(await (await request.get(icon.src)).body())).toBe(icon.sizes);
  }
});

test("“install app” appears in the account menu when the browser offers installing, and runs its prompt", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await expect(accountMenu(page)).toBeVisible();
  const installItem = page.getByRole("menuitem", { name: "Install app" });

  // The browser's install offer, as Chromium sends it once the app is installable.
  await page.evaluate(() => {
    const offer = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: async () => void ((window as unknown as { prompted: number }).prompted = 1),
      userChoice: Promise.resolve({ outcome: "accepted", platform: "web" }),
    });
    window.dispatchEvent(offer);
  });
  await accountMenu(page).click();
  await installItem.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: number }).prompted)).toBe(1);
  // A prompt can be used once: the entry goes.
  await accountMenu(page).click();
  await expect(page.getByRole("menuitem").first()).toBeVisible();
  await expect(installItem).toHaveCount(0);
});

test("the app starts offline from the precache, deep links included", async ({ page, context, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await expect(accountMenu(page)).toBeVisible();
  await page.goto("/open");
  await serviceWorkerInControl(page);

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(accountMenu(page)).toBeVisible();
    // A deep link the server never saw in this session: the service worker answers with the shell.
    await page.goto("/projects/1/storyboard");
    await expect(accountMenu(page)).toBeVisible();
    await page.goto("/library");
    await expect(accountMenu(page)).toBeVisible();
    await expect(page.getByRole("main")).toBeVisible();
    // The API is never answered with the shell.
    const api = await page.evaluate(() => fetch("/api/v1/config").then((r) => r.headers.get("content-type"), () => "offline"));
    expect(api).toBe("offline");
  } finally {
    await context.setOffline(false);
  }
});

test("a push shows a notification, refreshes the project at once, and its click brings back the editor tab", async ({ page, context, request, baseURL }) => {
  test.setTimeout(300_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Talk before the push");

  // The app polls every 60 s: with the page's clock stopped, only the push can bring the change.
  await page.clock.install();
  await signIn(page, email);
  await expect(accountMenu(page)).toBeVisible();
  // The editor tab loads at the share view and moves to the storyboard inside the app, as people
  // move: the service worker still knows the tab by the address it loaded.
  await page.goto(`/projects/${projectId}/share`);
  await expect(page.getByRole("heading", { name: "Talk before the push" })).toBeVisible();
  await serviceWorkerInControl(page);
  await page.getByRole("tab", { name: "Storyboard" }).click();
  await expect(page).toHaveURL(`${baseURL}/projects/${projectId}/storyboard`);
  await context.grantPermissions(["notifications"]);

  await test.step("a push refreshes the project now, not at the next poll", async () => {
    const renamed = await request.fetch(`/api/v1/projects/${projectId}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}` },
      data: { name: "Talk after the push" },
    });
    expect(renamed.ok()).toBe(true);
    await deliverPush(context, page, {
      title: "Your preview is ready",
      body: "Talk after the push can be edited now",
      url: `/projects/${projectId}/storyboard`,
      projectId,
      kind: "preview_ready",
      tag: `project-${projectId}`,
    });
    await expect(page.getByRole("heading", { name: "Talk after the push" })).toBeVisible();
  });

  await test.step("the service worker showed it, with icon, badge, tag and where a click leads", async () => {
    await expect.poll(() => shownNotifications(page)).toHaveLength(1);
    const [shown] = await shownNotifications(page);
    expect(shown).toMatchObject({
      title: "Your preview is ready",
      body: "Talk after the push can be edited now",
      tag: `project-${projectId}`,
      icon: `${baseURL}/icons/icon-192.png`,
      badge: `${baseURL}/icons/badge-96.png`,
      data: { url: `${baseURL}/projects/${projectId}/storyboard`, projectId, kind: "preview_ready" },
    });
  });

  await test.step("the render is ready: its click uses the editor tab, not the other one, and moves it to the share view", async () => {
    const other = await context.newPage();
    await other.goto("/open");
    await expect(accountMenu(other)).toBeVisible();
    await deliverPush(context, page, {
      title: "Your video is ready",
      body: "Talk after the push has been rendered",
      url: `/projects/${projectId}/share`,
      projectId,
      kind: "render_ready",
      tag: `project-${projectId}`,
    });
    // The same tag: the newer notification replaced the older one.
    await expect.poll(async () => (await shownNotifications(page)).map((n) => n.title)).toEqual(["Your video is ready"]);

    // Headless Chromium cannot click an OS notification: the service worker's own click handler
    // runs on the notification it showed.
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
    const outcome = await worker.evaluate(async (tag) => {
      const scope = self as unknown as ServiceWorkerGlobalScope & { cutroomPush: { openNotification(n: Notification): Promise<unknown> } };
      const [notification] = await scope.registration.getNotifications({ tag });
      return scope.cutroomPush.openNotification(notification!);
    }, `project-${projectId}`);
    expect(outcome).toEqual({ action: "navigated", url: `${baseURL}/projects/${projectId}/share` });

    await expect(page).toHaveURL(`${baseURL}/projects/${projectId}/share`);
    await expect(page.getByRole("heading", { name: "Talk after the push" })).toBeVisible();
    await expect(other).toHaveURL(`${baseURL}/open`);
    expect(context.pages()).toHaveLength(2);
    // The click closed it.
    await expect.poll(() => shownNotifications(page)).toHaveLength(0);
  });
});

test("a new version offers “reload to update”; reloading puts it in charge", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await expect(accountMenu(page)).toBeVisible();
  await serviceWorkerInControl(page);
  const firstWorker = await page.evaluate(async () => (await navigator.serviceWorker.ready).active!.scriptURL);

  // A deploy: the served service worker changes by one byte (and the build writes its compressed copies anew).
  const file = path.resolve(process.env.STATIC_DIR ?? "dist", "service-worker.js");
  const copies = [`${file}.br`, `${file}.gz`].filter((f) => fs.existsSync(f));
  const original = fs.readFileSync(file);
  const originalCopies = copies.map((f) => fs.readFileSync(f));
  try {
    const next = Buffer.concat([original, Buffer.from("\n// the next version\n")]);
    fs.writeFileSync(file, next);
    for (const copy of copies) fs.writeFileSync(copy, copy.endsWith(".br") ? zlib.brotliCompressSync(next) : zlib.gzipSync(next));
    await page.evaluate(() => ((window as unknown as { beforeUpdate: boolean }).beforeUpdate = true));
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
    const toast = page.getByRole("alertdialog", { name: "A new version of Cutroom is ready" });
    await expect(toast).toBeVisible({ timeout: 20_000 });
    // The open tab keeps working with the version it started with until the person chooses.
    expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting)).toBe(true);
    await Promise.all([page.waitForEvent("load"), toast.getByRole("button", { name: "Reload to update" }).click()]);
    // A page mid-reload has no context to evaluate in yet: that counts as "not reloaded yet".
    await expect.poll(() => page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate ?? false).catch(() => true)).toBe(false);
    await expect(accountMenu(page)).toBeVisible();
    const after = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { waiting: !!registration?.waiting, controller: navigator.serviceWorker.controller?.scriptURL };
    });
    expect(after).toEqual({ waiting: false, controller: firstWorker });
  } finally {
    fs.writeFileSync(file, original);
    copies.forEach((copy, i) => fs.writeFileSync(copy, originalCopies[i]!));
  }
});
