/**
 * What `bench:storyboard` runs inside the page. `installProbe` is an init script (it runs at document
 * start on every navigation) that watches scene cards appear frame by frame and puts the other
 * measurements on `window.__storyboardBench` for `page.evaluate` to call.
 *
 * Everything here is serialised into the page, so it must not use anything from its module scope.
 */

export interface ProbeOptions {
  /** Source of the RegExp a card's accessible name matches, e.g. "^Scene \\d+". */
  cardName: string;
  /** Stop watching cards after this long even when nobody called stopWatching. */
  watchLimitMs: number;
}

export interface ScrollPlan {
  /** "steady": ping-pong at pxPerSecond; "sweep": top to bottom once over the whole duration. */
  mode: "steady" | "sweep";
  durationMs: number;
  pxPerSecond: number;
}

export interface ScrollResult {
  /** Frame intervals (ms) measured with requestAnimationFrame while scrolling. */
  intervals: number[];
  /** Pixels scrolled in total. */
  distance: number;
  /** How far the list scrolls (scrollHeight − clientHeight). */
  range: number;
  /** The element that scrolls, for the report. */
  scroller: string;
}

export interface PageStats {
  heapBytes: number | null;
  domElements: number;
  renderedCards: number;
}

export interface CardTimeline {
  /** at[k - 1] = ms since navigation start when k cards were first rendered. */
  at: number[];
  /** When the rendered cards first reached the bottom of the visible list (the screen is full). */
  filledAt: number | null;
  /** Long tasks on the main thread since navigation start: count and total ms. */
  longTasks: { count: number; totalMs: number };
}

export interface Probe {
  cards(): HTMLElement[];
  timeline(): CardTimeline;
  stopWatching(): void;
  /** Resolves with performance.now() once the mirror's meta says every scene is loaded. */
  waitLoaded(projectId: number, timeoutMs: number): Promise<{ at: number; total: number }>;
  clearMirror(projectId: number): Promise<void>;
  scroll(plan: ScrollPlan): Promise<ScrollResult>;
  frames(durationMs: number): Promise<number[]>;
  stats(): PageStats;
  scroller(): HTMLElement;
}

declare global {
  interface Window {
    __storyboardBench?: Probe;
  }
}

/** tsx names inner functions with an `__name` helper that the page lacks: this script goes first. */
export const NAME_SHIM = "globalThis.__name = globalThis.__name || ((f) => f);";

export function installProbe(options: ProbeOptions): void {
  const cardName = new RegExp(options.cardName);
  const SCENE_ID_SELECTOR = "[data-scene-id]";
  const CARD_SELECTOR = '[role="listitem"], [role="article"], article, li';
  const MIRROR_DB = "cutroom";
  const POLL_MS = 50;

  const nameOf = (el: Element): string => {
    const label = el.getAttribute("aria-label");
    if (label) return label.trim();
    const ids = el.getAttribute("aria-labelledby");
    if (ids) {
      return ids
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" ")
        .trim();
    }
    return el.querySelector("h1, h2, h3, h4, h5, h6")?.textContent?.trim() ?? "";
  };

  const isRendered = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };

  /** Cards carry their scene id; by name otherwise (names read the catalog, so they are "Scene n" only in English). */
  const cards = (): HTMLElement[] => {
    const tagged = document.querySelectorAll<HTMLElement>(SCENE_ID_SELECTOR);
    const candidates = tagged.length ? Array.from(tagged) : Array.from(document.querySelectorAll<HTMLElement>(CARD_SELECTOR)).filter((el) => cardName.test(nameOf(el)));
    return candidates.filter(isRendered);
  };

  /** The nearest ancestor of the cards that scrolls, or the document. */
  const scroller = (): HTMLElement => {
    for (let el = cards()[0]?.parentElement; el && el !== document.body; el = el.parentElement) {
      const overflow = getComputedStyle(el).overflowY;
      if ((overflow === "auto" || overflow === "scroll" || overflow === "overlay") && el.scrollHeight > el.clientHeight + 1) return el;
    }
    return (document.scrollingElement as HTMLElement | null) ?? document.documentElement;
  };

  // Cards as they appear, checked once per frame (just before paint) from document start.
  const at: number[] = [];
  let filledAt: number | null = null;
  let watching = true;
  const watch = () => {
    if (!watching) return;
    const now = performance.now();
    if (now > options.watchLimitMs) return;
    const shown = cards();
    for (let k = at.length; k < shown.length; k++) at.push(now);
    if (filledAt === null && shown.length > 0) {
      const box = scroller();
      const bottom = box === document.scrollingElement ? window.innerHeight : Math.min(window.innerHeight, box.getBoundingClientRect().bottom);
      const lowest = Math.max(...shown.map((c) => c.getBoundingClientRect().bottom));
      if (lowest >= bottom - 1) filledAt = now;
    }
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);

  const longTasks = { count: 0, totalMs: 0 };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        longTasks.count += 1;
        longTasks.totalMs += entry.duration;
      }
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // Long tasks are a Chromium extra; the other numbers do without them.
  }

  const openMirror = () =>
    new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(MIRROR_DB);
      request.onsuccess = () => {
        const db = request.result;
        // Never hold up the app's own schema upgrade.
        db.onversionchange = () => db.close();
        resolve(db);
      };
      request.onerror = () => reject(request.error);
    });

  const done = (tx: IDBTransaction) =>
    new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });

  const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

  window.__storyboardBench = {
    cards,
    scroller,
    timeline: () => ({ at: [...at], filledAt, longTasks: { ...longTasks } }),
    stopWatching: () => {
      watching = false;
    },

    async waitLoaded(projectId, timeoutMs) {
      const db = await openMirror();
      try {
        for (;;) {
          const tx = db.transaction("meta", "readonly");
          const request = tx.objectStore("meta").get(`storyboard:${projectId}`);
          await done(tx);
          const meta = request.result?.value as { total: number; loaded: number; loading: boolean } | undefined;
          if (meta && !meta.loading && meta.loaded >= meta.total) return { at: performance.now(), total: meta.total };
          if (performance.now() > timeoutMs) throw new Error(`storyboard ${projectId} not loaded after ${timeoutMs} ms: ${JSON.stringify(meta)}`);
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      } finally {
        db.close();
      }
    },

    async clearMirror(projectId) {
      const db = await openMirror();
      try {
        const tx = db.transaction(["scenes", "meta"], "readwrite");
        const scenes = tx.objectStore("scenes");
        const keys = scenes.index("project_id").getAllKeys(IDBKeyRange.only(projectId));
        keys.onsuccess = () => {
          for (const key of keys.result) scenes.delete(key);
        };
        tx.objectStore("meta").delete(`storyboard:${projectId}`);
        await done(tx);
      } finally {
        db.close();
      }
    },

    async scroll(plan) {
      const box = scroller();
      const range = box.scrollHeight - box.clientHeight;
      box.scrollTop = 0;
      await nextFrame();
      let last = await nextFrame();
      const start = last;
      const intervals: number[] = [];
      let distance = 0;
      let position = 0;
      for (;;) {
        const now = await nextFrame();
        intervals.push(now - last);
        last = now;
        const elapsed = now - start;
        if (elapsed >= plan.durationMs) break;
        let next: number;
        if (plan.mode === "sweep") next = (range * elapsed) / plan.durationMs;
        else {
          // Ping-pong, so a short list is scrolled as long (and as fast) as a long one.
          const travelled = (plan.pxPerSecond * elapsed) / 1000;
          const lap = range > 0 ? travelled % (2 * range) : 0;
          next = lap <= range ? lap : 2 * range - lap;
        }
        distance += Math.abs(next - position);
        position = next;
        box.scrollTop = next;
      }
      const name = box === document.scrollingElement ? "document" : `${box.tagName.toLowerCase()}${box.className ? `.${String(box.className).split(/\s+/)[0]}` : ""}`;
      return { intervals, distance, range, scroller: name };
    },

    async frames(durationMs) {
      let last = await nextFrame();
      const start = last;
      const intervals: number[] = [];
      while (last - start < durationMs) {
        const now = await nextFrame();
        intervals.push(now - last);
        last = now;
      }
      return intervals;
    },

    stats: () => ({
      heapBytes: (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null,
      domElements: document.getElementsByTagName("*").length,
      renderedCards: cards().length,
    }),
  };
}
