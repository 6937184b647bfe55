import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type Migration } from "kysely";
import type { Database } from "./schema";
import { postgresDialect, SqliteTypesPlugin, type PostgresOptions } from "./postgres";
import * as m0001 from "./migrations/0001_accounts";
import * as m0002 from "./migrations/0002_media_projects_jobs";
import * as m0003 from "./migrations/0003_applied_features";
import * as m0004 from "./migrations/0004_scene_framing_overlays";
import * as m0005 from "./migrations/0005_library_projects";
import * as m0006 from "./migrations/0006_idempotency";
import * as m0007 from "./migrations/0007_push_subscriptions";
import * as m0008 from "./migrations/0008_media_container";
import * as m0009 from "./migrations/0009_job_owner";
import * as m0012 from "./migrations/0012_export_resolution";
import * as m0013 from "./migrations/0013_job_claim_seq";
import * as m0014 from "./migrations/0014_project_sharing";
import * as m0016 from "./migrations/0016_youtube";
import * as m0018 from "./migrations/0018_subtitles";
import * as m0022 from "./migrations/0022_subtitles_pending";
import * as m0019 from "./migrations/0019_subtitle_sets";
import * as m0023 from "./migrations/0023_songs";
import * as m0024 from "./migrations/0024_payments";
import * as m0025 from "./migrations/0025_account_tokens";
import * as m0026 from "./migrations/0026_checkout";
import * as m0027 from "./migrations/0027_licences";
import * as m0028 from "./migrations/0028_media_faces";
import * as m0029 from "./migrations/0029_storyboard_version";

/** Numbered migrations, in order. Add new ones at the end; never edit a shipped one. */
const migrations: Record<string, Migration> = {
  "0001_accounts": m0001,
  "0002_media_projects_jobs": m0002,
  "0003_applied_features": m0003,
  "0004_scene_framing_overlays": m0004,
  "0005_library_projects": m0005,
  "0006_idempotency": m0006,
  "0007_push_subscriptions": m0007,
  "0008_media_container": m0008,
  "0009_job_owner": m0009,
  "0012_export_resolution": m0012,
  "0013_job_claim_seq": m0013,
  "0014_project_sharing": m0014,
  "0016_youtube": m0016,
  "0018_subtitles": m0018,
  "0022_subtitles_pending": m0022,
  "0019_subtitle_sets": m0019,
  "0023_songs": m0023,
  "0024_payments": m0024,
  "0025_account_tokens": m0025,
  "0026_checkout": m0026,
  "0027_licences": m0027,
  "0028_media_faces": m0028,
  "0029_storyboard_version": m0029,
};

export type Db = Kysely<Database>;

export type Dialect = "sqlite" | "postgres";

/** Which database `db` talks to (queries that must be written differently ask this). */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter.constructor.name.startsWith("Postgres") ? "postgres" : "sqlite";
}

/**
 * The app's database: PostgreSQL when DATABASE_URL is set (issue 19, scale mode), else the SQLite file in
 * DATA_DIR. Both run the same migrations and queries.
 */
export function openDatabase(config: { databaseUrl: string | null; databaseFile: string }, options: PostgresOptions = {}): Db {
  return config.databaseUrl ? openPostgres(config.databaseUrl, options) : openSqlite(config.databaseFile);
}

export function openPostgres(url: string, options: PostgresOptions = {}): Db {
  return new Kysely<Database>({ dialect: postgresDialect(url, options), plugins: [new SqliteTypesPlugin()] });
}

export function openSqlite(file: string): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

export async function migrate(db: Db): Promise<void> {
  // Numbers are handed out to work done side by side, so one may land after a higher one was applied (0026 after 0027).
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}
