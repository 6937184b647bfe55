import { expect, test } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

// Issue 13 sharing (SPEC §6): the owner makes an unlisted share page, a signed-out visitor watches it, and after the
// owner revokes the link the visitor sees that the video is not available.
test("an unlisted share page plays for a signed-out visitor until the owner revokes the link", async ({ page, browser, request, baseURL, context }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const id = await processedProject(api, baseURL!, token, "Weekly talk");
  await api.post(`/projects/${id}/render`, { final: 1, tier: 1, name: "Our weekly talk", description: "Notes from the team." });
  await expect.poll(async () => (await api.get(`/projects/${id}`)).status, { timeout: 150_000, intervals: [1_000] }).toBe("Render Ready");

  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  // The preview's Share opens the Preview & Export tab (SPEC §2), as does the project list's "Export / share".
  await page.goto(`/projects/${id}/preview`);
  await page.getByRole("button", { name: "Share" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/share$`));
  await expect(page.getByRole("region", { name: "Share page" })).toBeVisible();
  await page.goto("/open");
  await page.getByRole("link", { name: "Export or share Weekly talk" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/share$`));

  const panel = page.getByRole("region", { name: "Share page" });
  await expect(panel.getByRole("radio", { name: /^Private/ })).toBeChecked();
  await panel.getByText("Unlisted", { exact: true }).click();
  await expect(panel.getByRole("radio", { name: /^Unlisted/ })).toBeChecked();
  const linkField = panel.getByRole("textbox", { name: "Link to the share page" });
  await expect(linkField).toHaveValue(new RegExp(`/watch/[A-Za-z0-9_-]{43}$`));
  const link = await linkField.inputValue();
  await panel.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText("Link copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  expect(link).not.toContain(token);

  // A visitor who has never signed in opens the link in their own browser.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole("heading", { name: "Our weekly talk" })).toBeVisible();
  await expect(visitor.getByText("Notes from the team.")).toBeVisible();
  await expect(visitor.getByText("Weekly talk", { exact: true })).toHaveCount(0);
  const video = visitor.locator("video");
  await expect(video).toHaveAttribute("src", /\/api\/v1\/share\/.+\/video\?expires=\d+&signature=/);
  // It plays: muted (autoplay rules), the media element gets data and its time moves on.
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(0);
  expect(await video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
  expect(await video.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();

  // The owner revokes the link: the visitor's reload says the video is not available.
  await panel.getByRole("button", { name: "Revoke link" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Revoke the link?" });
  await confirm.getByRole("button", { name: "Revoke link" }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.getByRole("radio", { name: /^Private/ })).toBeChecked();
  await expect(panel.getByRole("textbox", { name: "Link to the share page" })).toHaveCount(0);
  await visitor.reload();
  await expect(visitor.getByRole("heading", { name: "This video is not available" })).toBeVisible();
  await expect(visitor.locator("video")).toHaveCount(0);
  await visitorContext.close();
});
