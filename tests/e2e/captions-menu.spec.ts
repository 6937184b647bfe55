import { expect, test } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

/**
 * Issue 14: with subtitles on, the preview player's captions menu lists the talk's own lines and each ready
 * translation, and the Options' embedded language offers the same translation for the final render.
 */
test("the preview's captions menu lists the original and the Spanish translation; Options offers Spanish to burn in", async ({ page, request, baseURL }) => {
  test.setTimeout(300_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const id = await processedProject(api, baseURL!, token, "Talk with captions");
  const headers = { authorization: `Bearer ${token}` };
  expect((await request.fetch(`/api/v1/projects/${id}`, { method: "PUT", headers, data: { render_subtitle: 1 } })).ok()).toBe(true);
  await api.post(`/projects/${id}/translate`, { locale: "es-ES" });
  await expect
    .poll(async () => ((await api.get(`/projects/${id}/autosubtitles?ready=true`)).data as { locale: string }[]).map((s) => s.locale), { timeout: 120_000, intervals: [1_000] })
    .toContain("es-ES");

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`/projects/${id}/preview`);
  const video = page.locator("video");
  await expect(video).toBeVisible();
  await page.getByRole("button", { name: "closed captions" }).click();
  const spanish = page.getByRole("menuitemradio", { name: "Spanish" });
  await expect(page.getByRole("menuitemradio", { name: "English (US)" })).toBeVisible();
  await expect(spanish).toBeVisible();
  await spanish.click();
  // The Spanish track is the one showing, and the browser has its cues.
  await expect
    .poll(() =>
      video.evaluate((v: HTMLVideoElement) => {
        const showing = [...v.textTracks].find((t) => t.mode === "showing");
        return showing ? `${showing.language}:${showing.cues?.length ?? 0}` : "none";
      }),
    )
    .toMatch(/^es-ES:[1-9]/);

  // Options: the embedded language lists Spanish; choosing it is saved for the render.
  await page.goto(`/projects/${id}/settings`);
  await page.getByRole("button", { name: /Language of the subtitles in the video/ }).click();
  await page.getByRole("option", { name: "Spanish" }).click();
  await expect(page.getByRole("button", { name: /Language of the subtitles in the video/ })).toContainText("Spanish");
  await expect.poll(async () => (await api.get(`/projects/${id}`)).font.locale).toBe("es-ES");
});
