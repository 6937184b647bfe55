import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

/** Issue 14, the Translate page as a user goes through it: the talk's lines, a correction, Spanish, an edit that stays, the VTT. */

/** Downloads need a paid plan; billing does not sell plans yet, so the spec sets it in the server's database. */
function setPlan(email: string, plan: string) {
  const db = new Database(path.join(E2E_DATA_DIR, "cutroom.sqlite"));
  try {
    db.prepare("UPDATE users SET plan_id = ? WHERE email = ?").run(plan, email);
  } finally {
    db.close();
  }
}

const CORRECTED = "Welcome to our little talk";
const SPANISH_EDIT = "Hola a todos, bienvenidos";
const OFFLINE_EDIT = "Escrito sin conexión";

test("a talk's lines are corrected on a card, translated into Spanish, edited there, kept after a reload and downloaded as WebVTT", async ({ page, request, baseURL }) => {
  test.setTimeout(300_000);
  const { email } = await createUser(request);
  setPlan(email, "starter_month");
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const id = await processedProject(api, baseURL!, token, "Talk to translate");
  const spoken = (await api.scenes(id)).find((s) => s.visibility === 1 && s.text.length > 0);
  expect(spoken, "the English talk has caption lines").toBeTruthy();

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`/projects/${id}/storyboard`);

  // The scene cards show the recognised lines; the first spoken scene's first line is corrected on its card.
  await expect(page.locator(".scene-text").filter({ hasNotText: "No text" }).first()).toBeVisible();
  await page.getByRole("button", { name: `Edit text of scene ${spoken.order}`, exact: true }).click();
  const form = page.getByRole("form", { name: `Text lines of scene ${spoken.order}`, exact: true });
  await form.getByRole("textbox", { name: "Line 1", exact: true }).fill(CORRECTED);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText(CORRECTED)).toBeVisible();

  // The Translate tab: the original lines first, with the correction.
  await page.getByRole("tab", { name: "Translate" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/translate$`));
  const english = page.getByRole("group", { name: /^English \(US\)/ });
  await expect(english.getByRole("textbox", { name: /^Line 1 / })).toHaveValue(CORRECTED);

  // Add Spanish: unavailable languages are listed but cannot be picked.
  await page.getByRole("button", { name: /Add a language/ }).click();
  await expect(page.getByRole("option", { name: /^Japanese/ })).toHaveAttribute("aria-disabled", "true");
  await page.getByRole("option", { name: /^Spanish/ }).click();
  await page.getByRole("button", { name: "Translate", exact: true }).click();
  // The new language opens at once and the page says how long a translation takes; then it is ready.
  const spanishTrigger = page.getByRole("button", { name: /^Spanish/ });
  await expect(spanishTrigger).toHaveAttribute("aria-expanded", "true");
  const spanish = page.getByRole("group", { name: /^Spanish/ });
  await expect(page.getByText("Translation into Spanish started")).toBeVisible();
  await expect(page.getByText("Translation takes 1 to 15 minutes.", { exact: true })).toBeVisible();
  await expect(spanishTrigger).toContainText("Ready", { timeout: 90_000 });

  // The Spanish lines, in Spanish; one is edited (Enter saves).
  const first = spanish.getByRole("textbox", { name: /^Line 1 / });
  await expect(first).not.toHaveValue(CORRECTED);
  await expect(first).not.toHaveValue("");
  await first.fill(SPANISH_EDIT);
  await expect(first).toHaveAccessibleDescription(`${SPANISH_EDIT.length}/35 characters`);
  await first.press("Enter");
  await expect(first).toHaveAccessibleDescription(`${SPANISH_EDIT.length}/35 characters · Saved`);

  // A line over 35 characters is refused and not saved.
  const second = spanish.getByRole("textbox", { name: /^Line 2 / });
  const before = await second.inputValue();
  await second.fill("x".repeat(36));
  await expect(second).toHaveAttribute("aria-invalid", "true");
  await expect(spanish.getByText("A text line has at most 35 characters.")).toBeVisible();
  await second.press("Escape");
  await expect(second).toHaveValue(before);

  // Offline, an edit is kept on this device and sent once the connection is back.
  await page.context().setOffline(true);
  const third = spanish.getByRole("textbox", { name: /^Line 3 / });
  await third.fill(OFFLINE_EDIT);
  await third.press("Enter");
  await expect(third).toHaveAccessibleDescription(`${OFFLINE_EDIT.length}/35 characters · Saved on this device`);
  await expect(page.getByRole("status").filter({ hasText: "1 edit waiting" })).toBeVisible();
  await page.context().setOffline(false);
  await expect(page.getByRole("status").filter({ hasText: "edit waiting" })).toHaveCount(0, { timeout: 30_000 });

  // After a reload both edits are still there (they reached the server).
  await page.reload();
  await page.getByRole("button", { name: /^Spanish/ }).click();
  const reloaded = page.getByRole("group", { name: /^Spanish/ });
  await expect(reloaded.getByRole("textbox", { name: /^Line 1 / })).toHaveValue(SPANISH_EDIT);
  await expect(reloaded.getByRole("textbox", { name: /^Line 3 / })).toHaveValue(OFFLINE_EDIT);

  // The Spanish WebVTT has the edited line.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("group", { name: /^Spanish/ }).getByRole("button", { name: "Download VTT" }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.vtt$/);
  expect(download.url()).not.toContain(token);
  const vtt = fs.readFileSync(await download.path(), "utf8");
  expect(vtt).toMatch(/^WEBVTT\n/);
  expect(vtt).toContain(SPANISH_EDIT);
  expect(vtt).toContain(OFFLINE_EDIT);
  expect(vtt).not.toContain(CORRECTED);
});
