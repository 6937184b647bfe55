/**
 * Offline chaos (issue 12, "Keep every promise as a suite"): hundreds of attribute edits over 20 scenes
 * while the network flaps on a seeded schedule; some answers are cut off after the server applied them
 * (a reset, or a proxy's 504), now and then the server is away behind its proxy for a few seconds
 * (502/503/504), the page reloads (once in two with an applied edit's answer still on the wire), a tab
 * is closed with edits waiting and a second tab edits at the same time as the first. Then the server's
 * scenes must equal the edits applied in order: 0 lost, 0 applied twice — checked on the server's
 * Idempotency-Key rows (one per edit, first run in edit order per scene), on every answer the test saw
 * (no key run twice), and on every attribute of every scene (the value of its last edit; text lines
 * name their edit's number).
 *
 * How the edits are driven, honestly: only part of them by clicks. An edit of one of the first 8 scenes
 * (the cards the virtualised grid always mounts at the top) other than a trim goes through the
 * storyboard's own controls (Remove/Restore, the text editor, the type menu, the volume dialog) 40 % of
 * the time; every other edit is sent through `window.cutroom.worker`, the very sync-worker actions those
 * controls call (src/worker.ts), with the same optimistic mirror, outbox, Idempotency-Keys and
 * service-worker replay. 500 edits by clicks alone take minutes more than `npm test` can spend; the
 * figures line prints the split (ui_edits, worker_api_edits) and the time taken.
 *
 * CHAOS_SEED=<n> replays one schedule of edits and events (the network's timing stays real).
 */
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { reportFigures, seededRandom, soakOr } from "../reliability";
import { apiToken, createUser, processedProject, readStore, signIn, userApi } from "./helpers";

const EDITS = soakOr(500, 2_000);
const SCENES = 20;
const RELOADS = soakOr(3, 12);
const CLOSED_TABS = soakOr(2, 6);
const SECOND_TAB_PHASES = soakOr(1, 4);
/** Edits made while the second tab is open: half in each tab, at the same time, on scenes of their own. */
const SECOND_TAB_EDITS = 40;
/** Edits made offline just before a tab is closed, so they wait in its outbox. */
const EDITS_BEFORE_CLOSE = 6;
/** Share of the edits that a person makes on the page (the others go through the worker's API). */
const UI_SHARE = 0.4;
/** Cards of the first rows, always mounted by the virtualised grid at the top of the page. */
const UI_ORDERS = 8;
/** Share of sent edits whose answer is cut off after the server applied it. */
const ABORT_RATE = 0.07;
/** Chance per sent edit that the server behind its reverse proxy goes away for 1–6 s (502/503/504 meanwhile). */
const OUTAGE_RATE = 0.01;
/** Share of sent edits the server applies but whose proxy gives up waiting (504 instead of the answer). */
const GATEWAY_TIMEOUT_RATE = 0.02;
const SEED = Number(process.env.CHAOS_SEED ?? 20261124);

type Rng = ReturnType<typeof seededRandom>;

const round3 = (t: number) => Math.round(t * 1000) / 1000;
const MEDIA_AUDIO = ["mute", "low", "standard", "loud", "extraloud"] as const;
const MUSIC_TYPE = ["bgmmute", "bgmlow", "bgmstandard", "bgmloud", "mainmusic"] as const;
const TYPES = ["intro", "default", "outro"] as const;
const FOOTAGE_LABEL: Record<(typeof MEDIA_AUDIO)[number], string> = { mute: "Mute", low: "Low", standard: "Medium", loud: "High", extraloud: "Full" };
const TYPE_LABEL: Record<(typeof TYPES)[number], string> = { intro: "Intro", default: "Default", outro: "Outro" };
/** The scene-edit requests the outbox and the service worker send (reads carry no key). */
const SCENE_EDIT = /^\/api\/v1\/scenes\/\d+(\/(trim|removelines|overscene|show|hide|type(\/(intro|outro))?))?$/;

/** What the test expects of one scene: every attribute is the value of its last edit. */
interface Model {
  trim_start: number;
  trim_end: number;
  visibility: 0 | 1;
  type: (typeof TYPES)[number];
  mediaAudio: (typeof MEDIA_AUDIO)[number];
  musicType: (typeof MUSIC_TYPE)[number];
  text: string[];
}

const card = (page: Page, order: number) => page.getByRole("article", { name: `Scene ${order}`, exact: true });
const cards = (page: Page) => page.getByRole("list", { name: "Scenes" }).getByRole("article");


/** The user's stored Idempotency-Keys for scene edits, in the order the server first ran them. */
function storedKeys(email: string): { key: string; method: string; path: string; status: number | null }[] {
  const db = new Database(path.resolve(E2E_DATA_DIR, "cutroom.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT k.key, k.method, k.path, k.status FROM idempotency_keys k JOIN users u ON u.id = k.user_id
         WHERE u.email = ? AND k.path LIKE '/api/v1/scenes/%' ORDER BY k.created_at, k.rowid`,
      )
      .all(email.toLowerCase()) as { key: string; method: string; path: string; status: number | null }[];
  } finally {
    db.close();
  }
}

/** Opens the storyboard and waits until the page's sync worker can be driven. */
async function openStoryboard(page: Page, projectId: number) {
  await page.goto(`/projects/${projectId}/storyboard`);
  await ready(page);
}

async function ready(page: Page) {
  await expect(cards(page).first()).toBeVisible({ timeout: 30_000 });
  await page.waitForFunction(() => !!(window as { cutroom?: unknown }).cutroom);
}

/** One edit through the sync worker's API (what the storyboard's controls call). */
async function viaWorker(page: Page, command: string, args: unknown[], options: { interrupted?: boolean } = {}) {
  const call = page.evaluate(
    async ({ command, args }) => {
      const worker = (window as unknown as { cutroom: { worker: Record<string, (...a: unknown[]) => Promise<any>> } }).cutroom.worker;
      const r = await worker[command]!(...args);
      return { ok: r.ok as boolean, queued: !!r.queued, failure: r.ok ? null : r.failure };
    },
    { command, args },
  );
  // An edit whose page is reloaded or closed under it never hears its answer; the outbox still has it.
  const result = options.interrupted ? await call.catch(() => ({ ok: true, queued: true, failure: null })) : await call;
  expect(result.ok, `${command} ${JSON.stringify(args)}: ${JSON.stringify(result.failure)}`).toBe(true);
  return result;
}

/** The network flaps on a seeded schedule until stopped; `hold` pins it (a closed tab's offline edits). */
function flapper(context: BrowserContext, seed: number) {
  const rng = seededRandom(seed);
  let stopped = false;
  let hold: boolean | null = null;
  let offline = false;
  let flaps = 0;
  let wake: () => void = () => undefined;
  const set = async (value: boolean) => {
    if (value === offline) return;
    offline = value;
    if (value) flaps += 1;
    // A tab or the service worker closing at that moment fails the switch for its target ("Target page,
    // context or browser has been closed"): the targets left take it on a second try.
    for (let attempt = 1; ; attempt++) {
      try {
        await context.setOffline(value);
        return;
      } catch (error) {
        if (attempt >= 3 || !/has been closed/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  const done = (async () => {
    while (!stopped) {
      if (hold !== null) await set(hold);
      else await set(!offline);
      // Offline for 0.15–0.9 s, online for 0.3–2 s.
      const ms = offline ? rng.between(150, 900) : rng.between(300, 2_000);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, ms);
      });
    }
    await set(false);
  })();
  return {
    get offline() {
      return offline;
    },
    get flaps() {
      return flaps;
    },
    /** Pins the network (true: offline) until released with null. */
    async hold(value: boolean | null) {
      hold = value;
      if (value !== null) await set(value);
      wake();
    },
    async stop() {
      stopped = true;
      wake();
      await done;
    },
  };
}

// A control that never answers fails the edit that waited on it, not the whole run's time budget.
test.use({ actionTimeout: 20_000 });

test("offline chaos: edits over a flapping network, reloads, closed and second tabs land exactly once, in order", async ({ page, context, request, baseURL }) => {
  test.setTimeout(soakOr(600_000, 1_800_000));
  const started = Date.now();
  const mainRng = seededRandom(SEED);
  const netRng = seededRandom(SEED ^ 0x5eed);
  console.log(`[chaos] seed=${SEED} edits=${EDITS}`);

  // ── A project of 20 scenes (talk.mp4's scenes, duplicated through the API) ─────────────────
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const api = userApi(request, token);
  const projectId = await processedProject(api, baseURL!, token, "Edited in a storm");
  let scenes = await api.scenes(projectId);
  for (let i = 0; scenes.length < SCENES; i++) {
    await api.post(`/scenes/${scenes[i % scenes.length].id}/duplicate`);
    scenes = await api.scenes(projectId);
  }
  scenes = scenes.slice(0, SCENES);
  const model = new Map<number, Model>(
    scenes.map((s) => [
      s.id,
      { trim_start: s.trim_start, trim_end: s.trim_end, visibility: s.visibility, type: s.type, mediaAudio: s.mediaAudio, musicType: s.musicType, text: s.text.map((l: { text: string }) => l.text) },
    ]),
  );
  const bounds = new Map<number, { start: number; end: number; order: number }>(scenes.map((s) => [s.id, { start: s.start, end: s.end, order: s.order }]));
  const setupSeconds = (Date.now() - started) / 1000;

  // ── Every scene edit passes here: some answers are cut off after the server applied them ────
  const seen = new Map<string, { firstRuns: number; replays: number; failures: number }>();
  let abortedInFlight = 0;
  let outageUntil = 0;
  /** After the last edit: the network and the proxy behave, so what is left drains. */
  let calm = false;
  /** While no tab is open, only the service worker's background sync can send. */
  let noTab = false;
  let sentWithNoTab = 0;
  let outages = 0;
  let gatewayErrors = 0;
  let gatewayTimeoutsAfterApply = 0;
  /** Set to hold the next sent edit's answer (the server has applied it) while the page reloads. */
  let stall: { held: () => void; released: Promise<void> } | null = null;
  let offlineNow = false;
  await context.route(
    (url) => SCENE_EDIT.test(url.pathname),
    async (route, req) => {
      const key = req.headers()["idempotency-key"];
      if (!key) return route.fallback();
      if (noTab) sentWithNoTab += 1;
      // route.fetch() goes out from the test, past the browser's offline switch: while offline, fail as the browser would.
      if (offlineNow) return route.abort("internetdisconnected");
      // The server restarts behind its reverse proxy: the proxy answers every edit itself for a while.
      if (stall || calm) outageUntil = 0;
      else if (Date.now() < outageUntil || netRng.next() < OUTAGE_RATE) {
        if (Date.now() >= outageUntil) {
          outageUntil = Date.now() + netRng.between(1_000, 6_000);
          outages += 1;
        }
        gatewayErrors += 1;
        const status = netRng.pick([502, 503, 504]);
        return route.fulfill({ status, contentType: "text/html", body: `<html><body><h1>${status}</h1>nginx</body></html>` });
      }
      const cut = !calm && netRng.next() < ABORT_RATE;
      let response;
      try {
        response = await route.fetch();
      } catch {
        return route.abort("connectionreset");
      }
      const tally = seen.get(key) ?? { firstRuns: 0, replays: 0, failures: 0 };
      if (response.ok()) {
        if (response.headers()["idempotent-replayed"] === "true") tally.replays += 1;
        else tally.firstRuns += 1;
      } else tally.failures += 1;
      seen.set(key, tally);
      if (stall) {
        const { held, released } = stall;
        stall = null;
        held();
        await released;
        abortedInFlight += 1;
        return route.abort("connectionreset").catch(() => undefined);
      }
      if (cut) {
        abortedInFlight += 1;
        return route.abort("connectionreset");
      }
      if (!calm && netRng.next() < GATEWAY_TIMEOUT_RATE) {
        gatewayTimeoutsAfterApply += 1;
        return route.fulfill({ status: 504, contentType: "text/html", body: "<html><body><h1>504 Gateway Time-out</h1>nginx</body></html>" });
      }
      return route.fulfill({ response });
    },
  );

  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  await openStoryboard(page, projectId);
  // Under the service worker (which keeps failed sends for background sync) from here on.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await ready(page);
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

  const net = flapper(context, SEED ^ 0xf1a9);
  const setOffline = async (value: boolean | null) => {
    await net.hold(value);
  };
  // Keep the route's view of the network in step with the flapper.
  const syncOffline = setInterval(() => (offlineNow = net.offline), 20);

  /** The requests the server should have run, in order: what each edit sends. */
  const expectedRequests: string[] = [];
  let uiEdits = 0;
  let reloads = 0;
  let closedTabs = 0;
  let reloadsMidSend = 0;
  let secondTabs = 0;
  let n = 0;

  /** Makes edit number `n` (1-based) on `driver`: a person's click when `ui`, else the worker's API. */
  async function edit(driver: Page, options: { ui?: boolean; interrupted?: boolean; rng?: Rng; pool?: typeof scenes } = {}) {
    const rng = options.rng ?? mainRng;
    const pool = options.pool ?? scenes;
    n += 1;
    if (n % 50 === 0) console.log(`[chaos] edit ${n} at ${Math.round((Date.now() - started) / 1000)} s, ${net.flaps} flaps, ${abortedInFlight} cut off`);
    const sceneId = pool[rng.int(pool.length)]!.id;
    const m = model.get(sceneId)!;
    const b = bounds.get(sceneId)!;
    const roll = rng.next();
    const kind = roll < 0.3 ? "text" : roll < 0.5 ? "visibility" : roll < 0.65 ? "trim" : roll < 0.8 ? "volume" : roll < 0.95 ? "type" : "removeLines";
    const wantsUi = options.ui ?? rng.next() < UI_SHARE;
    const ui = wantsUi && b.order <= UI_ORDERS && kind !== "trim" && kind !== "removeLines";
    const base = `/api/v1/scenes/${sceneId}`;
    if (ui) uiEdits += 1;
    switch (kind) {
      case "text": {
        // The text names the edit: a lost, doubled or late edit shows in the final text.
        const text = `#${n} s${sceneId}`;
        if (ui) {
          await driver.getByRole("button", { name: `Edit text of scene ${b.order}`, exact: true }).click();
          const form = driver.getByRole("form", { name: `Text lines of scene ${b.order}`, exact: true });
          const line = form.getByRole("textbox", { name: "Line 1", exact: true });
          if (m.text.length === 0) await form.getByRole("button", { name: "Add a line" }).click();
          await line.fill(text);
          await line.press("Enter");
          await expect(form).toBeHidden();
          m.text = m.text.length === 0 ? [text] : [text, ...m.text.slice(1)];
        } else {
          const lines = rng.next() < 0.3 ? [text, `#${n} second`] : [text];
          const span = (b.end - b.start) / lines.length;
          await viaWorker(driver, "setSceneText", [sceneId, lines.map((t, i) => ({ start: round3(b.start + i * span), end: round3(b.start + (i + 1) * span), text: t }))], options);
          m.text = lines;
        }
        expectedRequests.push(`PUT ${base}`);
        break;
      }
      case "visibility": {
        const show = ui ? m.visibility === 0 : rng.next() < 0.5;
        if (ui) await driver.getByRole("button", { name: `${show ? "Restore" : "Remove"} scene ${b.order}`, exact: true }).click();
        else await viaWorker(driver, show ? "showScene" : "hideScene", [sceneId], options);
        if (ui) await expect(driver.getByRole("button", { name: `${show ? "Remove" : "Restore"} scene ${b.order}`, exact: true })).toBeVisible();
        m.visibility = show ? 1 : 0;
        expectedRequests.push(`GET ${base}/${show ? "show" : "hide"}`);
        break;
      }
      case "trim": {
        const len = b.end - b.start;
        let start = round3(b.start + rng.next() * len * 0.4);
        let end = round3(b.end - rng.next() * len * 0.4);
        if (end - start < 0.04) [start, end] = [b.start, b.end];
        await viaWorker(driver, "trimScene", [sceneId, start, end], options);
        m.trim_start = start;
        m.trim_end = end;
        expectedRequests.push(`PUT ${base}/trim`);
        break;
      }
      case "volume": {
        if (ui) {
          const level = rng.pick(MEDIA_AUDIO.filter((v) => v !== m.mediaAudio));
          await driver.getByRole("button", { name: `More actions for scene ${b.order}`, exact: true }).click();
          await driver.getByRole("menuitem", { name: "Volume", exact: true }).click();
          const dialog = driver.getByRole("dialog", { name: `Volume of scene ${b.order}`, exact: true });
          const footage = dialog.getByRole("radiogroup", { name: "Footage volume" });
          await footage.getByText(FOOTAGE_LABEL[level], { exact: true }).click();
          await expect(footage.getByRole("radio", { name: FOOTAGE_LABEL[level] })).toBeChecked();
          await dialog.getByRole("button", { name: "Save" }).click();
          await expect(dialog).toBeHidden();
          m.mediaAudio = level;
        } else {
          const patch = { mediaAudio: rng.pick(MEDIA_AUDIO), musicType: rng.pick(MUSIC_TYPE) };
          await viaWorker(driver, "setSceneAttributes", [sceneId, patch], options);
          Object.assign(m, patch);
        }
        expectedRequests.push(`PUT ${base}`);
        break;
      }
      case "type": {
        const type = ui ? rng.pick(TYPES.filter((t) => t !== m.type)) : rng.pick(TYPES);
        if (ui) {
          await driver.getByRole("button", { name: `More actions for scene ${b.order}`, exact: true }).click();
          // The submenu by keyboard (→ opens it, Enter picks). By pointer, the parent menu once stayed
          // open after the pick in a 2,000-edit soak run (seed 4242; not reproduced since, cause unknown).
          await driver.getByRole("menuitem", { name: "Change type", exact: true }).press("ArrowRight");
          const choice = driver.getByRole("menuitemradio", { name: new RegExp(`^${TYPE_LABEL[type]}`) });
          await choice.focus();
          await expect(choice).toBeFocused();
          await choice.press("Enter");
          await expect(driver.getByRole("menu")).toHaveCount(0);
        } else await viaWorker(driver, "setSceneType", [sceneId, type], options);
        m.type = type;
        expectedRequests.push(`GET ${base}/type${type === "default" ? "" : `/${type}`}`);
        break;
      }
      case "removeLines": {
        await viaWorker(driver, "removeSceneLines", [sceneId], options);
        m.text = [];
        expectedRequests.push(`POST ${base}/removelines`);
        break;
      }
    }
  }

  // ── The schedule: events spread over the run, in a seeded order ────────────────────────────
  type Event = "reload" | "closeTab" | "secondTab";
  const events: Event[] = [...Array<Event>(RELOADS).fill("reload"), ...Array<Event>(CLOSED_TABS).fill("closeTab"), ...Array<Event>(SECOND_TAB_PHASES).fill("secondTab")];
  for (let i = events.length - 1; i > 0; i--) {
    const j = mainRng.int(i + 1);
    [events[i], events[j]] = [events[j]!, events[i]!];
  }
  // Every second reload happens with an edit on the wire (one edit of its own).
  const eventEdits = events.reduce((sum, e) => sum + (e === "closeTab" ? EDITS_BEFORE_CLOSE : e === "secondTab" ? SECOND_TAB_EDITS : 0), 0) + Math.floor(RELOADS / 2);
  const plain = EDITS - eventEdits;
  const eventAt = events.map((_, i) => Math.round(((i + 1) * plain) / (events.length + 1)));

  let current = page;
  try {
    let plainDone = 0;
    for (let e = 0; e <= events.length; e++) {
      const until = e < events.length ? eventAt[e]! : plain;
      for (; plainDone < until; plainDone++) await edit(current);
      if (e === events.length) break;
      const event = events[e]!;
      if (event === "reload" && reloads % 2 === 1) {
        // Reload while an edit is on the wire: the server applied it, the page never heard back. The new
        // page's sync worker sends it again with its key (and the service worker may replay it too).
        await setOffline(false);
        const before = new Set((await readStore(current, "cutroom", "outbox")).map((e) => e.idempotencyKey as string));
        let held!: () => void;
        let release!: () => void;
        const isHeld = new Promise<void>((resolve) => (held = resolve));
        stall = { held, released: new Promise<void>((resolve) => (release = resolve)) };
        const interrupted = edit(current, { ui: false, interrupted: true });
        await Promise.race([isHeld, new Promise((_, reject) => setTimeout(() => reject(new Error("no edit was sent while online")), 30_000))]);
        // The held send may be an older edit's: the new one is in the outbox before the page goes.
        await expect.poll(async () => (await readStore(current, "cutroom", "outbox")).some((e) => !before.has(e.idempotencyKey))).toBe(true);
        await current.reload();
        release();
        await interrupted;
        await ready(current);
        await setOffline(null);
        reloads += 1;
        reloadsMidSend += 1;
      } else if (event === "reload") {
        await current.reload();
        await ready(current);
        reloads += 1;
      } else if (event === "closeTab") {
        // Offline edits wait in the outbox; the tab closes with them; a new one opens later.
        await setOffline(true);
        for (let i = 0; i < EDITS_BEFORE_CLOSE; i++) await edit(current, { ui: false });
        expect((await readStore(current, "cutroom", "outbox")).length).toBeGreaterThan(0);
        await current.close();
        noTab = true;
        closedTabs += 1;
        // Online with no tab: the service worker's background sync may send some of them meanwhile
        // (sent_with_no_tab_open counts it; in headless Chromium under the emulated offline switch it has not
        // fired within these 3 s in our runs — the new tab's outbox is what must send them).
        await setOffline(false);
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        await setOffline(null);
        noTab = false;
        current = await context.newPage();
        await openStoryboard(current, projectId);
      } else {
        // A second tab edits at the same time as the first: both sync workers share one outbox and take
        // turns sending it through a Web Lock. Each tab edits scenes of its own, so each scene's edits
        // still have one order to check.
        const second = await context.newPage();
        await openStoryboard(second, projectId);
        secondTabs += 1;
        const mine = scenes.slice(0, SCENES / 2);
        const theirs = scenes.slice(SCENES / 2);
        const [rngA, rngB] = [seededRandom(SEED + 1_000 * secondTabs), seededRandom(SEED + 1_000 * secondTabs + 1)];
        await Promise.all([
          (async () => {
            for (let i = 0; i < SECOND_TAB_EDITS / 2; i++) await edit(current, { rng: rngA, pool: mine });
          })(),
          (async () => {
            for (let i = 0; i < SECOND_TAB_EDITS / 2; i++) await edit(second, { rng: rngB, pool: theirs, ui: false });
          })(),
        ]);
        await second.close();
      }
    }
    expect(n).toBe(EDITS);
  } finally {
    clearInterval(syncOffline);
    await net.stop();
    offlineNow = false;
    calm = true;
  }
  const editSeconds = (Date.now() - started) / 1000 - setupSeconds;

  // ── Back online for good: everything drains on its own ────────────────────────────────────
  await expect.poll(async () => (await readStore(current, "cutroom", "outbox")).length, { timeout: 120_000 }).toBe(0);
  await expect.poll(() => storedKeys(email).length, { timeout: 30_000 }).toBe(EDITS);
  const keys = storedKeys(email);
  expect(await readStore(current, "cutroom", "failedEdits")).toEqual([]);

  // 0 lost, 0 applied twice: one stored answer per edit, every one a success, first run in edit order…
  expect(keys.every((k) => k.status === 200)).toBe(true);
  // (Per scene: while two tabs edit at once, edits of different scenes may interleave either way.)
  const byScene = (requests: string[]) => {
    const map = new Map<string, string[]>();
    for (const r of requests) {
      const id = r.match(/\/scenes\/(\d+)/)![1]!;
      map.set(id, [...(map.get(id) ?? []), r]);
    }
    return Object.fromEntries([...map].sort(([a], [b]) => Number(a) - Number(b)));
  };
  expect(byScene(keys.map((k) => `${k.method} ${k.path}`))).toEqual(byScene(expectedRequests));
  // …and every key the server ran more than once answered its stored result (no second run).
  const twice = [...seen.values()].filter((t) => t.firstRuns > 1).length;
  expect(twice).toBe(0);
  expect(keys.filter((k) => (seen.get(k.key)?.firstRuns ?? 0) === 0)).toEqual([]);
  expect(abortedInFlight).toBeGreaterThan(0);

  // The server's scenes are the edits applied in order.
  const server = new Map((await api.scenes(projectId)).map((s) => [s.id, s]));
  for (const [id, want] of model) {
    const got = server.get(id)!;
    expect({
      id,
      trim_start: got.trim_start,
      trim_end: got.trim_end,
      visibility: got.visibility,
      type: got.type,
      mediaAudio: got.mediaAudio,
      musicType: got.musicType,
      text: got.text.map((l: { text: string }) => l.text),
    }).toEqual({ id, ...want });
  }
  // The page shows the same.
  await current.reload();
  await ready(current);
  await expect(current.getByText("Waiting to sync")).toHaveCount(0);
  for (const s of scenes.filter((s) => s.order <= UI_ORDERS)) {
    const want = model.get(s.id)!;
    if (want.text.length) await expect(card(current, s.order)).toContainText(want.text[0]!);
    await expect(card(current, s.order).getByText("Removed", { exact: true })).toHaveCount(want.visibility ? 0 : 1);
  }

  const replays = [...seen.values()].reduce((sum, t) => sum + t.replays, 0);
  reportFigures("offline-chaos", {
    edits: n,
    scenes: SCENES,
    ui_edits: uiEdits,
    worker_api_edits: n - uiEdits,
    flaps: net.flaps,
    reloads,
    reloads_mid_send: reloadsMidSend,
    closed_tabs: closedTabs,
    second_tabs: secondTabs,
    aborted_in_flight: abortedInFlight,
    gateway_outages: outages,
    gateway_errors: gatewayErrors,
    gateway_timeouts_after_apply: gatewayTimeoutsAfterApply,
    replayed_answers: replays,
    sent_with_no_tab_open: sentWithNoTab,
    lost: EDITS - keys.length,
    applied_twice: twice,
    seed: SEED,
    setup_seconds: Math.round(setupSeconds),
    edit_seconds: Math.round(editSeconds),
    seconds: Math.round((Date.now() - started) / 1000),
  });
});
