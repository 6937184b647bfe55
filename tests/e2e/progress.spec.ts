import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { tusUpload } from "../integration/tus";
import { apiToken, createUser, readStore, signIn, userApi } from "./helpers";

/** SPEC §9: the screens poll every 60 s; live progress must come much sooner than that. */
const POLL_MS = 60_000;

/** A one-minute clip made here, so the export takes long enough to watch its progress move. */
function longClip(): string {
  const file = path.resolve(E2E_DATA_DIR, "..", "e2e-progress-clip.mp4");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    execFileSync("ffmpeg", [
      "-nostdin", "-loglevel", "error", "-y",
      "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=60",
      "-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=60",
      "-c:v", "libx264", "-preset", "ultrafast", "-g", "60", "-c:a", "aac", "-shortest", file,
    ]);
  }
  return file;
}

test("an export shows its progress live, keeps the storyboard readable and read-only, and updates What Cutroom did", async ({ page, request, baseURL }) => {
  test.setTimeout(360_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const uploaded = await tusUpload(baseURL!, token, longClip(), { name: "Long take.mp4" });
  const media = (await api.post("/library", { media_file: uploaded.id, name: "Long take.mp4", locale: null, has_speech: 0 })).media_file;
  const project = await api.post("/createproject", { name: "Long take", locale: "en-US", style: "video", media: [media.id] });
  const id = project.id as number;
  await expect.poll(async () => (await api.get(`/projects/${id}`)).status, { timeout: 200_000, intervals: [1_000] }).toBe("Preview Ready");
  // An edit made elsewhere: the one scene split in two, the first part trimmed (one jump cut, 5 s left out).
  const [scene] = await api.scenes(id);
  const parts = (await api.post(`/scenes/${scene.id}/splitbyposition/20`)).scenes as { id: number; trim_start: number; trim_end: number }[];
  const first = parts.sort((a, b) => a.trim_start - b.trim_start)[0]!;
  const trim = await request.put(`/api/v1/scenes/${first.id}/trim`, { headers: { authorization: `Bearer ${token}` }, data: { trim_start: first.trim_start, trim_end: first.trim_end - 5 } });
  expect(trim.ok()).toBe(true);

  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await page.goto(`/projects/${id}/share`);
  const jumpCuts = page.locator(".highlight-numbers div").filter({ hasText: "Jump cuts created" }).locator("dd");
  await expect(jumpCuts).toHaveText("0");

  await page.getByRole("button", { name: "Export", exact: true }).click();
  const started = Date.now();
  // No reload and no clock games: the page follows the render through the worker's event stream.
  await expect(page.getByRole("heading", { name: "Rendering your export" })).toBeVisible({ timeout: 30_000 });
  const bar = page.getByRole("progressbar", { name: "Progress" });
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 45_000, intervals: [250] }).toBeGreaterThan(1);
  expect(Date.now() - started).toBeLessThan(POLL_MS);
  const streamState = (await readStore(page, "cutroom", "meta")).find((row) => row.key === "progressStream");
  expect(streamState?.value.state).toBe("live");

  // The edit tabs stay; the storyboard is readable and says why it cannot be edited now.
  await page.getByRole("tab", { name: "Storyboard" }).click();
  const onStoryboard = Date.now();
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/storyboard$`));
  const rendering = page.getByText("The storyboard is read-only until this has finished.", { exact: false });
  const finished = page.getByText("This project is finished and read-only. Reopen it to edit it again.");
  await expect(rendering.or(finished)).toBeVisible();
  await expect(page.locator(".scene-cell")).toHaveCount(2);
  await expect(page.getByRole("button", { name: /^Add scenes after scene/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Render now" })).toHaveCount(0);

  // Finished, still on the storyboard: the stream reports it and the worker reloads the highlights.
  // The tab's own poll ran when it opened; the next one is a minute away, so this change came live.
  await expect(finished).toBeVisible({ timeout: POLL_MS });
  expect(Date.now() - onStoryboard).toBeLessThan(POLL_MS);
  await expect
    .poll(async () => (await readStore(page, "cutroom", "highlights")).find((h) => h.projectId === id)?.jumpCutsCreated, { timeout: 10_000 })
    .toBe(1);
  await page.getByRole("tab", { name: "Preview & Export" }).click();
  await expect(page.getByRole("heading", { name: "What Cutroom did" })).toBeVisible();
  await expect(jumpCuts).toHaveText("1");
});
