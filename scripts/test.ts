/**
 * `npm test`: typecheck, unit tests, server integration tests and browser tests in Chromium,
 * then one summary line. Every stage runs even when an earlier one fails, so one run shows all.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildIfNeeded } from "../server/build";
import { postgresPool, redactUrl } from "../server/db/postgres";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const tmp = path.join(root, ".tmp");
fs.mkdirSync(tmp, { recursive: true });

interface Stage {
  name: string;
  passed: number;
  failed: number;
  ok: boolean;
  /** Why a stage did not run (PostgreSQL not reachable outside CI). */
  skipped?: string;
}
const stages: Stage[] = [];

function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n━━ ${name} ━━`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

const readJson = (file: string) => {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
};

// The build compiles the catalogs (the server's emails read them) and generates the route tree
// the typecheck needs; the browser tests then serve the same build.
console.log("\n━━ build ━━");
let built = true;
try {
  await buildIfNeeded(path.join(root, "dist"));
} catch (error) {
  console.error(error);
  built = false;
}
stages.push({ name: "build", passed: built ? 1 : 0, failed: built ? 0 : 1, ok: built });

const typed = run("typecheck", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]);
stages.push({ name: "typecheck", passed: typed ? 1 : 0, failed: typed ? 0 : 1, ok: typed });

/** Answers why PostgreSQL cannot be used, or undefined when it answers a query. */
async function postgresProblem(url: string): Promise<string | undefined> {
  const pool = postgresPool(url, { max: 1 });
  try {
    await Promise.race([pool.query("select 1"), new Promise((_, reject) => setTimeout(() => reject(new Error("no answer in 5 s")), 5_000).unref())]);
    return undefined;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    void pool.end().catch(() => undefined);
  }
}

const vitestStage = (project: string) => {
  const out = path.join(tmp, `vitest-${project}.json`);
  fs.rmSync(out, { force: true });
  const started = Date.now();
  const ok = run(`${project} tests`, bin("vitest"), ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`]);
  console.log(`${project}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const report = readJson(out);
  stages.push({ name: project, passed: report?.numPassedTests ?? 0, failed: report ? report.numFailedTests : 1, ok: ok && !!report });
};
for (const project of ["unit", "integration"]) vitestStage(project);

// Issue 19: the same integration suites on PostgreSQL. Without a server the stage is skipped and says why,
// except in CI, which must run it.
const postgresUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const postgresDown = await postgresProblem(postgresUrl);
if (postgresDown === undefined) vitestStage("integration-pg");
else {
  const why = `PostgreSQL not reachable at ${redactUrl(postgresUrl)} (${postgresDown})`;
  console.log(`\n━━ integration-pg tests ━━\n${process.env.CI === "true" ? "CI must run this stage: " : "skipped: "}${why}`);
  if (process.env.CI === "true") stages.push({ name: "integration-pg", passed: 0, failed: 1, ok: false });
  else stages.push({ name: "integration-pg", passed: 0, failed: 0, ok: true, skipped: `skipped: ${why}` });
}

const e2eOut = path.join(tmp, "e2e-results.json");
fs.rmSync(e2eOut, { force: true });
const e2eOk = run("browser tests (Chromium)", bin("playwright"), ["test"]);
const e2e = readJson(e2eOut);
stages.push({
  name: "browser",
  passed: e2e?.stats?.expected ?? 0,
  failed: e2e ? (e2e.stats.unexpected ?? 0) + (e2e.stats.flaky ?? 0) : 1,
  ok: e2eOk && !!e2e,
});

console.log("\n━━ summary ━━");
for (const s of stages) console.log(s.skipped ? `- ${s.name.padEnd(14)} ${s.skipped}` : `${s.ok ? "✓" : "✗"} ${s.name.padEnd(14)} ${s.passed} passed, ${s.failed} failed`);
const passed = stages.reduce((n, s) => n + s.passed, 0);
const failed = stages.reduce((n, s) => n + s.failed, 0) + stages.filter((s) => !s.ok && s.failed === 0).length;
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && stages.every((s) => s.ok) ? 0 : 1);
