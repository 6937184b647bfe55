/**
 * Frames while a card is dragged near the bottom edge of the storyboard, so the list auto-scrolls
 * under it. The card is then brought back and dropped where it started, so nothing moves: the
 * storyboard stays as it was for the next run (checked, since a move would change every later number).
 */
import type { Page } from "@playwright/test";

export interface DragFrames {
  intervals: number[];
  /** How far the list auto-scrolled while the card was held near the edge. */
  scrolledPx: number;
}

/** The frames, or why there was nothing to measure. */
export type DragResult = DragFrames | string;

const DRAG_MS = 2_000;
const STEP_MS = 1000 / 60;
/** Pointer distance from the bottom edge while auto-scrolling: inside the edge zone. */
const EDGE_INSET_PX = 24;
/** Moves it takes the pointer to reach the edge zone; it then wiggles there until DRAG_MS is over. */
const APPROACH_STEPS = 20;
const DRAG_TOGGLE = /drag to reorder/i;
const UNNAMED_TOGGLE = ".storyboard-toolbar [role=switch]";

const frame = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

export async function dragFrames(page: Page): Promise<DragResult> {
  let toggle = page.getByRole("switch", { name: DRAG_TOGGLE });
  // Until the catalogs are extracted the switch's name is a message id: then it is the toolbar's second switch.
  if ((await toggle.count()) === 0) toggle = page.locator(UNNAMED_TOGGLE).nth(1);
  if ((await toggle.count()) === 0) return "skipped: no 'Drag to reorder' switch on the storyboard";
  if (await toggle.isDisabled()) return "skipped: 'Drag to reorder' is disabled (busy project or offline)";
  const wasOn = await toggle.isChecked();
  // The input is visually hidden under its label: the click goes through the label, as a hand's would.
  if (!wasOn) await toggle.check({ force: true });
  try {
    await page.evaluate(() => {
      window.__storyboardBench!.scroller().scrollTop = 0;
    });
    await frame(page);
    // A point on the first card that is not a button: its drag handle (the picture) when it has one.
    const start = await page.evaluate(() => {
      const card = window.__storyboardBench!.cards()[0];
      if (!card) return null;
      const handle = card.querySelector("[data-drag-handle]") ?? card.querySelector("img") ?? card;
      const r = handle.getBoundingClientRect();
      return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2), id: card.getAttribute("data-scene-id"), name: card.getAttribute("aria-label") };
    });
    if (!start) return "skipped: no card to drag";
    const edge = await page.evaluate(() => {
      const box = window.__storyboardBench!.scroller();
      return box === document.scrollingElement ? window.innerHeight : Math.min(window.innerHeight, box.getBoundingClientRect().bottom);
    });
    const target = edge - EDGE_INSET_PX;

    const measured = page.evaluate((ms) => window.__storyboardBench!.frames(ms), DRAG_MS);
    const began = Date.now();
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    // Small moves the whole time, as a hand makes them; in the edge zone the list scrolls on its own.
    for (let i = 1; Date.now() - began < DRAG_MS; i++) {
      const y = start.y + ((target - start.y) * Math.min(i, APPROACH_STEPS)) / APPROACH_STEPS;
      await page.mouse.move(start.x + (i % 2), y);
      await new Promise((resolve) => setTimeout(resolve, STEP_MS));
    }
    const intervals = await measured;
    const scrolledPx = await page.evaluate(() => window.__storyboardBench!.scroller().scrollTop);

    // Back out of the edge zone, back to the top, and drop the card where it was.
    await page.mouse.move(start.x, Math.round(edge / 2));
    await page.evaluate(() => {
      window.__storyboardBench!.scroller().scrollTop = 0;
    });
    await frame(page);
    await page.mouse.move(start.x + 1, start.y);
    await page.mouse.move(start.x, start.y);
    await frame(page);
    await page.mouse.up();
    await frame(page);
    const first = await page.evaluate(() => window.__storyboardBench!.cards()[0]?.getAttribute("data-scene-id") ?? null);
    if (first !== start.id) throw new Error(`the drag measurement moved a scene (${start.name} is no longer first); the storyboard changed`);
    return { intervals, scrolledPx };
  } finally {
    if (!wasOn) await toggle.uncheck({ force: true }).catch(() => undefined);
  }
}
