import { expect, test, type Page } from "@playwright/test";
import { POLL_MS } from "../../src/lib/constants";
import { formatDuration } from "../../src/lib/format";
import { apiToken, createUser, libraryItemReady, processedProject, signIn, uploadToLibrary, userApi } from "./helpers";

const LINE_1 = "Welcome to the storyboard";
const LINE_2 = "Every scene can be edited";
/** One character over the 35 a subtitle line may hold. */
const TOO_LONG = "A line that runs one character over!";

/** Seconds as the trim fields show them (en-US, up to two decimals). */
const seconds = (value: number) => new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, useGrouping: false }).format(value);

const card = (page: Page, order: number) => page.getByRole("article", { name: `Scene ${order}`, exact: true });
const cards = (page: Page) => page.getByRole("list", { name: "Scenes" }).getByRole("article");
const sceneMenu = async (page: Page, order: number) => {
  await page.getByRole("button", { name: `More actions for scene ${order}` }).click();
  return page.getByRole("menu", { name: `Actions for scene ${order}` });
};

/** Flips a switch the way a person does: by clicking it (its label, which holds the track and the text). */
const flip = (page: Page, name: string | RegExp) => page.getByRole("switch", { name, exact: true }).locator("xpath=ancestor::label[1]").click();

/** Presses on a card's picture and drags it, in small pointer steps as a hand would, to (x, y). */
async function dragCard(page: Page, order: number, to: { x: number; y: number }) {
  const box = (await card(page, order).locator(".scene-thumb").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

test("a full editing session: text, splits, merges, trim, hide, reorder, overlay, clips project, render", async ({ page, request, baseURL }) => {
  // Processing the fixture and the final render run real ffmpeg.
  test.setTimeout(360_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const still = await uploadToLibrary(api, baseURL!, token, "still.png", { speech: false });
  const projectId = await processedProject(api, baseURL!, token, "Talk to edit", "it-IT");
  await libraryItemReady(api, "image", "still.png");
  const original = await api.scenes(projectId);
  const ids = original.map((s) => s.id);
  const serverScenes = () => api.scenes(projectId);
  const serverScene = async (id: number) => (await serverScenes()).find((s) => s.id === id);
  // talk.mp4 is cut into scenes from its stretches of speech; in Italian (no speech engine here) none has text, and no two meet.
  expect(original.length).toBeGreaterThanOrEqual(5);
  expect(original.every((s) => s.text.length === 0)).toBe(true);

  // The app polls every 60 s; the test moves the page's clock on instead of waiting.
  await page.clock.install();
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await page.goto(`/projects/${projectId}/storyboard`);
  await expect(page.getByRole("heading", { name: "Talk to edit" })).toBeVisible();
  await expect(cards(page)).toHaveCount(original.length);
  await expect(page.getByRole("button", { name: /^Merge scene/ })).toHaveCount(0);

  await test.step("text lines: a 36-character line is refused, two good lines are saved", async () => {
    await page.getByRole("button", { name: "Edit text of scene 1" }).click();
    const form = page.getByRole("form", { name: "Text lines of scene 1" });
    await expect(form.getByText("This scene has no text.")).toBeVisible();
    await form.getByRole("button", { name: "Add a line" }).click();
    await form.getByRole("textbox", { name: "Line 1", exact: true }).fill(LINE_1);
    await form.getByRole("button", { name: "Add a line" }).click();
    const second = form.getByRole("textbox", { name: "Line 2", exact: true });
    await second.fill(TOO_LONG);
    await expect(form.getByText("36/35 characters")).toBeVisible();
    await expect(second).toHaveAccessibleDescription(/A text line has at most 35 characters\./);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByText("A text line has at most 35 characters.")).toBeVisible();
    await expect(form).toBeVisible();
    expect((await serverScene(ids[0]))!.text).toEqual([]);

    await second.fill(LINE_2);
    await expect(form.getByText("25/35 characters")).toHaveCount(2);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText("Settings updated").first()).toBeVisible();
    await expect(card(page, 1)).toContainText(`${LINE_1} · ${LINE_2}`);
    await expect.poll(async () => (await serverScene(ids[0]))!.text.map((l: { text: string }) => l.text)).toEqual([LINE_1, LINE_2]);
  });

  await test.step("split by text line, then merge the halves back", async () => {
    // A scene with text cannot be split by position.
    const menu = await sceneMenu(page, 1);
    await expect(menu.getByRole("menuitem", { name: "Split", exact: true })).toBeDisabled();
    await menu.getByRole("menuitem", { name: "Split by text line (scissors)" }).click();
    const dialog = page.getByRole("dialog", { name: "Split scene 1 by text line" });
    const cut = dialog.getByRole("radiogroup", { name: "Where to cut" });
    await expect(cut.getByRole("radio", { name: new RegExp(`^Before line 2.*${LINE_2}`) })).toBeChecked();
    await dialog.getByRole("button", { name: "Split", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(cards(page)).toHaveCount(original.length + 1);
    await expect(card(page, 1)).toContainText(LINE_1);
    await expect(card(page, 1)).not.toContainText(LINE_2);
    await expect(card(page, 2)).toContainText(LINE_2);
    await expect.poll(async () => (await serverScenes()).length).toBe(original.length + 1);
    const [first, second] = await serverScenes();
    expect(first.id).toBe(ids[0]);
    expect(first.text.map((l: { text: string }) => l.text)).toEqual([LINE_1]);
    expect(second.text.map((l: { text: string }) => l.text)).toEqual([LINE_2]);
    expect(second.trim_start).toBeCloseTo(first.trim_end, 3);

    // The halves meet, so (only) they can be merged again.
    await expect(page.getByRole("button", { name: /^Merge scene/ })).toHaveCount(1);
    await page.getByRole("button", { name: "Merge scene 1 with scene 2" }).click();
    await expect(cards(page)).toHaveCount(original.length);
    await expect(card(page, 1)).toContainText(`${LINE_1} · ${LINE_2}`);
    await expect.poll(async () => (await serverScenes()).map((s) => s.id)).toEqual(ids);
    const merged = (await serverScene(ids[0]))!;
    expect(merged).toMatchObject({ trim_start: original[0].trim_start, trim_end: original[0].trim_end });
    expect(merged.text).toHaveLength(2);
  });

  await test.step("split a scene without text by position, then merge it back", async () => {
    const menu = await sceneMenu(page, 2);
    await menu.getByRole("menuitem", { name: "Split", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Split scene 2" });
    await dialog.getByRole("textbox", { name: "Split at (seconds from the scene start)" }).fill("0.5");
    await dialog.getByRole("textbox", { name: "Split at (seconds from the scene start)" }).press("Tab");
    await dialog.getByRole("button", { name: "Split", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(cards(page)).toHaveCount(original.length + 1);
    await expect.poll(async () => (await serverScenes()).length).toBe(original.length + 1);
    const [, left, right] = await serverScenes();
    expect(left.id).toBe(ids[1]);
    expect(left.trim_end).toBeCloseTo(original[1].trim_start + 0.5, 3);
    expect(right.trim_start).toBeCloseTo(left.trim_end, 3);
    expect(right.trim_end).toBeCloseTo(original[1].trim_end, 3);

    await page.getByRole("button", { name: "Merge scene 2 with scene 3" }).click();
    await expect(cards(page)).toHaveCount(original.length);
    await expect.poll(async () => (await serverScenes()).map((s) => s.id)).toEqual(ids);
    expect(await serverScene(ids[1])).toMatchObject({ trim_start: original[1].trim_start, trim_end: original[1].trim_end });
  });

  const trimmedStart = Math.round((original[1].trim_start + 0.4) * 100) / 100;
  await test.step("trim: markers that would cross are refused and nothing is sent; a valid trim is saved", async () => {
    const menu = await sceneMenu(page, 2);
    await menu.getByRole("menuitem", { name: "Trim" }).click();
    const dialog = page.getByRole("dialog", { name: "Trim scene 2" });
    const start = dialog.getByRole("textbox", { name: "Start (seconds)" });
    await expect(start).toHaveValue(seconds(original[1].trim_start));
    await start.fill(seconds(original[1].trim_end + 1));
    await start.press("Tab");
    await expect(dialog.getByText("The start marker cannot pass the end marker.")).toBeVisible();
    await expect(start).toHaveValue(seconds(original[1].trim_start));
    await expect(dialog.getByRole("button", { name: "Save" })).toBeDisabled();
    expect(await serverScene(ids[1])).toMatchObject({ trim_start: original[1].trim_start, trim_end: original[1].trim_end });

    await start.fill(seconds(trimmedStart));
    await start.press("Tab");
    await expect(dialog.getByText("The start marker cannot pass the end marker.")).toBeHidden();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await serverScene(ids[1]))!.trim_start).toBeCloseTo(trimmedStart, 3);
    expect((await serverScene(ids[1]))!.trim_end).toBeCloseTo(original[1].trim_end, 3);
  });

  await test.step("remove a scene with removed scenes hidden, then show them and restore it", async () => {
    await flip(page, "Hide removed scenes");
    await page.getByRole("button", { name: "Remove scene 3" }).click();
    await expect(card(page, 3)).toHaveCount(0);
    await expect(cards(page)).toHaveCount(original.length - 1);
    await expect.poll(async () => (await serverScene(ids[2]))!.visibility).toBe(0);

    await flip(page, "Hide removed scenes");
    await expect(cards(page)).toHaveCount(original.length);
    await expect(card(page, 3).getByText("Removed", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Restore scene 3" }).click();
    await expect(card(page, 3).getByText("Removed", { exact: true })).toBeHidden();
    await expect(page.getByRole("button", { name: "Remove scene 3" })).toBeVisible();
    await expect.poll(async () => (await serverScene(ids[2]))!.visibility).toBe(1);
  });

  const reordered = [ids[1], ids[2], ids[0], ...ids.slice(3)];
  await test.step("drag the first card after the third", async () => {
    await flip(page, "Drag to reorder");
    await expect(page.getByText("Drag a card to its new place.")).toBeVisible();
    const target = (await card(page, 3).locator(".scene-thumb").boundingBox())!;
    await dragCard(page, 1, { x: target.x + target.width * 0.8, y: target.y + target.height / 2 });
    await expect(card(page, 3)).toContainText(`${LINE_1} · ${LINE_2}`);
    await expect(card(page, 1)).toContainText("No text");
    await expect.poll(async () => (await serverScenes()).map((s) => s.id)).toEqual(reordered);
    await flip(page, "Drag to reorder");
    await expect(page.getByText("Drag a card to its new place.")).toBeHidden();
  });

  await test.step("a picture-in-picture overlay from the library", async () => {
    const menu = await sceneMenu(page, 4);
    await menu.getByRole("menuitem", { name: "Add overlay" }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/library/overlay/4/${ids[3]}$`));
    await expect(page.getByRole("heading", { name: "Choose an overlay" })).toBeVisible();
    await expect(page.getByText("Goes over scene 4").first()).toBeVisible();
    await page.getByRole("tablist", { name: "Media types" }).getByRole("tab", { name: "Images" }).click();
    await page.getByRole("button", { name: "Open still.png" }).click();
    const scenes = page.getByRole("list", { name: "Scenes of still.png" });
    await scenes.getByText("Scene 1", { exact: true }).click();
    await expect(scenes.getByRole("checkbox", { name: "Select scene 1" })).toBeChecked();
    await expect(page.getByRole("button", { name: /Overlay position/ })).toContainText("Picture in picture, bottom right");
    await page.getByRole("button", { name: "Insert", exact: true }).click();
    await expect(page.getByText("Overlay added")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/storyboard$`));
    await expect(card(page, 4).getByText("Picture in picture: bottom right")).toBeVisible();
    await expect.poll(async () => (await serverScene(ids[3]))!.overscene?.media_file_id).toBe(still.id);
    expect(await serverScene(ids[3])).toMatchObject({ overscene_type: "pip_br", overscene_bg: 0 });

    // Its options say the main scene stays visible under a picture in picture.
    const options = await sceneMenu(page, 4);
    await options.getByRole("menuitem", { name: "Overlay options" }).click();
    const dialog = page.getByRole("dialog", { name: "Overlay of scene 4" });
    await expect(dialog.getByRole("switch", { name: "Hide the main scene" })).not.toBeChecked();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  });

  let clipsId = 0;
  await test.step("a clips project from three selected scenes opens on its own storyboard", async () => {
    await flip(page, "Select");
    const toolbar = page.getByRole("toolbar", { name: "Selected scenes" });
    await expect(toolbar).toContainText("0 scenes selected");
    for (const order of [1, 2, 3]) await card(page, order).getByText("Select", { exact: true }).click();
    for (const order of [1, 2, 3]) await expect(card(page, order).getByRole("checkbox", { name: `Select scene ${order}` })).toBeChecked();
    const picked = (await serverScenes()).slice(0, 3);
    const length = picked.reduce((sum, s) => sum + s.trim_end - s.trim_start, 0);
    await expect(toolbar).toContainText("3 scenes selected");
    await expect(toolbar).toContainText(`Length ${formatDuration(length)}`);
    await toolbar.getByRole("button", { name: "Create clips project" }).click();

    const dialog = page.getByRole("dialog", { name: "Create a clips project" });
    await expect(dialog.getByText("3 scenes selected.")).toBeVisible();
    // The name is required.
    await dialog.getByRole("button", { name: "Create clips project" }).click();
    await expect(dialog.getByRole("textbox", { name: "Name" })).toHaveAttribute("aria-invalid", "true");
    await dialog.getByRole("textbox", { name: "Name" }).fill("Three scenes");
    await flip(page, /Download ready/);
    await expect(dialog.getByRole("switch", { name: /Download ready/ })).not.toBeChecked();
    await dialog.getByRole("button", { name: "Create clips project" }).click();

    // Not download ready: the new project opens on its storyboard.
    await expect(page).toHaveURL(new RegExp(`/projects/(?!${projectId}/)\\d+/storyboard$`));
    clipsId = Number(/\/projects\/(\d+)\//.exec(page.url())![1]);
    await expect(page.getByRole("heading", { name: "Three scenes" })).toBeVisible();
    await expect(cards(page)).toHaveCount(3);
    await expect(card(page, 3)).toContainText(`${LINE_1} · ${LINE_2}`);
    const copies = await api.scenes(clipsId);
    expect(copies.map((s) => [s.media_file_id, s.trim_start, s.trim_end])).toEqual(picked.map((s) => [s.media_file_id, s.trim_start, s.trim_end]));
  });

  await test.step("back on the project, Render now makes the preview again", async () => {
    await page.goto(`/projects/${projectId}/storyboard`);
    await expect(page.getByRole("heading", { name: "Talk to edit" })).toBeVisible();
    expect((await api.get(`/projects/${projectId}`)).needs_render).toBe(1);
    await expect(page.getByText("This project has changes that are not in the preview.")).toBeVisible();
    await page.getByRole("button", { name: "Render now" }).click();
    // The Preview & Export tab, with the edit tabs still there (issue 13).
    await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/share$`));
    const ready = page.getByRole("heading", { name: "What Cutroom did" });
    await expect(page.getByRole("progressbar", { name: "Progress" })).toBeVisible();
    // The render runs real ffmpeg (after the clips project's own render): the one slow step.
    await expect
      .poll(
        async () => {
          await page.clock.fastForward(POLL_MS);
          return ready.isVisible();
        },
        { timeout: 240_000, intervals: [3_000] },
      )
      .toBe(true);
    expect(await api.get(`/projects/${projectId}`)).toMatchObject({ status: "Preview Ready", needs_render: 0 });
    // The edits are still there after the render.
    expect((await serverScenes()).map((s) => s.id)).toEqual(reordered);
  });
});
