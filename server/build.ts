import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compressDist } from "./precompress";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = ["src", "workers", "sw", "api", "locales", "public", "index.html", "vite.config.ts", "lingui.config.ts", "package.json"];
const STAMP = ".build-stamp";

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) {
    if (child === "node_modules" || child.endsWith(".gen.ts") || child === "messages.json" || child === "messages.ts") continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

const lingui = (args: string[]) => spawnSync(path.join(root, "node_modules", ".bin", "lingui"), args, { cwd: root, stdio: "inherit" }).status === 0;

/**
 * The server's catalogs (mails, pushes in the user's language) compiled from locales/*.po when one is
 * missing or older than its .po: what `npm run worker` needs on a machine that never built the app.
 */
export function compileServerCatalogsIfNeeded() {
  const locales = fs.readdirSync(path.join(root, "locales"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  const stale = locales.some((locale) => {
    const po = fs.statSync(path.join(root, "locales", locale, "messages.po"), { throwIfNoEntry: false });
    const json = fs.statSync(path.join(root, "locales", locale, "messages.json"), { throwIfNoEntry: false });
    return !!po && (!json || json.mtimeMs < po.mtimeMs);
  });
  if (stale && !lingui(["compile", "--strict", "--namespace", "json"])) throw new Error("Build step failed: lingui compile --strict --namespace json");
}

/** Builds the PWA (and compiles the catalogs) only when a source is newer than the last build. */
export async function buildIfNeeded(staticDir: string) {
  const stamp = path.join(staticDir, STAMP);
  const built = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const newest = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  const generated = ["locales/en/messages.json", "src/routeTree.gen.ts"].every((f) => fs.existsSync(path.join(root, f)));
  if (built >= newest && generated) return;
  console.log(built ? "Sources changed: rebuilding the app…" : "Building the app (first start)…");
  const steps: string[][] = [
    ["lingui", "compile", "--strict", "--namespace", "json"],
    ["vite", "build", "--logLevel", "warn", "--outDir", staticDir],
  ];
  for (const args of steps) {
    const result = spawnSync(path.join(root, "node_modules", ".bin", args[0]!), args.slice(1), { cwd: root, stdio: "inherit" });
    if (result.status !== 0) {
      throw new Error(`Build step failed: ${args.join(" ")}`);
    }
  }
  await compressDist(staticDir);
  fs.writeFileSync(stamp, new Date().toISOString());
}

