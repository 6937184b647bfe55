import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * No ffmpeg or ffprobe may outlive the process that started it (issue 12 item 4): an orphan that
 * keeps writing while the job is claimed again corrupts the output. Two guards:
 *
 * 1. Each child is started through util-linux `setpriv --pdeathsig KILL`, so the kernel kills it when
 *    its parent dies, `kill -9` included (Linux prctl PR_SET_PDEATHSIG; kept across the exec of a
 *    normal binary). Where setpriv is missing the child is spawned plainly.
 * 2. Each child's pid and start time (from /proc/<pid>/stat) is written to a registry file of this
 *    process, `<registry>/<pid>.<start time>`. At start-up, `sweepStaleChildren` kills the children
 *    recorded by processes that are gone (and are still the same ffmpeg/ffprobe, not a reused pid).
 *
 * media/ knows nothing of the configuration: main.ts names the registry folder (DATA_DIR/run/children).
 */

const CHILD_NAMES = new Set(["ffmpeg", "ffprobe", "setpriv", "pocketsphinx_continuous"]);

let registryDir: string | undefined;
const live = new Map<number, string>(); // pid → "pid starttime name"

/** Where this process records its children; `undefined` stops recording. Called by main.ts. */
export function setChildRegistry(dir: string | undefined): void {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  registryDir = dir;
  if (dir) writeRegistry();
}

/** The registry file of this process, named by its pid and start time so a reused pid is not mistaken for it. */
let ownStart: string | undefined;
function ownFile(dir: string): string {
  ownStart ??= startTimeOf(process.pid) ?? "0";
  return path.join(dir, `${process.pid}.${ownStart}`);
}

function writeRegistry(): void {
  if (!registryDir) return;
  const file = ownFile(registryDir);
  try {
    if (live.size === 0) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, [...live.values()].join("\n") + "\n");
  } catch {
    // the data folder went away (a test cleaned up): nothing left to protect
  }
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot; undefined when it is gone. */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // the name (field 2) may hold spaces and parentheses: count fields from the last ")"
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    return undefined;
  }
}

/** The executable name of a live process ("ffmpeg"), from /proc/<pid>/cmdline. */
function commandOf(pid: number): string | undefined {
  try {
    const argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? "";
    return path.basename(argv0);
  } catch {
    return undefined;
  }
}

let setprivPath: string | null | undefined;

/** util-linux setpriv, if it is here and knows --pdeathsig (checked once). */
function setpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = null;
  if (process.platform !== "linux") return setprivPath;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).concat(["/usr/bin", "/bin"])) {
    const candidate = path.join(dir, "setpriv");
    if (!dir || !fs.existsSync(candidate)) continue;
    const help = spawnSync(candidate, ["--help"], { encoding: "utf8", timeout: 5_000 });
    if (help.status === 0 && help.stdout.includes("--pdeathsig")) setprivPath = candidate;
    break;
  }
  return setprivPath;
}

/** Spawns a media binary that dies with this process, and records it until it exits. */
export function spawnChild(binary: string, args: string[], options: SpawnOptions): ChildProcess {
  const wrapper = setpriv();
  const child = wrapper ? spawn(wrapper, ["--pdeathsig", "KILL", "--", binary, ...args], options) : spawn(binary, args, options);
  const pid = child.pid;
  if (pid !== undefined) {
    live.set(pid, `${pid} ${startTimeOf(pid) ?? 0} ${path.basename(binary)}`);
    writeRegistry();
    child.once("exit", () => {
      live.delete(pid);
      writeRegistry();
    });
  }
  return child;
}

/** How many children this process has running (tests). */
export const liveChildren = () => live.size;

/**
 * At start-up, before any job runs: kills the ffmpeg/ffprobe children recorded by processes that
 * are gone, and removes their registry files. A registry of a live process (another runner on the
 * same data folder) is left alone. Answers how many children it killed.
 */
export function sweepStaleChildren(dir: string): number {
  let killed = 0;
  let files: string[];
  try {
    files = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of files) {
    const match = /^(\d+)\.(\d+)$/.exec(name);
    if (!match) continue;
    const [, ownerPid, ownerStart] = match;
    if (Number(ownerPid) === process.pid) continue;
    const ownerAlive = startTimeOf(Number(ownerPid)) === ownerStart;
    if (ownerAlive) continue;
    const file = path.join(dir, name);
    let lines: string[] = [];
    try {
      lines = fs.readFileSync(file, "utf8").split("\n");
    } catch {
      continue;
    }
    for (const line of lines) {
      const [pidText, start] = line.trim().split(" ");
      const pid = Number(pidText);
      if (!Number.isInteger(pid) || pid <= 1) continue;
      // the same process (pid and start time) and still a media binary: never a stranger that reused the pid
      if (startTimeOf(pid) !== start || !CHILD_NAMES.has(commandOf(pid) ?? "")) continue;
      try {
        process.kill(pid, "SIGKILL");
        killed += 1;
      } catch {
        // exited meanwhile
      }
    }
    fs.rmSync(file, { force: true });
  }
  return killed;
}
