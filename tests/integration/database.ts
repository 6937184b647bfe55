import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { inject } from "vitest";
import { openDatabase, type Db } from "../../server/db/index";

/**
 * Which database the integration tests run on: SQLite in DATA_DIR (project "integration"), or PostgreSQL
 * (project "integration-pg", issue 19), where each data folder gets its own database copied from the run's
 * migrated template (tests/integration/postgres-setup.ts).
 */
const pg = inject("postgres");
export const onPostgres = pg !== undefined;
export const databaseKind = onPostgres ? "postgres" : "sqlite";

const made = new Map<string, string>();
let count = 0;
const urlOf = (name: string) => {
  const url = new URL(pg!.adminUrl);
  url.pathname = `/${name}`;
  // Tests only: a commit does not wait for its WAL flush (a killed server process loses nothing committed; only
  // a crash of PostgreSQL itself would), which takes most of the waiting out of a busy test machine's run.
  url.searchParams.set("options", "-c synchronous_commit=off");
  return url.toString();
};

/**
 * The environment that points a server on `dataDir` at its database: nothing on SQLite (it lives in
 * DATA_DIR), DATABASE_URL of this folder's own database on PostgreSQL (made at the first call, the same
 * one afterwards, so a restarted server finds its data). Synchronous, for spawnServer.
 */
export function databaseEnv(dataDir: string): Record<string, string> {
  if (!pg) return {};
  const key = path.resolve(dataDir);
  let name = made.get(key);
  if (!name) {
    count += 1;
    name = `${pg.prefix}_${process.pid}_${count}`;
    execFileSync("psql", [pg.adminUrl, "-v", "ON_ERROR_STOP=1", "-qc", `create database "${name}" template "${pg.template}"`], { stdio: ["ignore", "ignore", "pipe"] });
    made.set(key, name);
  }
  return { DATABASE_URL: urlOf(name) };
}

/** Drops the database of `dataDir` (PostgreSQL; its servers must be closed). The run's end drops any left. */
export async function dropDatabase(dataDir: string): Promise<void> {
  const key = path.resolve(dataDir);
  const name = made.get(key);
  if (!pg || !name) return;
  made.delete(key);
  await promisify(execFile)("psql", [pg.adminUrl, "-qc", `drop database if exists "${name}" with (force)`]);
}

/** The database of a server on `dataDir`, opened beside it (to read or arrange rows a test needs). */
export function openTestDatabase(dataDir: string): Db {
  return openDatabase({ databaseUrl: databaseEnv(dataDir).DATABASE_URL ?? null, databaseFile: path.join(dataDir, "cutroom.sqlite") }, { max: 2 });
}

/**
 * Everything the database of `dataDir` keeps, as text to search for secrets: on SQLite the bytes of its
 * files (write-ahead log included, freed pages too), on PostgreSQL every row of every table as JSON.
 */
export async function databaseDump(dataDir: string): Promise<string> {
  if (!onPostgres) {
    return ["cutroom.sqlite", "cutroom.sqlite-wal", "cutroom.sqlite-journal"]
      .map((f) => path.join(dataDir, f))
      .filter(fs.existsSync)
      .map((f) => fs.readFileSync(f).toString("latin1"))
      .join("");
  }
  const db = openTestDatabase(dataDir);
  try {
    const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = current_schema()`.execute(db);
    const parts: string[] = [];
    for (const { table_name } of tables.rows) parts.push(JSON.stringify((await sql`select * from ${sql.table(table_name)}`.execute(db)).rows));
    return parts.join("\n");
  } finally {
    await db.destroy();
  }
}
