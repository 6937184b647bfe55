import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { makeFaceClip } from "../integration/face-clip";
import { tusUpload } from "../integration/tus";
import { apiToken, createUser, signIn, userApi } from "./helpers";

/**
 * Issue 17: the faces dialog offers the faces the server found (pictures cut from the frame); picking one moves
 * the part of the picture the render keeps onto it. The clip: a large face on the left, a smaller one on the right.
 */
test("the faces dialog proposes the detected faces, and picking one moves the framing onto it", async ({ page, request, baseURL }) => {
  test.setTimeout(300_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const dir = path.resolve(".tmp/e2e-faces");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "two-faces.mp4");
  makeFaceClip(file, { width: 640, height: 360, seconds: 4, photo: 330, path: [{ t: 0, x: -40, y: 0 }], second: { photo: 230, x: 420, y: 40 } });
  const uploaded = await tusUpload(baseURL!, token, file, { name: "two-faces.mp4" });
  const media = (await api.post("/library", { media_file: uploaded.id, name: "two-faces.mp4", locale: null, has_speech: 0 })).media_file;
  const project = await api.post("/createproject", { name: "Two faces", locale: "en-US", style: "video", media: [media.id] });
  await expect.poll(async () => (await api.get(`/projects/${project.id}`)).status, { timeout: 200_000, intervals: [1_000] }).toBe("Preview Ready");
  const res = await request.fetch(`/api/v1/projects/${project.id}`, { method: "PUT", headers: { authorization: `Bearer ${token}` }, data: { aspect: "9x16", autocrop: 1 } });
  expect(res.ok()).toBe(true);
  const [scene] = await api.scenes(project.id);
  expect(scene.faces).toHaveLength(2);

  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await page.goto(`/projects/${project.id}/storyboard`);
  await expect(page.getByRole("heading", { name: "Two faces" })).toBeVisible();
  await page.getByRole("button", { name: "More actions for scene 1" }).click();
  await page.getByRole("menu", { name: "Actions for scene 1" }).getByRole("menuitem", { name: "Select faces" }).click();
  const dialog = page.getByRole("dialog", { name: "Faces and framing of scene 1" });
  const found = dialog.getByRole("group", { name: "Faces found in this scene" });
  await expect(found.getByRole("button", { name: /^Found face/ })).toHaveCount(2);
  // Each proposal is the face's picture, loaded from the server.
  for (const picture of await found.locator("img").all()) await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // Nothing picked: the kept part (9:16) is around the largest face, on the left.
  const kept = dialog.getByTestId("faces-kept");
  await expect(kept).toBeVisible();
  const left = async () => parseFloat((await kept.getAttribute("style"))!.match(/left: ([\d.]+)%/)![1]!);
  const before = await left();
  expect(before).toBeLessThan(30);

  // Picking the smaller face on the right moves the framing onto it; its box appears on the picture.
  const second = found.getByRole("button", { name: "Found face 2" });
  await second.click();
  await expect(second).toHaveAttribute("aria-pressed", "true");
  await expect.poll(left).toBeGreaterThan(before + 30);
  await expect(dialog.getByRole("button", { name: "Face 1", exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  const saved = (await api.scenes(project.id))[0];
  expect(saved.selected_faces).toEqual([expect.objectContaining({ visibility: 1, track: scene.faces[1].track })]);
});
