import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

/** Plans are sold by billing, which does not exist yet: the spec sets the user's plan in the server's database. */
function setPlan(email: string, plan: string) {
  const db = new Database(path.join(E2E_DATA_DIR, "cutroom.sqlite"));
  try {
    db.prepare("UPDATE users SET plan_id = ? WHERE email = ?").run(plan, email);
  } finally {
    db.close();
  }
}

test("a paid user downloads the finished video by a plain link; on the free plan the upgrade modal shows instead", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  setPlan(email, "starter_month");
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const id = await processedProject(api, baseURL!, token, "Talk: final/cut");
  await api.post(`/projects/${id}/render`, { final: 1, tier: 1 });
  await expect.poll(async () => (await api.get(`/projects/${id}`)).status, { timeout: 150_000, intervals: [1_000] }).toBe("Render Ready");

  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await page.goto(`/projects/${id}/download`);
  const button = page.getByRole("button", { name: "Download video" });
  await expect(button).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  expect(download.suggestedFilename()).toBe("Talk_ final_cut.mp4");
  const saved = await download.path();
  expect(fs.statSync(saved).size).toBeGreaterThan(10_000);
  expect(fs.readFileSync(saved).subarray(4, 8).toString("latin1")).toBe("ftyp");
  // The link the browser followed is signed, short-lived and carries no api token.
  expect(download.url()).toMatch(/\/api\/v1\/files\/projects\/.+\?expires=\d+&download=.+&signature=/);
  expect(download.url()).not.toContain(token);

  // SPEC §7 direct links on the web host: a plain browser link to /projects/{id}/downloadrender downloads too.
  const [direct] = await Promise.all([page.waitForEvent("download"), page.goto(`/projects/${id}/downloadrender`)]);
  expect(direct.suggestedFilename()).toBe("Talk_ final_cut.mp4");
  await expect(page.getByText("Your download has started.")).toBeVisible();
  // SPEC §7 subtitles (issue 14): the talk's recognised lines download as WebVTT by a plain link too.
  const [subtitles] = await Promise.all([page.waitForEvent("download"), page.goto(`/projects/${id}/subtitles`)]);
  expect(subtitles.suggestedFilename()).toBe("Talk_ final_cut.vtt");
  expect(fs.readFileSync(await subtitles.path(), "utf8")).toMatch(/^WEBVTT\n\n[\s\S]*-->/);
  // …and from the finished view's button beside "Download video".
  await page.goto(`/projects/${id}/download`);
  const [fromButton] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download subtitles" }).click()]);
  expect(fromButton.suggestedFilename()).toBe("Talk_ final_cut.vtt");
  // Another user's (or an unknown) project: not found, nothing downloaded.
  await page.goto(`/projects/${id + 1000}/downloadrender`);
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to projects" })).toBeVisible();

  // The same user on the free plan: the upgrade modal with the plans link, and no download.
  setPlan(email, "free");
  await page.goto(`/projects/${id}/download`);
  let downloads = 0;
  page.on("download", () => void (downloads += 1));
  await page.getByRole("button", { name: "Download video" }).click();
  const dialog = page.getByRole("dialog", { name: "Downloading needs a paid plan" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("link", { name: "See plans" })).toHaveAttribute("href", /.+/);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  // The direct link explains the same instead of downloading.
  await page.goto(`/projects/${id}/downloadrender`);
  await expect(page.getByText("On the free plan you can watch the finished video here but not download it.")).toBeVisible();
  await expect(page.getByRole("link", { name: "See plans" })).toBeVisible();
  expect(downloads).toBe(0);
});
