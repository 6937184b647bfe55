import path from "node:path";
import type { Selectable } from "kysely";
import type { Db } from "./index";
import type { SongsTable } from "./schema";

/**
 * A song the server knows (migration 0023). Tag lists are JSON string arrays; `available` 0 when its file went
 * away (the row stays so a project's bgm_id never points at another song).
 */
export type SongRow = Omit<Selectable<SongsTable>, "file_size" | "file_mtime_ms" | "created_at" | "updated_at">;

/** What the sync writes for one song it found (file size and mtime tell it later whether to probe again). */
export interface SongInput {
  source: "catalogue" | "library";
  key: string;
  title: string;
  author: string;
  genre_tags: string[];
  instrument_tags: string[];
  video_theme_tags: string[];
  licence_id: string;
  attribution: string | null;
  duration_ms: number;
  loop_start_ms: number | null;
  loop_end_ms: number | null;
  energy: number | null;
  tempo: number | null;
  file_size: number;
  file_mtime_ms: number;
}

const COLUMNS = [
  "id",
  "source",
  "key",
  "title",
  "author",
  "genre_tags",
  "instrument_tags",
  "video_theme_tags",
  "licence_id",
  "attribution",
  "duration_ms",
  "loop_start_ms",
  "loop_end_ms",
  "energy",
  "tempo",
  "available",
] as const;

/** PostgreSQL answers bigint and some numerics as strings; the row's shape promises numbers. */
function normalise(row: Record<string, unknown>): SongRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    ...(row as unknown as SongRow),
    id: Number(row.id),
    duration_ms: Number(row.duration_ms),
    loop_start_ms: num(row.loop_start_ms),
    loop_end_ms: num(row.loop_end_ms),
    energy: num(row.energy),
    tempo: num(row.tempo),
    available: Number(row.available),
  };
}

/** An available song by id; undefined when unknown or its file went away. */
export async function findSong(db: Db, id: number): Promise<SongRow | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const row = await db.selectFrom("songs").select(COLUMNS).where("id", "=", id).where("available", "=", 1).executeTakeFirst();
  return row ? normalise(row) : undefined;
}

/** A song by id whether or not its file is still there (attribution of a render made with it). */
export async function findSongAnyState(db: Db, id: number): Promise<SongRow | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const row = await db.selectFrom("songs").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? normalise(row) : undefined;
}

/** Every available song, by title then id. */
export async function listAvailableSongs(db: Db): Promise<SongRow[]> {
  const rows = await db.selectFrom("songs").select(COLUMNS).where("available", "=", 1).orderBy("title").orderBy("id").execute();
  return rows.map(normalise);
}

/** The absolute path of a song's audio file: catalogue keys are slugs (file `<slug>.opus` unless the sync stored another name), library keys paths under MUSIC_DIR. */
export function songFilePath(song: SongRow, dirs: { catalogueDir: string; musicDir: string | null }): string {
  if (song.source === "catalogue") return path.resolve(dirs.catalogueDir, catalogueFileOf(song.key));
  if (!dirs.musicDir) throw new Error(`Song ${song.id} is in MUSIC_DIR, which is not configured`);
  return path.resolve(dirs.musicDir, song.key);
}

/**
 * A catalogue song's key is `<slug>` when its file is `<slug>.opus` next to catalogue.json, else
 * `<slug>|<file>` (the file as catalogue.json names it, relative to the catalogue folder).
 */
export function catalogueKey(slug: string, file: string): string {
  return file === `${slug}.opus` ? slug : `${slug}|${file}`;
}

function catalogueFileOf(key: string): string {
  const bar = key.indexOf("|");
  return bar < 0 ? `${key}.opus` : key.slice(bar + 1);
}

/** The catalogue slug of a catalogue song's key. */
export function catalogueSlug(key: string): string {
  const bar = key.indexOf("|");
  return bar < 0 ? key : key.slice(0, bar);
}

/** Every row of one source with what tells whether its file changed: the sync's starting point. */
export async function listSongFiles(db: Db, source: "catalogue" | "library") {
  const rows = await db.selectFrom("songs").select(["id", "key", "file_size", "file_mtime_ms", "available"]).where("source", "=", source).execute();
  return rows.map((r) => ({ id: Number(r.id), key: r.key, file_size: Number(r.file_size), file_mtime_ms: Number(r.file_mtime_ms), available: Number(r.available) }));
}

/** Inserts or refreshes a song by (source, key), making it available again; answers its id. */
export async function upsertSong(db: Db, song: SongInput): Promise<number> {
  const now = new Date().toISOString();
  const values = {
    ...song,
    genre_tags: JSON.stringify(song.genre_tags),
    instrument_tags: JSON.stringify(song.instrument_tags),
    video_theme_tags: JSON.stringify(song.video_theme_tags),
    available: 1,
    updated_at: now,
  };
  const row = await db
    .insertInto("songs")
    .values({ ...values, created_at: now })
    .onConflict((oc) => oc.columns(["source", "key"]).doUpdateSet(values))
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Marks songs gone (their rows stay: ids are never reused). */
export async function markSongsUnavailable(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("songs").set({ available: 0, updated_at: new Date().toISOString() }).where("id", "in", ids).where("available", "=", 1).execute();
}

/** id → a short version of each available song's file (size and mtime): demo URLs change when the file does. */
export async function songFileVersions(db: Db, ids?: number[]): Promise<Map<number, string>> {
  if (ids && ids.length === 0) return new Map();
  let query = db.selectFrom("songs").select(["id", "file_size", "file_mtime_ms"]).where("available", "=", 1);
  if (ids) query = query.where("id", "in", ids);
  const rows = await query.execute();
  return new Map(rows.map((r) => [Number(r.id), `${Number(r.file_size).toString(36)}-${Number(r.file_mtime_ms).toString(36)}`]));
}
