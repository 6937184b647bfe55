/**
 * The reliability suites (authorisation matrix, fuzzing, hostile media, crash recovery, offline chaos,
 * secrets) run short in `npm test` and long in `npm run test:soak` (CUTROOM_SOAK=1). Each one reports
 * its figures here: a line on stdout and a JSON file under .tmp/reliability/, which the soak script
 * and README's "Reliability" section quote.
 */
import fs from "node:fs";
import path from "node:path";

/** True under `npm run test:soak`: suites run their long version. */
export const SOAK = process.env.CUTROOM_SOAK === "1";

/** `short` in `npm test`, `long` in the soak run. */
export const soakOr = <T>(short: T, long: T): T => (SOAK ? long : short);

/** Every runner (vitest, Playwright, the soak script) runs from the repository root. */
const outDir = path.resolve(process.cwd(), ".tmp", "reliability");

export type Figures = Record<string, number | string | boolean>;

/** Prints `[reliability] suite: key=value …` and keeps the figures for the summary. */
export function reportFigures(suite: string, figures: Figures): void {
  const line = Object.entries(figures)
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
  console.log(`[reliability] ${suite}${SOAK ? " (soak)" : ""}: ${line}`);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, `${suite}${SOAK ? ".soak" : ""}.json`), JSON.stringify({ suite, soak: SOAK, at: new Date().toISOString(), figures }, null, 2));
}

/** mulberry32: a small seeded generator, so a failing schedule or request mix can be replayed from its seed. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    chance: (p: number) => next() < p,
    between: (lo: number, hi: number) => lo + next() * (hi - lo),
  };
}
