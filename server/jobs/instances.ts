import fs from "node:fs";
import path from "node:path";
import { startTimeOf } from "../media/children";

/**
 * Every server (or runner) process on one data folder leaves `<dir>/<pid>.<start time>` while it
 * lives. At start-up a process learns whether it is alone: then nothing it finds half-done can
 * belong to a request or job in flight elsewhere, and crash leftovers can be finished at once
 * instead of after a safety margin. A file of a process that is gone (killed) is removed.
 */
export interface Instance {
  /** Other live processes on this data folder when this one started. */
  othersAlive: number;
  /** Removes this process's file (on a clean shutdown). */
  release(): void;
}

export function registerInstance(dir: string): Instance {
  fs.mkdirSync(dir, { recursive: true });
  const ownStart = startTimeOf(process.pid);
  const own = `${process.pid}.${ownStart ?? 0}`;
  let othersAlive = 0;
  for (const name of fs.readdirSync(dir)) {
    const match = /^(\d+)\.(\d+)$/.exec(name);
    if (!match || name === own) continue;
    // without /proc nothing can be told: every other file counts as alive
    if (ownStart === undefined || startTimeOf(Number(match[1])) === match[2]) othersAlive += 1;
    else fs.rmSync(path.join(dir, name), { force: true });
  }
  const file = path.join(dir, own);
  fs.writeFileSync(file, new Date().toISOString());
  return {
    othersAlive,
    release: () => fs.rmSync(file, { force: true }),
  };
}
