import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrate, openPostgres } from "../../server/db/index";
import { postgresPool, redactUrl } from "../../server/db/postgres";
import { NO_DATABASE_SUITES } from "./no-database-suites";

/**
 * The "integration-pg" project (issue 19): the same integration files against PostgreSQL. Each run makes one
 * migrated template database, and every test server gets its own copy (`CREATE DATABASE … TEMPLATE`, a
 * fraction of a second, where migrating takes about one), so files running in parallel never share data.
 * Every database of the run is dropped at the end, and those of runs that died are dropped at the next start.
 */
export const PREFIX = "cutroom_pg_r";
export const adminUrl = () => process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

declare module "vitest" {
  export interface ProvidedContext {
    postgres: { adminUrl: string; template: string; prefix: string };
  }
}

/** What a file that opens a database says: the files this project leaves out must say none of it. */
const OPENS_A_DATABASE = /startTestServer|spawnServer|openTestDatabase|createServer|processedTalkProject|openSqlite|openDatabase|DATABASE_URL|databaseEnv/;

export default async function setup(project: TestProject) {
  for (const file of NO_DATABASE_SUITES.map((f) => path.join(project.config.root, f))) {
    if (fs.existsSync(file) && OPENS_A_DATABASE.test(fs.readFileSync(file, "utf8"))) {
      throw new Error(`${file} opens a database now: take it out of tests/integration/no-database-suites.ts so it runs on PostgreSQL too`);
    }
  }
  const url = adminUrl();
  const pool = postgresPool(url, { max: 1 });
  const prefix = `${PREFIX}${process.pid}_${Date.now().toString(36)}`;
  const dropRun = async (match: (name: string) => boolean) => {
    const { rows } = await pool.query<{ datname: string }>("select datname from pg_database where datname like $1", [`${PREFIX}%`]);
    for (const { datname } of rows.filter((r) => match(r.datname))) await pool.query(`drop database if exists "${datname}" with (force)`);
  };
  try {
    await pool.query("select 1");
  } catch (error) {
    await pool.end();
    throw new Error(`PostgreSQL not reachable at ${redactUrl(url)}: ${(error as Error).message}`);
  }
  // Runs that were killed left their databases: their pid is gone.
  await dropRun((name) => !pidAlive(Number(/^cutroom_pg_r(\d+)_/.exec(name)?.[1] ?? 0)));
  const template = `${prefix}_template`;
  await pool.query(`create database "${template}"`);
  const target = new URL(url);
  target.pathname = `/${template}`;
  const db = openPostgres(target.toString(), { max: 1 });
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
  project.provide("postgres", { adminUrl: url, template, prefix });
  // psql is what the test processes create their databases with (synchronously): check it is there.
  execFileSync("psql", ["--version"], { stdio: "ignore" });
  return async () => {
    await dropRun((name) => name.startsWith(prefix));
    await pool.end();
  };
}
