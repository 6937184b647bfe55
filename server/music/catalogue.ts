import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Db } from "../db";
import { catalogueKey, listSongFiles, markSongsUnavailable, upsertSong, type SongInput } from "../db/songs";
import { runFfprobe } from "../media/ffmpeg";
import { probe } from "../media/probe";

/** A song longer than this is not background music (and would make every render read a long file). */
export const MAX_SONG_SECONDS = 20 * 60;
/** Shorter than this is a jingle or a broken file. */
export const MIN_SONG_SECONDS = 1;
/** The files of MUSIC_DIR read as songs (by extension; what they hold is decided by the probe). */
export const MUSIC_EXTENSIONS = new Set([".mp3", ".ogg", ".opus", ".m4a", ".flac", ".wav"]);
/** How deep and how many files of MUSIC_DIR are looked at: a mistaken MUSIC_DIR=/ must not walk the disk. */
const MAX_DEPTH = 8;
const MAX_FILES = 10_000;
const MAX_TAG = 60;
const MAX_TAGS = 12;
const MAX_TEXT = 200;

export interface MusicDirs {
  catalogueDir: string;
  musicDir: string | null;
}

export interface MusicLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface SyncSummary {
  catalogue: number;
  library: number;
  added: number;
  removed: number;
  skipped: number;
}

/**
 * catalogue.json as the composer writes it. Lenient on purpose (ids or slugs, seconds or milliseconds, the licence as
 * an object or an id) so a change of the generator's output does not empty the catalogue; anything unusable is skipped.
 */
const Licence = z.union([
  z.object({ id: z.string().min(1).max(MAX_TAG), attribution: z.string().max(500).nullish() }),
  z.string().min(1).max(MAX_TAG).transform((id) => ({ id, attribution: null })),
]);
const Tags = z.array(z.string()).max(50).default([]);
const Track = z.object({
  slug: z.string().optional(),
  id: z.string().optional(),
  title: z.string().min(1).max(MAX_TEXT),
  author: z.string().max(MAX_TEXT).default("Cutroom"),
  licence: Licence,
  genre_tags: Tags,
  instrument_tags: Tags,
  video_theme_tags: Tags,
  file: z.string().min(1).max(300),
  duration_ms: z.number().positive().optional(),
  duration: z.number().positive().optional(),
  loop: z.object({ start_ms: z.number().min(0), end_ms: z.number().positive() }).nullish(),
  loop_start: z.number().min(0).optional(),
  loop_end: z.number().positive().optional(),
  energy: z.number().int().min(1).max(3).nullish(),
  tempo: z.number().positive().nullish(),
});
const Catalogue = z.object({ tracks: z.array(z.unknown()) });

const SLUG = /^[a-z0-9][a-z0-9_-]{0,99}$/;
/** Licences a published video can carry without conditions we cannot meet (no share-alike, non-commercial, no-derivatives). */
const REFUSED_LICENCE = /(^|[-_ ])(NC|ND|SA)([-_ ]|$)/i;

/** Tags as the catalogue and the filters use them: trimmed, lower-case, unique, bounded. */
export function cleanTags(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const tag = value.trim().toLowerCase().replace(/\s+/g, " ").slice(0, MAX_TAG);
    if (tag && !out.includes(tag)) out.push(tag);
    if (out.length >= MAX_TAGS) break;
  }
  return out;
}

/** "Rock; Indie/Pop, Lo-Fi" → ["rock", "indie", "pop", "lo-fi"]. */
export const splitTags = (value: string | undefined): string[] => (value ? cleanTags(value.split(/[,;/]/)) : []);

/** A path inside `root` (both already resolved); `..` or an absolute name never leaves it. */
function inside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** One catalogue.json entry → what the table keeps, or a reason it is skipped. */
export function catalogueSong(raw: unknown, catalogueDir: string): { song: Omit<SongInput, "file_size" | "file_mtime_ms">; file: string } | { skip: string } {
  const parsed = Track.safeParse(raw);
  if (!parsed.success) return { skip: `unreadable entry: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  const t = parsed.data;
  const slug = t.slug ?? t.id ?? "";
  if (!SLUG.test(slug)) return { skip: `bad slug ${JSON.stringify(slug).slice(0, 60)}` };
  if (REFUSED_LICENCE.test(t.licence.id)) return { skip: `licence ${t.licence.id} is not allowed for background music` };
  const file = path.resolve(catalogueDir, t.file);
  if (!inside(catalogueDir, file)) return { skip: `file outside the catalogue: ${t.file}` };
  const durationMs = Math.round(t.duration_ms ?? (t.duration ?? 0) * 1000);
  if (!(durationMs >= MIN_SONG_SECONDS * 1000) || durationMs > MAX_SONG_SECONDS * 1000) return { skip: `duration ${durationMs} ms` };
  const loopStart = t.loop ? t.loop.start_ms : t.loop_start !== undefined ? t.loop_start * 1000 : null;
  const loopEnd = t.loop ? t.loop.end_ms : t.loop_end !== undefined ? t.loop_end * 1000 : null;
  const loopOk = loopStart !== null && loopEnd !== null && loopEnd > loopStart && loopEnd <= durationMs + 1;
  return {
    file,
    song: {
      source: "catalogue",
      key: catalogueKey(slug, path.relative(catalogueDir, file).split(path.sep).join("/")),
      title: t.title.trim(),
      author: t.author.trim() || "Cutroom",
      genre_tags: cleanTags(t.genre_tags),
      instrument_tags: cleanTags(t.instrument_tags),
      video_theme_tags: cleanTags(t.video_theme_tags),
      licence_id: t.licence.id,
      attribution: t.licence.attribution?.trim() || null,
      duration_ms: durationMs,
      loop_start_ms: loopOk ? Math.round(loopStart) : null,
      loop_end_ms: loopOk ? Math.round(loopEnd) : null,
      energy: t.energy ?? null,
      tempo: t.tempo ?? null,
    },
  };
}

/** ffprobe's tags of a file: the container's and its audio stream's (Vorbis comments live on the stream), keys lower-cased. */
async function readTags(file: string, container: string): Promise<Record<string, string>> {
  const text = await runFfprobe(["-print_format", "json", "-show_entries", "format_tags:stream_tags", path.resolve(file)], { format: container });
  const json = JSON.parse(text) as { format?: { tags?: Record<string, unknown> }; streams?: { tags?: Record<string, unknown> }[] };
  const tags: Record<string, string> = {};
  for (const source of [...(json.streams ?? []).map((s) => s.tags), json.format?.tags]) {
    for (const [key, value] of Object.entries(source ?? {})) {
      if (typeof value === "string" && value.trim()) tags[key.toLowerCase()] = value.trim().slice(0, 1000);
    }
  }
  return tags;
}

/** "01 - My_Song.mp3" → "01 - My Song". */
const titleFromName = (file: string) => path.basename(file, path.extname(file)).replace(/_+/g, " ").trim() || "Untitled";

/** A comment that reads like a tag list ("calm, corporate"), not a sentence or a link. */
function commentTags(comment: string | undefined): string[] {
  if (!comment || comment.length > MAX_TEXT || /https?:|www\./i.test(comment)) return [];
  const parts = comment.split(/[,;/]/).map((p) => p.trim()).filter(Boolean);
  return parts.length > 0 && parts.every((p) => p.length <= 30 && p.split(/\s+/).length <= 3) ? cleanTags(parts) : [];
}

/** An operator's file → its song (probed through the allow-listed demuxers), or why it is skipped. */
export async function librarySong(file: string, key: string, stat: { size: number; mtimeMs: number }): Promise<SongInput | { skip: string }> {
  let info;
  try {
    info = await probe(file, { measureUpTo: MAX_SONG_SECONDS + 1 });
  } catch (error) {
    return { skip: error instanceof Error ? error.message : String(error) };
  }
  if (info.kind !== "audio" || !info.hasAudio) return { skip: `not an audio file (${info.kind})` };
  if (info.durationSeconds > MAX_SONG_SECONDS) return { skip: `longer than ${MAX_SONG_SECONDS / 60} minutes` };
  if (info.durationSeconds < MIN_SONG_SECONDS) return { skip: "shorter than a second" };
  const tags = await readTags(file, info.container).catch(() => ({}) as Record<string, string>);
  const title = (tags.title ?? titleFromName(file)).slice(0, MAX_TEXT);
  const author = (tags.artist ?? tags.album_artist ?? tags.composer ?? "").slice(0, MAX_TEXT);
  const licence = (tags.licence ?? tags.license ?? "").slice(0, MAX_TAG);
  const copyright = (tags.copyright ?? "").slice(0, MAX_TEXT);
  // The operator answers for their files' licences (README); the credit line names what the tags say.
  const credit = author ? `"${title}" by ${author}` : `"${title}"`;
  return {
    source: "library",
    key,
    title,
    author,
    genre_tags: splitTags(tags.genre),
    instrument_tags: splitTags(tags.instrument ?? tags.instruments),
    video_theme_tags: cleanTags([...splitTags(tags.mood), ...splitTags(tags.theme), ...commentTags(tags.comment ?? tags.description)]),
    licence_id: licence || "operator",
    attribution: author || copyright ? `${credit}${copyright ? ` (${copyright})` : ""}` : null,
    duration_ms: Math.round(info.durationSeconds * 1000),
    loop_start_ms: null,
    loop_end_ms: null,
    energy: null,
    tempo: null,
    file_size: stat.size,
    file_mtime_ms: Math.floor(stat.mtimeMs),
  };
}

/**
 * Every music file under `root` (relative keys, "/"-separated). Symlinks are followed only when they end inside
 * the folder; one that leaves it is refused (MUSIC_DIR must not become a way to read the rest of the disk).
 */
async function walkMusicDir(root: string, refused: (file: string) => void): Promise<Map<string, { file: string; size: number; mtimeMs: number }>> {
  const realRoot = await fs.realpath(root);
  const found = new Map<string, { file: string; size: number; mtimeMs: number }>();
  const visit = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      refused(path.relative(root, dir) || ".");
      return;
    }
    for (const entry of entries) {
      if (found.size >= MAX_FILES) return;
      if (entry.name.startsWith(".")) continue;
      const full = path.join(dir, entry.name);
      let target = full;
      if (entry.isSymbolicLink()) {
        target = await fs.realpath(full).catch(() => "");
        if (!target || !inside(realRoot, target)) {
          refused(path.relative(root, full));
          continue;
        }
      }
      const stat = await fs.stat(target).catch(() => null);
      if (!stat) continue;
      if (stat.isDirectory()) {
        if (depth < MAX_DEPTH && !entry.isSymbolicLink()) await visit(full, depth + 1);
        continue;
      }
      if (!stat.isFile() || !MUSIC_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) continue;
      const key = path.relative(root, full).split(path.sep).join("/");
      found.set(key, { file: target, size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) });
    }
  };
  await visit(root, 0);
  return found;
}

/**
 * Keeps the songs table in step with the shipped catalogue and MUSIC_DIR: at start, every `syncEveryMs`, and
 * before a listing when either folder changed (a stat of catalogue.json and of MUSIC_DIR: cheap). Unchanged files
 * (same size and mtime) are not probed again; removed ones become unavailable, their ids never reused.
 */
export function createMusicCatalogue(deps: { db: Db; dirs: MusicDirs; syncEveryMs: number; log: MusicLog }) {
  const { db, dirs, log } = deps;
  let running: Promise<SyncSummary> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let lastSignature = "";
  /** Files skipped before, by key: not probed again until they change. */
  const skippedFiles = new Map<string, string>();
  /** What was last written for each catalogue song: an unchanged entry is not written again every pass. */
  const written = new Map<string, string>();
  /** Links out of MUSIC_DIR and unreadable folders, logged once each. */
  const refusedPaths = new Set<string>();
  const refuse = (file: string) => {
    if (refusedPaths.has(file)) return;
    refusedPaths.add(file);
    log.warn({ file }, "music file refused: unreadable, or a link that leads outside MUSIC_DIR");
  };
  let stopped = false;

  async function signature(): Promise<string> {
    const parts = await Promise.all(
      [path.join(dirs.catalogueDir, "catalogue.json"), dirs.musicDir].map(async (p) => {
        if (!p) return "-";
        const s = await fs.stat(p).catch(() => null);
        return s ? `${s.size}:${s.mtimeMs}` : "none";
      }),
    );
    return parts.join("|");
  }

  async function syncCatalogue(summary: SyncSummary) {
    const existing = await listSongFiles(db, "catalogue");
    const seen = new Set<string>();
    let tracks: unknown[] = [];
    const file = path.join(dirs.catalogueDir, "catalogue.json");
    try {
      tracks = Catalogue.parse(JSON.parse(await fs.readFile(file, "utf8"))).tracks;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn({ file, error: String(error) }, "music catalogue unreadable");
    }
    for (const raw of tracks) {
      const entry = catalogueSong(raw, dirs.catalogueDir);
      if ("skip" in entry) {
        summary.skipped += 1;
        log.warn({ reason: entry.skip }, "catalogue song skipped");
        continue;
      }
      const stat = await fs.stat(entry.file).catch(() => null);
      if (!stat?.isFile()) {
        summary.skipped += 1;
        log.warn({ file: entry.file }, "catalogue song skipped: its file is missing");
        continue;
      }
      seen.add(entry.song.key);
      summary.catalogue += 1;
      const before = existing.find((r) => r.key === entry.song.key);
      const input: SongInput = { ...entry.song, file_size: stat.size, file_mtime_ms: Math.floor(stat.mtimeMs) };
      const fingerprint = JSON.stringify(input);
      if (before?.available && written.get(input.key) === fingerprint) continue;
      if (!before?.available) summary.added += 1;
      await upsertSong(db, input);
      written.set(input.key, fingerprint);
    }
    const gone = existing.filter((r) => r.available && !seen.has(r.key)).map((r) => r.id);
    summary.removed += gone.length;
    await markSongsUnavailable(db, gone);
  }

  async function syncLibrary(summary: SyncSummary) {
    const existing = new Map((await listSongFiles(db, "library")).map((r) => [r.key, r]));
    const seen = new Set<string>();
    let files = new Map<string, { file: string; size: number; mtimeMs: number }>();
    if (dirs.musicDir) {
      try {
        files = await walkMusicDir(dirs.musicDir, refuse);
      } catch (error) {
        log.warn({ dir: dirs.musicDir, error: String(error) }, "MUSIC_DIR unreadable");
      }
    }
    for (const [key, f] of files) {
      // Closing: stop probing; what is not looked at stays as it was (never marked unavailable below).
      if (stopped) return;
      const version = `${f.size}:${f.mtimeMs}`;
      const before = existing.get(key);
      if (before?.available && before.file_size === f.size && before.file_mtime_ms === f.mtimeMs) {
        seen.add(key);
        summary.library += 1;
        continue;
      }
      if (skippedFiles.get(key) === version) {
        summary.skipped += 1;
        continue;
      }
      const song = await librarySong(f.file, key, f);
      if ("skip" in song) {
        skippedFiles.set(key, version);
        summary.skipped += 1;
        log.warn({ file: key, reason: song.skip }, "music file skipped");
        continue;
      }
      skippedFiles.delete(key);
      await upsertSong(db, song);
      seen.add(key);
      summary.library += 1;
      if (!before?.available) summary.added += 1;
    }
    const gone = [...existing.values()].filter((r) => r.available && !seen.has(r.key)).map((r) => r.id);
    summary.removed += gone.length;
    await markSongsUnavailable(db, gone);
  }

  /** One pass over both sources; concurrent callers share the pass that is running. */
  function sync(): Promise<SyncSummary> {
    running ??= (async () => {
      const summary: SyncSummary = { catalogue: 0, library: 0, added: 0, removed: 0, skipped: 0 };
      try {
        lastSignature = await signature();
        await syncCatalogue(summary);
        await syncLibrary(summary);
        if (summary.added || summary.removed) log.info({ ...summary }, "music synchronised");
        return summary;
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    sync,
    /** Before a listing: syncs only when catalogue.json or MUSIC_DIR changed since the last pass (a file added or removed at its top). */
    async syncIfChanged(): Promise<void> {
      try {
        if (running) await running;
        else if ((await signature()) !== lastSignature) await sync();
      } catch (error) {
        // The listing still answers from the table.
        log.warn({ error: String(error) }, "music synchronisation failed");
      }
    },
    /** The first pass, then one every `syncEveryMs`; failures are logged, never thrown. */
    start(): Promise<void> {
      const pass = () =>
        sync().then(
          () => undefined,
          (error) => log.warn({ error: String(error) }, "music synchronisation failed"),
        );
      clearInterval(timer);
      timer = setInterval(() => void pass(), deps.syncEveryMs).unref();
      return pass();
    },
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

export type MusicCatalogue = ReturnType<typeof createMusicCatalogue>;
