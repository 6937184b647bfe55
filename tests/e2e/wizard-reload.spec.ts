import path from "node:path";
import { expect, test } from "@playwright/test";
import { createUser, readStore, signIn } from "./helpers";

// Issue 18: the wizard's step 2 survives a reload, and is forgotten once the wizard is cancelled.
test("the wizard's settings survive a reload until the wizard is cancelled", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.getByRole("banner").getByRole("link", { name: "New project" }).click();
  await page.locator('input[type="file"]').setInputFiles(path.resolve("tests/fixtures/talk.mp4"));
  await page.getByRole("button", { name: "Upload 1 file" }).click();
  await expect(page).toHaveURL(/\/new\?step=2$/);
  await page.getByLabel("Project name").fill("Kept across reloads");
  await page.getByText("Video plus music", { exact: true }).click();
  await expect.poll(async () => (await readStore(page, "cutroom", "meta")).find((r) => r.key === "wizard")?.value.settings.name).toBe("Kept across reloads");

  await page.reload();
  await expect(page).toHaveURL(/\/new\?step=2$/);
  await expect(page.getByLabel("Project name")).toHaveValue("Kept across reloads");
  await expect(page.getByRole("radio", { name: /^Video plus music/ })).toBeChecked();
  await expect(page.getByRole("switch", { name: "Automatic music" })).toBeChecked();

  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel project" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(async () => (await readStore(page, "cutroom", "meta")).some((r) => r.key === "wizard")).toBe(false);
  await page.goto("/new?step=2");
  await expect(page.getByRole("heading", { name: "Upload your files" })).toBeVisible();
});

test("toasts on the wizard stay clear of the upload button", async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const { email } = await createUser(request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/new");
  await page.locator('input[type="file"]').setInputFiles([path.resolve("tests/fixtures/still.png"), path.resolve("tests/fixtures/talk.mp4")]);
  const upload = page.getByRole("button", { name: "Upload 2 files" });
  await upload.scrollIntoViewIfNeeded();
  // A toast's box as the app's toast region lays it out (the region only exists while a toast shows).
  const toastBox = await page.evaluate(() => {
    const region = document.createElement("div");
    region.className = "toast-region";
    const item = document.createElement("div");
    item.className = "toast toast-warning";
    item.style.height = "90px";
    region.append(item);
    document.body.append(region);
    const r = item.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  const button = (await upload.boundingBox())!;
  const overlaps = toastBox.x < button.x + button.width && button.x < toastBox.x + toastBox.width && toastBox.y < button.y + button.height && button.y < toastBox.y + toastBox.height;
  expect(overlaps).toBe(false);
});
