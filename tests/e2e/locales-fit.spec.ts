import { expect, test, type Page } from "@playwright/test";
import { apiToken, createUser, processedProject, signIn, userApi } from "./helpers";

/**
 * Issue 18: labels were cut off in German and Portuguese ("Entfern…", "Reprod…") and a German row spilled past
 * the storyboard grid. In every interface language, at a phone's 360 px and at 1280 px, no control's text is
 * clipped and no page scrolls sideways.
 */

const LOCALES = ["en", "pt-BR", "es", "it", "fr", "de"] as const;
const WIDTHS = [360, 1280] as const;

/** Deliberately one-line texts with a way to read the rest (the phone banners' chevron shows the whole message). */
const CUT_ON_PURPOSE = [".banner-text"];

interface Problem {
  what: string;
  text: string;
  scrollWidth: number;
  clientWidth: number;
}

/** Controls (buttons, links, labels, tabs, options) whose text is cut by overflow hidden or an ellipsis. */
function clippedControls(cutOnPurpose: string[]): Problem[] {
  const controls = "button, a, label, [role=button], [role=link], [role=tab], [role=radio], [role=switch], [role=menuitem], [role=option], [role=checkbox], .btn, .badge";
  const problems: Problem[] = [];
  for (const el of Array.from(document.querySelectorAll<HTMLElement>("body *"))) {
    if (!el.closest(controls) || cutOnPurpose.some((s) => el.closest(s))) continue;
    const style = getComputedStyle(el);
    const clips = style.overflowX === "hidden" || style.overflowX === "clip" || style.textOverflow === "ellipsis";
    // Visually hidden text (1 px boxes for screen readers) and empty boxes are not labels anyone reads.
    if (!clips || el.offsetParent === null || el.clientWidth <= 2 || !(el.textContent ?? "").trim()) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      problems.push({ what: `${el.tagName.toLowerCase()}.${el.className}`, text: (el.textContent ?? "").trim().slice(0, 60), scrollWidth: el.scrollWidth, clientWidth: el.clientWidth });
    }
  }
  return problems;
}

/** Elements whose box reaches past the window's right edge, or a page that scrolls sideways. */
function sidewaysOverflow(cutOnPurpose: string[]): string[] {
  const width = document.documentElement.clientWidth;
  const out: string[] = [];
  if (document.scrollingElement!.scrollWidth > width + 1) out.push(`page scrollWidth ${document.scrollingElement!.scrollWidth} > ${width}`);
  for (const el of Array.from(document.querySelectorAll<HTMLElement>("main *"))) {
    if (el.offsetParent === null || cutOnPurpose.some((s) => el.closest(s))) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 1 && !el.closest("[data-scrolls]") && getComputedStyle(el).position !== "fixed") {
      let scroller = el.parentElement;
      // A scrolling or clipping box in between keeps it on the screen (the clipping box is checked itself).
      while (scroller && !["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      if (!scroller || scroller === document.body || scroller === document.documentElement) out.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? "").trim().slice(0, 40)}" right ${Math.round(r.right)} > ${width}`);
    }
  }
  return out.slice(0, 10);
}

async function checkFits(page: Page, view: string) {
  // Fonts and late layout settle first.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  const clipped = await page.evaluate(clippedControls, CUT_ON_PURPOSE);
  expect.soft(clipped, `${view}: clipped control text`).toEqual([]);
  const overflow = await page.evaluate(sidewaysOverflow, CUT_ON_PURPOSE);
  expect.soft(overflow, `${view}: content past the right edge`).toEqual([]);
}

test("every locale fits at 360 px and 1280 px: home, storyboard, preview, account", async ({ page, request, baseURL }) => {
  test.setTimeout(600_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Locale fit");

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));

  const views = [
    { name: "home", path: "/", ready: () => page.locator("main h1").first() },
    { name: "storyboard", path: `/projects/${projectId}/storyboard`, ready: () => page.locator(".scene-card, [data-scene-id]").first() },
    { name: "preview", path: `/projects/${projectId}/preview`, ready: () => page.locator("main h1").first() },
    { name: "account", path: "/account", ready: () => page.locator("main h1").first() },
  ];

  for (const locale of LOCALES) {
    await api.post(`/user/locale/${locale}`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 500 ? 800 : 900 });
      for (const view of views) {
        await test.step(`${locale} · ${width} px · ${view.name}`, async () => {
          await page.goto(view.path);
          await expect(page.locator("html")).toHaveAttribute("lang", locale);
          await expect(view.ready()).toBeVisible({ timeout: 20_000 });
          await checkFits(page, `${locale} ${width}px ${view.name}`);
        });
      }
    }
  }
});
