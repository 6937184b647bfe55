import fs from "node:fs/promises";
import type { z } from "zod";
import { HomeFeedSource, type HomeFeed } from "../../api/home";
import type { Locale } from "../../api/locales";

export interface HomeFeedDeps {
  /** HOME_FEED: a JSON file's path or an http(s) URL; null: the entries shipped with the app. */
  config: { source: string; refreshMs: number } | null;
  log: { warn: (fields: Record<string, unknown>, message: string) => void };
  /** Tests may count reads. */
  now?: () => number;
}

const MAX_FEED_BYTES = 256 * 1024;
const FETCH_TIMEOUT_MS = 5_000;

/** A source as a log may show it: a URL without its query (a key may travel there), a file as it is. */
const shownSource = (source: string) => (/^https?:\/\//i.test(source) ? source.replace(/[?#].*$/, "") : source);

async function readSource(source: string): Promise<string> {
  if (!/^https?:\/\//i.test(source)) {
    const stat = await fs.stat(source);
    if (stat.size > MAX_FEED_BYTES) throw new Error(`larger than ${MAX_FEED_BYTES} bytes`);
    return fs.readFile(source, "utf8");
  }
  const res = await fetch(source, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "follow", headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`answered ${res.status}`);
  const text = await res.text();
  if (Buffer.byteLength(text) > MAX_FEED_BYTES) throw new Error(`larger than ${MAX_FEED_BYTES} bytes`);
  return text;
}

type Source = z.output<typeof HomeFeedSource>;
const pick = (text: string | Partial<Record<Locale, string>>, locale: string) => (typeof text === "string" ? text : (text[locale as Locale] ?? text.en!));

/**
 * Home's tips and updates (SPEC §2 Home) from a feed the operator configures. The server reads it (the app never
 * fetches a third-party URL), checks it against the schema, and answers it in the user's language; a feed that
 * cannot be read or is not valid gives the shipped entries, with a log line saying why.
 */
export function createHomeFeed(deps: HomeFeedDeps) {
  const now = deps.now ?? Date.now;
  let cached: { at: number; feed: Source | null } | null = null;
  let loading: Promise<Source | null> | null = null;

  async function load(): Promise<Source | null> {
    const config = deps.config!;
    try {
      const text = await readSource(config.source);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new Error("not JSON");
      }
      const parsed = HomeFeedSource.safeParse(json);
      if (!parsed.success) throw new Error(parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "));
      return parsed.data;
    } catch (error) {
      deps.log.warn({ feed: shownSource(config.source), reason: error instanceof Error ? error.message : String(error) }, "home feed not usable; showing the shipped tips");
      return null;
    }
  }

  async function current(): Promise<Source | null> {
    if (!deps.config) return null;
    if (cached && now() - cached.at < deps.config.refreshMs) return cached.feed;
    loading ??= load().then((feed) => {
      cached = { at: now(), feed };
      loading = null;
      return feed;
    });
    return loading;
  }

  return {
    async entries(locale: string): Promise<HomeFeed> {
      const feed = await current();
      if (!feed) return { entries: null };
      return { entries: feed.entries.map((e) => ({ id: e.id, kind: e.kind, title: pick(e.title, locale), body: pick(e.body, locale), url: e.url ?? null })) };
    },
  };
}
export type HomeFeedService = ReturnType<typeof createHomeFeed>;
