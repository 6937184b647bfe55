import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "../db";
import { leaseOwnerIsDeadHere } from "./local";
import type { JobContext } from "./types";

/**
 * What a killed process leaves behind (issue 12 item 9): half-written `*.part.*` outputs in the store
 * and the render scratch folders of its jobs. Swept once at start-up, before the runner claims
 * anything, and never what a job running in another process (sharing the database) still writes.
 */

/** A job attempt's own scratch folder: `<tmp>/<job id, base64url>.<attempt>`, so the sweep can tell whose it is. */
export function attemptDir(tmpDir: string, ctx: Pick<JobContext, "jobId" | "attempt">): string {
  return path.join(tmpDir, `${Buffer.from(ctx.jobId).toString("base64url")}.${ctx.attempt}`);
}

function parseAttemptDir(name: string): { jobId: string; attempt: number } | undefined {
  const match = /^([A-Za-z0-9_-]+)\.(\d+)$/.exec(name);
  if (!match) return undefined;
  return { jobId: Buffer.from(match[1]!, "base64url").toString("utf8"), attempt: Number(match[2]) };
}

/** A temporary output of an atomic write (`proxy.mp4.1a2b3c4d.part.mp4`) or a render's scratch folder beside its output. */
const isLeftoverName = (name: string) => name.includes(".part.") || name.startsWith(".cutroom-render-");

export interface SweepOptions {
  db: Db;
  /** The file store's folder (DATA_DIR/store). */
  storeDir: string;
  /** The jobs' scratch folders (DATA_DIR/tmp). */
  tmpDir: string;
  /** The runner's lease: a file another live runner writes is touched more often than this. */
  leaseMs: number;
  now?: number;
  /**
   * The attempts running anywhere right now, when the queue is not the jobs table (issue 19: the BullMQ
   * adapter's active jobs); default: the jobs table's live leases.
   */
  liveAttempts?: () => Promise<{ id: string; attempt: number }[]>;
}

export interface SweepResult {
  partFiles: number;
  scratchDirs: number;
  /** Folders of deleted projects' renders. */
  deletedProjects: number;
}

/**
 * Removes the leftovers of dead attempts:
 * - a scratch folder of `tmp/` unless its job is running that very attempt under a lease that has not expired
 *   (and whose process, when it is on this machine, is alive);
 * - a `.part.` file or `.cutroom-render-` folder of the store when no job holds a live lease at all
 *   (nothing can be writing it: this process's runner has not started), else only one untouched for
 *   longer than the lease (a live ffmpeg writes its output continuously).
 */
export async function sweepLeftovers(options: SweepOptions): Promise<SweepResult> {
  const now = options.now ?? Date.now();
  const nowIso = new Date(now).toISOString();
  let live: Set<string>;
  if (options.liveAttempts) live = new Set((await options.liveAttempts()).map((j) => `${j.id}\n${j.attempt}`));
  else {
    const leases = await options.db
      .selectFrom("jobs")
      .select(["id", "attempts", "lease_owner"])
      .where("status", "=", "running")
      .where("lease_expires_at", ">=", nowIso)
      .execute();
    // a lease of a killed process on this machine has not expired yet, but nobody writes under it any more
    const liveLeases = leases.filter((j) => !leaseOwnerIsDeadHere(j.lease_owner));
    live = new Set(liveLeases.map((j) => `${j.id}\n${j.attempts}`));
  }

  let scratchDirs = 0;
  for (const entry of await readDir(options.tmpDir)) {
    const owner = parseAttemptDir(entry.name);
    if (owner && live.has(`${owner.jobId}\n${owner.attempt}`)) continue;
    await fs.rm(path.join(options.tmpDir, entry.name), { recursive: true, force: true });
    scratchDirs += 1;
  }

  let partFiles = 0;
  const stale = async (file: string) => {
    if (live.size === 0) return true;
    const stat = await fs.stat(file).catch(() => undefined);
    return !!stat && now - stat.mtimeMs > options.leaseMs;
  };
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readDir(dir)) {
      const full = path.join(dir, entry.name);
      if (isLeftoverName(entry.name)) {
        if (await stale(full)) {
          await fs.rm(full, { recursive: true, force: true });
          partFiles += 1;
        }
      } else if (entry.isDirectory()) {
        await walk(full);
      }
    }
  };
  await walk(options.storeDir);

  // Renders of projects deleted before their files went with them (or re-made by a render that was late to hear of it).
  let deletedProjects = 0;
  const projectsDir = path.join(options.storeDir, "projects");
  for (const user of await readDir(projectsDir)) {
    const folders = (await readDir(path.join(projectsDir, user.name))).filter((e) => e.isDirectory() && /^\d+$/.test(e.name));
    if (!/^\d+$/.test(user.name) || folders.length === 0) continue;
    const deleted = await options.db
      .selectFrom("projects")
      .select("id")
      .where("user_id", "=", Number(user.name))
      .where("id", "in", folders.map((f) => Number(f.name)))
      .where("deleted_at", "is not", null)
      .execute();
    for (const { id } of deleted) {
      await fs.rm(path.join(projectsDir, user.name, String(id)), { recursive: true, force: true });
      deletedProjects += 1;
    }
  }
  return { partFiles, scratchDirs, deletedProjects };
}

async function readDir(dir: string) {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
