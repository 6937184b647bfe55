import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { tusUpload } from "../integration/tus";
import { apiToken, createUser, signIn, userApi } from "./helpers";

/** Plans are sold by billing, which does not exist yet: the spec sets the user's plan in the server's database. */
function setPlan(email: string, plan: string) {
  const db = new Database(path.join(E2E_DATA_DIR, "cutroom.sqlite"));
  try {
    db.prepare("UPDATE users SET plan_id = ? WHERE email = ?").run(plan, email);
  } finally {
    db.close();
  }
}

/** A 1080p camera-like clip made here: only a source above 720p can show that 1080p was honoured. */
function fullHdClip(): string {
  const file = path.resolve(E2E_DATA_DIR, "..", "e2e-export-1080p.mp4");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    execFileSync("ffmpeg", [
      "-nostdin", "-loglevel", "error", "-y",
      "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=8",
      "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
      "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", file,
    ]);
  }
  return file;
}

const videoSize = (file: string) =>
  execFileSync("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", file]).toString().trim();

test("a paid user exports 1080p from the form, waits, downloads the file and reopens the project", async ({ page, request, baseURL }) => {
  test.setTimeout(360_000);
  const { email } = await createUser(request);
  setPlan(email, "standard_month");
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const uploaded = await tusUpload(baseURL!, token, fullHdClip(), { name: "Studio take.mp4" });
  const media = (await api.post("/library", { media_file: uploaded.id, name: "Studio take.mp4", locale: null, has_speech: 0 })).media_file;
  const project = await api.post("/createproject", { name: "Studio take", locale: "en-US", style: "video", media: [media.id] });
  const id = project.id as number;
  await expect.poll(async () => (await api.get(`/projects/${id}`)).status, { timeout: 200_000, intervals: [1_000] }).toBe("Preview Ready");

  await signIn(page, email);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await page.goto(`/projects/${id}/share`);
  const form = page.getByRole("form", { name: "Export" });
  await expect(form).toBeVisible();
  // The plan's tiers only: 720p and 1080p, no 4k.
  await expect(form.getByRole("radio", { name: "720p" })).toBeVisible();
  await expect(form.getByRole("radio", { name: "4k (Ultra HD)" })).toHaveCount(0);
  await form.getByText("1080p (Full HD)").click();
  await expect(form.getByRole("radio", { name: "1080p (Full HD)" })).toBeChecked();
  await form.getByRole("textbox", { name: "Video name" }).fill("Studio take final");
  await form.getByRole("button", { name: "Export", exact: true }).click();

  // The finished view: the download button appears once the render is done, without a reload.
  const download = page.getByRole("button", { name: "Download video" });
  await expect(download).toBeVisible({ timeout: 200_000 });
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(file.suggestedFilename()).toBe("Studio take final.mp4");
  const saved = await file.path();
  expect(videoSize(saved)).toBe("1920,1080");

  // Reopen: back to Preview Ready, the storyboard editable again.
  await page.getByRole("button", { name: "Reopen to edit" }).click();
  await expect.poll(async () => (await api.get(`/projects/${id}`)).status, { timeout: 20_000 }).toBe("Preview Ready");
  await expect(page.getByRole("button", { name: "Download video" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Export", exact: true })).toBeVisible();
});
