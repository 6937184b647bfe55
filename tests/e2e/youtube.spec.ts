import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR, E2E_YOUTUBE_PORT } from "../../playwright.config";
import { startFakeYoutube, type FakeYoutube } from "../integration/youtube-server";
import { apiToken, createUser, processedProject, signIn, translation, userApi } from "./helpers";

// Issue 13, video-site export, as a Portuguese-speaking user: connect YouTube in the consent window, publish the
// finished video, see YouTube's quota refusal in Portuguese, disconnect. Google is played by a local server that
// speaks its OAuth and resumable-upload protocols, on the port playwright.config.ts points the server at.
let fake: FakeYoutube;
test.beforeAll(async () => {
  fake = await startFakeYoutube({ clientId: "cutroom-e2e.apps.googleusercontent.com", clientSecret: "e2e-client-secret" }, E2E_YOUTUBE_PORT);
});
test.afterAll(async () => fake?.close());

const pt = (english: string) => translation("pt-BR", english);

test("a creator connects YouTube, publishes the finished video, reads a quota refusal in their language and disconnects", async ({ page, request, baseURL }) => {
  test.setTimeout(360_000);
  const { email } = await createUser(request, { locale: "pt-BR" });
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const id = await processedProject(api, baseURL!, token, "Entrevista");
  await api.post(`/projects/${id}/render`, { final: 1, tier: 1 });
  await expect.poll(async () => (await api.get(`/projects/${id}`)).status, { timeout: 150_000, intervals: [1_000] }).toBe("Render Ready");

  await signIn(page, email);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await page.goto(`/projects/${id}/share`);
  const section = page.getByRole("region", { name: pt("Publish on YouTube") });
  await expect(section).toBeVisible({ timeout: 20_000 });

  // Connect: the consent page opens in a new window, which lands on a page saying it can be closed (the app's
  // cross-origin isolation keeps it from closing a window that went through Google's origin).
  const popupOpened = page.waitForEvent("popup");
  await section.getByRole("button", { name: pt("Connect YouTube") }).click();
  const popup = await popupOpened;
  await expect(popup.getByRole("heading", { name: /Cutroom wants to access your Google Account/ })).toBeVisible();
  const callback = popup.waitForResponse((r) => r.url().includes("/api/v1/user/youtube/callback"));
  await popup.getByRole("link", { name: "Allow" }).click();
  const landed = await callback;
  expect(landed.status()).toBe(200);
  expect(await landed.text()).toContain(pt("youtube.callback.connected"));
  await expect(popup.getByRole("heading", { name: pt("youtube.callback.connected") })).toBeVisible();
  await popup.close();
  await expect(section.getByText(pt("Connected to YouTube as {0}").replace("{0}", "Rui's channel"))).toBeVisible();

  // Everything is required: an empty title is refused in place.
  await section.getByRole("textbox", { name: pt("Title") }).fill("");
  await section.getByRole("button", { name: pt("Export to YouTube") }).click();
  await expect(section.getByText(pt("This field is required")).first()).toBeVisible();

  await section.getByRole("textbox", { name: pt("Title") }).fill("Entrevista com a Ana");
  await section.getByRole("textbox", { name: pt("Description") }).fill("Gravada em Lisboa.");
  await section.getByRole("button", { name: new RegExp(pt("Privacy")) }).click();
  await page.getByRole("option", { name: pt("Unlisted (anyone with the link)") }).click();
  // A slow uplink: the upload takes a few seconds, so the app shows it under way.
  fake.slowUploads(2_000);
  await section.getByRole("button", { name: pt("Export to YouTube") }).click();
  await expect(section.getByRole("status").filter({ hasText: pt("Uploading to YouTube… This can take a while; you can leave this page.") })).toBeVisible();

  // Re-read every 30 s while exporting (SPEC §9): then the link and "export again".
  const watch = section.getByRole("link", { name: pt("Watch on YouTube") });
  await expect(watch).toBeVisible({ timeout: 45_000 });
  const videoId = new URL((await watch.getAttribute("href"))!).searchParams.get("v")!;
  const video = fake.videos.get(videoId)!;
  expect(video.snippet).toEqual({ title: "Entrevista com a Ana", description: "Gravada em Lisboa." });
  expect(video.status.privacyStatus).toBe("unlisted");
  const me = await api.get("/user");
  const folder = path.join(E2E_DATA_DIR, "store", "projects", String(me.id), String(id));
  const render = fs.readdirSync(folder).find((f) => /^export-\d+\.mp4$/.test(f))!;
  expect(video.bytes.equals(fs.readFileSync(path.join(folder, render)))).toBe(true);

  // Export again, and YouTube's daily quota is spent: the reason shows in Portuguese.
  fake.failNextUpload("quotaExceeded");
  await section.getByRole("button", { name: pt("Export to YouTube again") }).click();
  await expect(section.getByRole("alert")).toContainText(pt("YouTube's daily upload limit has been reached. Try again tomorrow."), { timeout: 45_000 });

  // Usable from 360 px wide: nothing in the section sticks out.
  await page.setViewportSize({ width: 360, height: 780 });
  await expect(section.getByRole("button", { name: pt("Export to YouTube again") })).toBeVisible();
  const sticksOut = await section.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return el.scrollWidth > el.clientWidth || box.width > 360 || [...el.querySelectorAll("*")].some((child) => child.getBoundingClientRect().right > box.right + 1);
  });
  expect(sticksOut).toBe(false);
  await section.screenshot({ path: test.info().outputPath("youtube-360.png") });

  // Disconnect: revoked at Google, and the section offers to connect again.
  await section.getByRole("button", { name: pt("Disconnect YouTube") }).click();
  await expect(section.getByRole("button", { name: pt("Connect YouTube") })).toBeVisible();
  expect(fake.liveRefreshTokens()).toEqual([]);
  expect(fake.log.revoked).toContain("refresh_token");
});
