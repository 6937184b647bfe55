import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { POLL_MS } from "../../src/lib/constants";
import { createUser, signIn } from "./helpers";

const TALK = path.resolve("tests/fixtures/talk.mp4");

async function openWizard(page: Page) {
  await page.getByRole("banner").getByRole("link", { name: "New project" }).click();
  await expect(page).toHaveURL(/\/new$/);
  await expect(page.getByRole("heading", { name: "Upload your files" })).toBeVisible();
}

/** Chooses the spoken language of one file of the upload list. */
async function chooseFileLanguage(page: Page, fileName: string, language: string) {
  await page.getByRole("listitem", { name: fileName }).getByRole("button", { name: /Spoken language/ }).click();
  await page.getByRole("option", { name: language }).click();
}

test("a creator uploads a talk, configures it, watches it being made and plays the preview", async ({ page, request }) => {
  test.setTimeout(240_000);
  // The app polls every 60 s; the test moves the page's clock on instead of waiting.
  await page.clock.install();
  const { email } = await createUser(request);
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "New project" }).click();
  await expect(page).toHaveURL(/\/new$/);

  // Step 1: nothing to upload yet.
  await expect(page.getByRole("button", { name: "Upload", exact: true })).toBeDisabled();
  await expect(page.getByText("Per file")).toBeVisible();
  await page.locator('input[type="file"]').setInputFiles(TALK);
  const row = page.getByRole("listitem", { name: "talk.mp4" });
  await expect(row).toBeVisible();
  await expect(row.getByText(/0\.2 MB · 00:\d\d/)).toBeVisible();

  // Every video and audio has a spoken language: it starts as the interface's (issue 18).
  await expect(row.getByRole("button", { name: /Spoken language/ })).toContainText("English (US)");
  await chooseFileLanguage(page, "talk.mp4", "English (US)");
  await page.getByRole("button", { name: "Upload 1 file" }).click();

  // Step 2, while the file uploads.
  await expect(page).toHaveURL(/\/new\?step=2$/);
  await expect(page.getByRole("heading", { name: "Configure your project" })).toBeVisible();
  await expect(page.getByLabel("Project name")).toHaveValue("talk");
  await expect(page.getByRole("button", { name: /Spoken language/ })).toContainText("English (US)");
  // The style starts on Video (issue 18); "Video plus music" switches the music on.
  await expect(page.getByRole("radio", { name: /^Video Your footage/ })).toBeChecked();
  await page.getByLabel("Project name").fill("");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByText("This field is required")).toBeVisible(); // the name
  await page.getByLabel("Project name").fill("My first talk");
  await page.getByText("Video plus music", { exact: true }).click();
  await expect(page.getByRole("switch", { name: "Automatic music" })).toBeChecked();
  // No file is marked intro or outro: their music would change nothing, so it is not offered (issue 17 audit).
  await expect(page.getByRole("switch", { name: "Music in the intro" })).toHaveCount(0);
  await page.getByRole("button", { name: "Create project" }).click();

  // Created (at once, or as soon as the upload finishes): the preview shows the progress.
  await expect(page).toHaveURL(/\/projects\/\d+\/preview$/, { timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "My first talk" })).toBeVisible();
  const ready = page.getByRole("heading", { name: "What Cutroom did" });
  if (!(await ready.isVisible())) await expect(page.getByRole("progressbar", { name: "Progress" })).toBeVisible();
  await expect
    .poll(
      async () => {
        await page.clock.fastForward(POLL_MS);
        return ready.isVisible();
      },
      { timeout: 150_000, intervals: [3_000] },
    )
    .toBe(true);

  // The ready view: highlights, share, remove watermark, and a player that plays.
  await expect(page.getByText("Silence removed")).toBeVisible();
  await expect(page.getByText("Jump cuts created")).toBeVisible();
  await expect(page.getByText("Subtitle lines", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Share" })).toBeVisible();
  // Issue 16: a free user removes the watermark from this video for a one-time fee, or picks a plan.
  await expect(page.getByRole("button", { name: /^Remove watermark for this video \(one-time US\$ \d+\.\d\d\)$/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "or see the plans" })).toHaveAttribute("href", "/account#plans");
  const video = page.locator('video[slot="media"]');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  await page.getByRole("region", { name: "Preview of My first talk" }).getByRole("button", { name: /^play$/i }).click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.2);

  // Home shows it as the latest project.
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Your latest project" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "My first talk" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open My first talk" })).toHaveAttribute("href", /\/projects\/\d+\/preview$/);
  // Opening it counts as SPEC §7's "Project Opened", sent to this app's own API (issue 17).
  const opened = page.waitForRequest((r) => r.url().endsWith("/api/v1/analytics/events") && r.postDataJSON()?.name === "Project Opened");
  await page.getByRole("link", { name: "Open My first talk" }).click();
  await expect(page).toHaveURL(/\/projects\/\d+\/preview$/);
  expect((await opened).postDataJSON()).toMatchObject({ name: "Project Opened", path: "/" });

  // The project list: a ready card; deleting asks first and says it cannot be undone.
  await page.goto("/open");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "My first talk" }) });
  await expect(card.getByText("Preview ready")).toBeVisible();
  await card.getByRole("button", { name: "Delete My first talk" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByText("This cannot be undone.")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await card.getByRole("button", { name: "Delete My first talk" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete project" }).click();
  await expect(card.getByText("This project was deleted.").or(page.getByText("No projects"))).toBeVisible();
});

test("an upload can be cancelled before it reaches 100 %", async ({ page, context, request }) => {
  const { email } = await createUser(request);
  // Hold the file's bytes back so the upload stays in flight.
  await context.route(/\/api\/v1\/uploads/, async (route) => {
    if (route.request().method() === "PATCH") await new Promise((resolve) => setTimeout(resolve, 5_000));
    await route.continue().catch(() => undefined);
  });
  await signIn(page, email);
  await openWizard(page);
  await page.locator('input[type="file"]').setInputFiles(TALK);
  await chooseFileLanguage(page, "talk.mp4", "No speech");
  await page.getByRole("button", { name: "Upload 1 file" }).click();
  await expect(page).toHaveURL(/step=2/);

  const row = page.getByRole("complementary", { name: "Files" }).getByRole("listitem", { name: "talk.mp4" });
  await expect(row.getByRole("progressbar")).toBeVisible();
  await row.getByRole("button", { name: "Cancel upload of talk.mp4" }).click();
  await expect(row.getByText("Canceled")).toBeVisible();
  await expect(row.getByRole("button", { name: /Cancel upload/ })).toBeHidden();
});

test("a file with a name already in the list is refused as a double file", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await openWizard(page);
  const input = page.locator('input[type="file"]');
  await input.setInputFiles(TALK);
  await expect(page.getByRole("listitem", { name: "talk.mp4" })).toBeVisible();
  await input.setInputFiles(TALK);
  await expect(page.getByText("Double file")).toBeVisible();
  await expect(page.getByRole("listitem", { name: "talk.mp4" })).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Upload 1 file" })).toBeEnabled();
});

test("a file that is not a video, audio or image gets the unsupported-format warning", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await openWizard(page);
  await page.locator('input[type="file"]').setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(page.getByText("Unsupported format")).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload", exact: true })).toBeDisabled();
});

test("leaving the wizard with files asks first; leaving drops the files", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await openWizard(page);
  await page.locator('input[type="file"]').setInputFiles(path.resolve("tests/fixtures/still.png"));
  await expect(page.getByRole("listitem", { name: "still.png" })).toBeVisible();

  await page.getByRole("banner").getByRole("link", { name: "Projects" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Leave this project?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay" }).click();
  await expect(page).toHaveURL(/\/new$/);
  await expect(page.getByRole("listitem", { name: "still.png" })).toBeVisible();

  await page.getByRole("banner").getByRole("link", { name: "Projects" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Leave" }).click();
  await expect(page).toHaveURL(/\/open$/);
  await expect(page.getByText("No projects")).toBeVisible();
  await openWizard(page);
  await expect(page.getByRole("listitem", { name: "still.png" })).toHaveCount(0);
});

test("the project list shows the storage meter and an empty state", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await page.goto("/open");
  await expect(page.getByRole("meter", { name: "Storage" })).toBeVisible();
  await expect(page.getByText("No projects")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
  await page.getByRole("main").getByRole("link", { name: "New project" }).click();
  await expect(page).toHaveURL(/\/new$/);
});
