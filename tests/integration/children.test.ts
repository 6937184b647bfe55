import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { registerInstance } from "../../server/jobs/instances";
import { startTimeOf, sweepStaleChildren } from "../../server/media/children";
import { waitFor } from "./helpers";

/** Issue 12 item 4: no ffmpeg/ffprobe outlives the process that started it. */

const root = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-children-"));
const started: ChildProcess[] = [];
/** Media processes a test started, with their start time so a reused pid is never killed. */
const strays: { pid: number; start: string | undefined }[] = [];
const stray = (...pids: number[]) => strays.push(...pids.map((pid) => ({ pid, start: startTimeOf(pid) })));

afterAll(() => {
  for (const child of started) child.kill("SIGKILL");
  for (const { pid, start } of strays) {
    if (!start || startTimeOf(pid) !== start) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Alive and not a zombie waiting for a reaper. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Pids recorded in a registry folder. */
function recorded(registry: string): number[] {
  if (!fs.existsSync(registry)) return [];
  return fs
    .readdirSync(registry)
    .flatMap((f) => fs.readFileSync(path.join(registry, f), "utf8").split("\n"))
    .filter(Boolean)
    .map((line) => Number(line.split(" ")[0]));
}

/** A node process that runs an endless ffmpeg through media/ffmpeg.ts, as the server's jobs do. */
function ffmpegHost(registry: string): ChildProcess {
  const script = path.join(dir, `host-${started.length}.mts`);
  fs.writeFileSync(
    script,
    `import { setChildRegistry } from ${JSON.stringify(path.join(root, "server/media/children.ts"))};
import { runFfmpeg } from ${JSON.stringify(path.join(root, "server/media/ffmpeg.ts"))};
setChildRegistry(${JSON.stringify(registry)});
await runFfmpeg({ inputs: [{ file: "sine=frequency=440", lavfi: true, options: ["-re"] }], outputOptions: [], output: null });
`,
  );
  const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, stdio: "ignore" });
  started.push(child);
  return child;
}

describe("server instances on one data folder", () => {
  it("tells a process whether another live one shares its data folder, and forgets killed ones", () => {
    const registry = path.join(dir, "servers");
    fs.mkdirSync(registry, { recursive: true });
    fs.writeFileSync(path.join(registry, "999999999.42"), ""); // killed: its pid is gone
    expect(registerInstance(registry).othersAlive).toBe(0);
    expect(fs.existsSync(path.join(registry, "999999999.42"))).toBe(false);
    // the parent process (vitest) is alive: as another server would be
    fs.writeFileSync(path.join(registry, `${process.ppid}.${startTimeOf(process.ppid)}`), "");
    const instance = registerInstance(registry);
    expect(instance.othersAlive).toBe(1);
    instance.release();
    expect(fs.readdirSync(registry)).toEqual([`${process.ppid}.${startTimeOf(process.ppid)}`]);
  });
});

describe("media children", () => {
  it("die with their server when it is killed with SIGKILL", async () => {
    const registry = path.join(dir, "run-a");
    const host = ffmpegHost(registry);
    const [ffmpeg] = await waitFor(async () => (recorded(registry).length ? recorded(registry) : undefined), 20_000, 50);
    stray(ffmpeg!); // killed after the test if it survived
    expect(alive(ffmpeg!)).toBe(true);
    expect(fs.readFileSync(`/proc/${ffmpeg}/cmdline`, "utf8").split("\0")[0]).toMatch(/ffmpeg$/);

    host.kill("SIGKILL");
    await new Promise((resolve) => host.once("exit", resolve));
    // the kernel sends SIGKILL to the child as its parent dies; no sweep has run
    await waitFor(async () => (!alive(ffmpeg!) ? true : undefined), 5_000, 20);
    expect(alive(ffmpeg!)).toBe(false);
  });

  it("recorded by a dead process are killed by the start-up sweep; live owners and reused pids are left alone", async () => {
    const registry = path.join(dir, "run-b");
    fs.mkdirSync(registry, { recursive: true });
    // an ffmpeg that would survive its parent (started plainly, as where setpriv is missing)
    const orphan = spawn("ffmpeg", ["-nostdin", "-re", "-f", "lavfi", "-i", "sine", "-f", "null", "-"], { stdio: "ignore", detached: true });
    const other = spawn("ffmpeg", ["-nostdin", "-re", "-f", "lavfi", "-i", "sine", "-f", "null", "-"], { stdio: "ignore", detached: true });
    await waitFor(async () => (startTimeOf(orphan.pid!) && startTimeOf(other.pid!) ? true : undefined), 5_000, 20);
    stray(orphan.pid!, other.pid!);
    // a dead owner (pid 1's start time never matches a made-up one) recorded the orphan…
    fs.writeFileSync(path.join(registry, `999999999.12345`), `${orphan.pid} ${startTimeOf(orphan.pid!)} ffmpeg\n${other.pid} 1 ffmpeg\n`);
    // …and a live owner (this test process) records the other one
    fs.writeFileSync(path.join(registry, `${process.ppid}.${startTimeOf(process.ppid)}`), `${other.pid} ${startTimeOf(other.pid!)} ffmpeg\n`);

    const killed = sweepStaleChildren(registry);
    expect(killed).toBe(1);
    await waitFor(async () => (!alive(orphan.pid!) ? true : undefined), 5_000, 20);
    // the second line named the other ffmpeg with another start time: a reused pid, not ours to kill
    expect(alive(other.pid!)).toBe(true);
    expect(fs.readdirSync(registry)).toEqual([`${process.ppid}.${startTimeOf(process.ppid)}`]);
  });
});
