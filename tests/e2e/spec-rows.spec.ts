import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiToken, createUser, overlayStill, processedProject, signIn, userApi } from "./helpers";

// Issue 17, "The remaining rows of SPEC": what shows in the browser.

test("sign-up says when the e-mails or the passwords do not match, before anything is sent (SPEC §5)", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("Email", { exact: true }).fill("ana@example.com");
  await page.getByLabel("Confirm email").fill("ana@example.org");
  await page.getByLabel("Password", { exact: true }).fill("secret123");
  await expect(page.getByText("Emails do not match")).toBeVisible();
  await expect(page.getByLabel("Confirm email")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Confirm password").fill("secret124");
  await page.getByLabel("First name").click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();

  // Mended, the messages go at once.
  await page.getByLabel("Confirm email").fill("ana@example.com");
  await expect(page.getByText("Emails do not match")).toHaveCount(0);
  await page.getByLabel("Confirm password").fill("secret123");
  await expect(page.getByText("Passwords do not match")).toHaveCount(0);
});

test("the wizard says when a file is uploaded, and its privacy choice is the project's (SPEC §3, §8)", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { email } = await createUser(request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/new");
  await page.locator('input[type="file"]').setInputFiles(path.resolve("tests/fixtures/talk.mp4"));
  await page.getByRole("button", { name: "Upload 1 file" }).click();
  await expect(page).toHaveURL(/\/new\?step=2$/);
  await expect(page.getByRole("alertdialog").or(page.getByRole("status")).or(page.getByRole("alert")).filter({ hasText: "File uploaded" }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("talk.mp4").first()).toBeVisible();

  // Controls that changed no render are not offered (issue 17 audit).
  await expect(page.getByLabel("Title shown in the intro (optional)")).toHaveCount(0);
  await expect(page.getByLabel("Intro length in seconds")).toHaveCount(0);

  const privacy = page.getByRole("radiogroup", { name: "Who can watch the finished video" });
  await expect(privacy.getByRole("radio", { name: /^Private/ })).toBeChecked();
  await privacy.getByText("Unlisted", { exact: true }).click();
  await expect(privacy.getByRole("radio", { name: /^Unlisted/ })).toBeChecked();
  await page.getByLabel("Project name").fill("Unlisted talk");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/\d+\/preview$/, { timeout: 60_000 });
  const id = Number(/\/projects\/(\d+)\//.exec(page.url())![1]);
  const api = userApi(request, await apiToken(request, email));
  expect((await api.get(`/projects/${id}`)).privacy).toBe("unlisted");
});

/** A Preview Ready project whose scene 2 carries a picture-in-picture overlay from the library. */
async function projectWithOverlay(request: APIRequestContext, baseURL: string) {
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL, token, "Overlay card", "it-IT");
  const scenes = await api.scenes(projectId);
  await overlayStill(api, baseURL, token, projectId, scenes[1].id);
  return { email, projectId, api, sceneId: scenes[1].id as number };
}

test("a scene with an overlay shows as the overlay-scene card (SPEC §2 Scene card)", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email, projectId } = await projectWithOverlay(request, baseURL!);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`/projects/${projectId}/storyboard`);
  const card = page.getByRole("article", { name: "Scene 2", exact: true });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card).toHaveAttribute("data-variant", "overlay");
  // Drawn where the render puts it: the top-right corner, over the main scene.
  const picture = card.locator(".scene-overlay-picture");
  await expect(picture).toHaveAttribute("data-position", "pip_tr");
  const thumb = (await card.locator(".scene-thumb").boundingBox())!;
  const box = (await picture.boundingBox())!;
  expect(box.x + box.width / 2).toBeGreaterThan(thumb.x + thumb.width / 2);
  expect(box.y + box.height / 2).toBeLessThan(thumb.y + thumb.height / 2);
  const strip = card.getByRole("group", { name: "Overlay of scene 2" });
  await expect(strip).toContainText("Picture in picture: top right");
  // Other scenes keep the plain card.
  await expect(page.getByRole("article", { name: "Scene 1", exact: true })).not.toHaveAttribute("data-variant", "overlay");

  // The strip's button opens the overlay's options; a change shows on the card at once.
  await strip.getByRole("button", { name: "Overlay options of scene 2" }).click();
  const dialog = page.getByRole("dialog", { name: "Overlay of scene 2" });
  await dialog.getByRole("button", { name: /Position/ }).click();
  await page.getByRole("option", { name: "Full screen" }).click();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(picture).toHaveAttribute("data-position", "fullscrn");
  await expect(strip).toContainText("Full screen");
  await expect(strip).toContainText("Main scene hidden");
});

test("the render-notification switch shows in Options only when the plan has the feature (SPEC §6)", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Notify me", "it-IT");
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));

  // SPEC §1: a user who has projects is told too that new projects are made in the newer AI version.
  await page.goto("/");
  const notice = page.getByRole("complementary", { name: "Newer AI version" });
  await expect(notice).toContainText("New projects are created in our newer AI version.");
  await expect(page.getByRole("heading", { name: "Notify me" })).toBeVisible();

  // Free plan: no switch in Options.
  await page.goto(`/projects/${projectId}/settings`);
  await expect(page.getByRole("switch", { name: "Auto punch-in" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("switch", { name: /Render notifications/ })).toHaveCount(0);
  await expect(page.getByRole("switch", { name: /Edit from the transcript/ })).toHaveCount(0);

  // A paid plan (a trial through the local gateway, with its test card) brings it, on, and it saves to the project.
  const call = async (method: "GET" | "POST" | "PUT", url: string, data?: unknown) => {
    const res = await request.fetch(url.startsWith("/local-gateway") ? url : `/api/v1${url}`, {
      method,
      headers: url.startsWith("/local-gateway") ? {} : { authorization: `Bearer ${token}`, "idempotency-key": crypto.randomUUID() },
      data,
    });
    expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
    return res.json();
  };
  const intent = await call("GET", "/user/payment/setupintent");
  const confirmed = await call("POST", "/local-gateway/v1/setup_intents/confirm", {
    client_secret: intent.client_secret,
    card: { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" },
    billing_details: { name: "Rui Costa" },
  });
  await call("POST", "/user/payment/methods", { payment_method: confirmed.payment_method });
  await call("PUT", "/user/payment/subscription", { plan: "starter_month", payment: confirmed.payment_method });
  await page.reload();
  const toggle = page.getByRole("switch", { name: /Render notifications/ });
  await expect(toggle).toBeChecked({ timeout: 30_000 });
  await page.getByText("Render notifications", { exact: true }).click();
  await expect(toggle).not.toBeChecked();
  await expect.poll(async () => (await api.get(`/projects/${projectId}`)).render_notifications).toBe(0);
});
