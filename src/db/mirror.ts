import type { liveQuery } from "dexie";
import type { PublicConfig } from "../../api/config";
import type { CutroomDb } from "./index";
import { PAGE_CONFIG_ID } from "../../api/page-config";

/**
 * Issue 18: the IndexedDB mirror (`./index`, with Dexie: ~30 KB compressed) loads only where there is one.
 * A visitor's first visit has none until the sync worker makes it at their first action, so the sign-in
 * pages read the set-up the server wrote into the page and know nobody is signed in, without Dexie.
 * Where the browser holds the database (signed in, or signed out after a visit) it loads before the first
 * render, as it always did.
 */
export const DB_NAME = "cutroom";

/** What views need of the mirror: the database and Dexie's live queries. */
interface Mirror {
  db: CutroomDb;
  liveQuery: typeof liveQuery;
}

let loaded: Mirror | undefined;
let loading: Promise<Mirror> | undefined;
let probed: Promise<boolean> | undefined;
/** The probe's answer once known: false only while this browser holds no mirror. */
let present: boolean | undefined;
const listeners = new Set<(mirror: Mirror) => void>();

/** Called by `./index` when it runs, however it was imported: from then on the mirror is there. */
export function mirrorLoaded(mirror: Mirror) {
  loaded = mirror;
  present = true;
  for (const listener of listeners) listener(mirror);
  listeners.clear();
}

/** Whether this browser holds the mirror. A browser that cannot list its databases is taken to hold it. */
export function mirrorPresent(): Promise<boolean> {
  // Loaded since the probe (the sync worker made it at a visitor's first action): there now.
  if (loaded || loading) return Promise.resolve(true);
  probed ??= (async () => {
    if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return true;
    const databases = await indexedDB.databases().catch(() => undefined);
    return !databases || databases.some((d) => d.name === DB_NAME);
  })().then((answer) => (present ??= answer));
  return probed;
}

/** Loads the mirror (Dexie and the schema); views watching it start their queries. */
export function loadMirror(): Promise<Mirror> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import("./index").then(() => loaded!);
  return loading;
}

/** The mirror when this browser holds one, else null (without loading Dexie). */
export async function openMirrorIfAny(): Promise<Mirror | null> {
  return (await mirrorPresent()) ? loadMirror() : null;
}

/** True when the probe found no mirror and none was loaded since: a visitor's first visit. */
export const mirrorAbsent = () => present === false && !loaded && !loading;

/** Calls `listener` with the mirror once it is loaded (at once if it is); answers the unsubscribe. */
export function whenMirror(listener: (mirror: Mirror) => void): () => void {
  if (loaded) {
    listener(loaded);
    return () => undefined;
  }
  listeners.add(listener);
  void mirrorPresent().then((yes) => {
    if (yes) void loadMirror();
  });
  return () => void listeners.delete(listener);
}

let pageConfigRead: PublicConfig | null | undefined;
/**
 * The set-up the server embeds in the app shell (`<script id="cutroom-config" type="application/json">`),
 * so a first visit renders without waiting for the sync worker. Absent in the worker and in a shell the
 * service worker cached; then the mirror's copy (written by the worker's boot) is the one.
 */
export function pageConfig(): PublicConfig | null {
  if (pageConfigRead === undefined) {
    const text = typeof document === "undefined" ? null : document.getElementById(PAGE_CONFIG_ID)?.textContent;
    try {
      pageConfigRead = text ? (JSON.parse(text) as PublicConfig) : null;
    } catch {
      pageConfigRead = null;
    }
  }
  return pageConfigRead;
}

/** The signed-in user, or null when nobody is (no mirror: nobody). */
export const currentUser = async () => (await openMirrorIfAny())?.db.currentUser() ?? null;

/** The server's public set-up: the mirror's copy when there is a mirror, else the page's. */
export const publicConfig = async (): Promise<PublicConfig | null> => {
  const mirror = await openMirrorIfAny();
  return mirror ? mirror.db.config() : pageConfig();
};
