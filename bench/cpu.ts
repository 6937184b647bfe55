/** CPU time of finished child processes (ffmpeg and friends), steadier than wall time on a shared machine. */
import { readFileSync } from "node:fs";

/** Linux's USER_HZ: /proc times are in 1/100 s on every mainstream kernel. */
const CLOCK_TICKS_PER_SECOND = 100;
const PROC_STAT_CHILD_USER_FIELD = 13;

/** CPU seconds used by finished child processes (ffmpeg), from /proc; undefined elsewhere. */
export function childCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const user = Number(fields[PROC_STAT_CHILD_USER_FIELD]);
    const system = Number(fields[PROC_STAT_CHILD_USER_FIELD + 1]);
    return Number.isFinite(user + system) ? (user + system) / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}
