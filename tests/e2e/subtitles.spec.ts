import path from "node:path";
import { expect, test } from "@playwright/test";
import { tusUpload } from "../integration/tus";
import { apiToken, createUser, processedProject, signIn, translation, userApi } from "./helpers";

/** Issue 14: subtitles from speech as a user sees them — scene lines, the draft label, the preview's track, and why a language has none. */

test("an English talk gets draft caption lines on its scenes, and the preview plays them as its subtitle track", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const id = await processedProject(api, baseURL!, token, "Spoken talk");
  // Subtitles asked for in the Options (render_subtitle): the preview shows them.
  const put = await request.fetch(`/api/v1/projects/${id}`, { method: "PUT", headers: { authorization: `Bearer ${token}` }, data: { render_subtitle: 1 } });
  expect(put.ok()).toBe(true);

  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await page.goto(`/projects/${id}/storyboard`);
  await expect(page.getByRole("note").filter({ hasText: "Draft captions" })).toBeVisible();
  // At least one scene card shows recognised words instead of "No text".
  await expect(page.locator(".scene-text").filter({ hasNotText: "No text" }).first()).toBeVisible();

  await page.goto(`/projects/${id}/preview`);
  const video = page.locator("video");
  await expect(video).toBeVisible();
  await expect(page.locator('video track[kind="subtitles"]')).toHaveAttribute("srclang", "en-US");
  // The browser loads the track and has its cues.
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => { const t = v.textTracks[0]; if (t && t.mode === "disabled") t.mode = "hidden"; return t?.cues?.length ?? 0; }), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await expect(page.getByRole("note").filter({ hasText: "Draft captions" })).toBeVisible();
});

test("a German talk on a server with no German speech recognition finishes, and says why it has no subtitles in the user's language", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request, { locale: "de" });
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const uploaded = await tusUpload(baseURL!, token, path.resolve("tests/fixtures/talk.mp4"), { name: "vortrag.mp4" });
  const media = await api.post("/library", { media_file: uploaded.id, name: "vortrag.mp4", locale: "de-DE", has_speech: 1 });
  const project = await api.post("/createproject", { name: "Vortrag", locale: "de-DE", style: "video", media: [media.media_file.id] });
  // Preview Ready, then the subtitles' verdict (recognised after the preview, issue 14).
  await expect
    .poll(async () => {
      const body = await api.get(`/projects/${project.id}`);
      return body.status === "Preview Ready" && !body.subtitles_pending ? "ready" : body.status;
    }, { timeout: 150_000, intervals: [1_000] })
    .toBe("ready");

  await signIn(page, email);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  const notice = translation(
    "de",
    "Subtitles are not available for {language} on this server: it has no speech recognition for this language. The server's operator can add a speech recognition service.",
  ).replace("{language}", translation("de", "German"));
  await page.goto(`/projects/${project.id}/storyboard`);
  await expect(page.getByRole("note").filter({ hasText: notice })).toBeVisible();
  await page.goto(`/projects/${project.id}/preview`);
  await expect(page.getByRole("note").filter({ hasText: notice })).toBeVisible();
});
