/**
 * `npm run test:soak`: the reliability suites of issue 12 in their long versions (CUTROOM_SOAK=1), one
 * after the other — the authorisation matrix, fuzzing, hostile media, crash recovery and secrets
 * (vitest, integration project) and the offline chaos (Playwright, Chromium) — then a table of the
 * figures each suite reported (.tmp/reliability/*.soak.json, written by tests/reliability.ts) and one
 * last line `N passed, N failed` (tests). A suite whose file is missing counts as failed, never as
 * skipped. Exits non-zero on any failure.
 *
 *   npm run test:soak                      every suite
 *   npm run test:soak -- fuzz chaos        only the suites whose name or file contains one of the words
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const tmp = path.join(root, ".tmp");
const figuresDir = path.join(tmp, "reliability");

interface Suite {
  name: string;
  runner: "vitest" | "playwright";
  file: string;
}

const SUITES: Suite[] = [
  { name: "authorisation matrix", runner: "vitest", file: "tests/integration/authz-matrix.test.ts" },
  { name: "fuzzing", runner: "vitest", file: "tests/integration/fuzz.test.ts" },
  { name: "hostile media", runner: "vitest", file: "tests/integration/hostile-media.test.ts" },
  { name: "crash recovery", runner: "vitest", file: "tests/integration/crash-recovery.test.ts" },
  { name: "secrets", runner: "vitest", file: "tests/integration/secrets.test.ts" },
  { name: "offline chaos", runner: "playwright", file: "tests/e2e/chaos.spec.ts" },
];

interface Outcome {
  suite: Suite;
  status: "passed" | "failed" | "missing";
  passed: number;
  failed: number;
  seconds: number;
  /** The figures files (.tmp/reliability/*.soak.json) this suite wrote. */
  figures: string[];
}

/** Each soak figures file with the time it was last written. */
const figureFiles = () =>
  new Map(
    fs
      .readdirSync(figuresDir)
      .filter((f) => f.endsWith(".soak.json"))
      .map((f) => [f, fs.statSync(path.join(figuresDir, f)).mtimeMs] as const),
  );

const readJson = (file: string): any => {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
};

const slug = (name: string) => name.replace(/[^a-z0-9]+/gi, "-").toLowerCase();

function run(suite: Suite): Outcome {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  if (!fs.existsSync(path.join(root, suite.file))) {
    console.log(`\n━━ ${suite.name} (${suite.file}) ━━\nmissing: ${suite.file} does not exist`);
    return { suite, status: "missing", passed: 0, failed: 1, seconds: 0, figures: [] };
  }
  console.log(`\n━━ ${suite.name} (${suite.file}, soak) ━━`);
  const env = { ...process.env, CUTROOM_SOAK: "1" };
  const out = path.join(tmp, `soak-${slug(suite.name)}.json`);
  fs.rmSync(out, { force: true });
  const before = figureFiles();
  let passed = 0;
  let failed = 0;
  let ok: boolean;
  if (suite.runner === "vitest") {
    const result = spawnSync(bin("vitest"), ["run", "--project", "integration", suite.file, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], { cwd: root, stdio: "inherit", env });
    const report = readJson(out);
    passed = report?.numPassedTests ?? 0;
    failed = report?.numFailedTests ?? 0;
    // A run that ended without a report (a crash, a failed import) counts as one failure.
    ok = result.status === 0 && !!report && failed === 0 && passed > 0;
  } else {
    // playwright.config.ts writes its JSON report to .tmp/e2e-results.json.
    const report = path.join(tmp, "e2e-results.json");
    fs.rmSync(report, { force: true });
    const result = spawnSync(bin("playwright"), ["test", suite.file], { cwd: root, stdio: "inherit", env });
    const json = readJson(report);
    passed = json?.stats?.expected ?? 0;
    failed = json ? (json.stats.unexpected ?? 0) + (json.stats.flaky ?? 0) : 0;
    ok = result.status === 0 && !!json && failed === 0 && passed > 0;
    if (json) fs.copyFileSync(report, out);
  }
  if (!ok && failed === 0) failed = 1;
  const figures = [...figureFiles()].filter(([f, mtime]) => (before.get(f) ?? 0) < mtime).map(([f]) => f);
  return { suite, status: ok ? "passed" : "failed", passed, failed, seconds: seconds(), figures };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd()).join("\n");
}

const words = process.argv.slice(2).map((w) => w.toLowerCase());
const chosen = words.length ? SUITES.filter((s) => words.some((w) => s.name.includes(w) || s.file.toLowerCase().includes(w))) : SUITES;
if (chosen.length === 0) {
  console.error(`No suite matches ${words.join(", ")}. Suites: ${SUITES.map((s) => s.name).join(", ")}`);
  process.exit(2);
}

fs.mkdirSync(figuresDir, { recursive: true });

const runStarted = Date.now();
const outcomes = chosen.map(run);

console.log("\n━━ soak summary ━━");
console.log(
  table([
    ["suite", "file", "result", "passed", "failed", "seconds"],
    ...outcomes.map((o) => [o.suite.name, o.suite.file, o.status, String(o.passed), String(o.failed), String(o.seconds)]),
  ]),
);

// The figures each suite wrote while it ran (a suite that ran but wrote none says so).
const figureRows = outcomes
  .filter((o) => o.status !== "missing")
  .flatMap((o) => {
    const reports = o.figures
      .map((f) => readJson(path.join(figuresDir, f)) as { suite: string; figures: Record<string, unknown> } | undefined)
      .filter((r): r is { suite: string; figures: Record<string, unknown> } => !!r);
    if (reports.length === 0) return [[o.suite.name, "-", "(no figures reported)"]];
    return reports.map((r) => [o.suite.name, r.suite, Object.entries(r.figures).map(([k, v]) => `${k}=${v}`).join(" ")]);
  });
console.log("\nfigures (.tmp/reliability/*.soak.json)");
console.log(table([["suite", "report", "figures"], ...figureRows]));

const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
console.log(`\nsoak took ${Math.round((Date.now() - runStarted) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && outcomes.every((o) => o.status === "passed") ? 0 : 1);
