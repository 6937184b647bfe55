import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs/promises";
import path from "node:path";

interface Entry {
  size: number;
  lastUsed: number;
  /** Jobs that use the file now: it is neither evicted nor removed while any does. */
  pins: number;
}

interface Scope {
  keys: Set<string>;
}

/**
 * The S3 adapter's local copies (issue 19): one file per key under `root`, at most `limitBytes` in all.
 * A job fetches each input once and keeps it pinned while it runs, and what it pinned is removed when it
 * ends; copies made outside a job (an HTTP request's) stay until the least recently used go to make room.
 * Only a single job whose own inputs outgrow the limit takes it past the limit, for as long as it runs.
 */
export function boundedCache(root: string, limitBytes: number, onOverLimit?: (fields: { totalBytes: number; limitBytes: number }) => void) {
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<string>>();
  const scopes = new AsyncLocalStorage<Scope>();
  let total = 0;
  /** Uses in order (a clock of its own: many happen within one millisecond). */
  let clock = 0;
  const fileOf = (key: string) => path.join(root, key);

  async function drop(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.size;
    await fs.rm(fileOf(key), { force: true });
  }

  /** Least recently used first, never a pinned one nor `keep`. */
  async function makeRoom(keep: string) {
    if (total <= limitBytes) return;
    const idle = [...entries].filter(([key, e]) => key !== keep && e.pins === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [key] of idle) {
      if (total <= limitBytes) return;
      await drop(key);
    }
    if (total > limitBytes) onOverLimit?.({ totalBytes: total, limitBytes });
  }

  function pin(key: string, entry: Entry) {
    entry.lastUsed = ++clock;
    const scope = scopes.getStore();
    if (scope && !scope.keys.has(key)) {
      scope.keys.add(key);
      entry.pins += 1;
    }
  }

  /** Records a file now at `fileOf(key)` (downloaded, or written and uploaded) and pins it for the running job. */
  async function add(key: string): Promise<string> {
    const size = (await fs.stat(fileOf(key))).size;
    const old = entries.get(key);
    if (old) total -= old.size;
    const entry: Entry = { size, lastUsed: ++clock, pins: old?.pins ?? 0 };
    entries.set(key, entry);
    total += size;
    pin(key, entry);
    await makeRoom(key);
    return fileOf(key);
  }

  return {
    root,
    limitBytes,
    /** The local copy of `key`, made by `download(target)` only when there is none. */
    async get(key: string, download: (target: string) => Promise<void>): Promise<string> {
      const entry = entries.get(key);
      if (entry) {
        pin(key, entry);
        return fileOf(key);
      }
      const pending = loading.get(key);
      if (pending) {
        await pending;
        return this.get(key, download);
      }
      const work = (async () => {
        const target = fileOf(key);
        await fs.mkdir(path.dirname(target), { recursive: true });
        const part = `${target}.${process.pid}-${Date.now()}.download`;
        try {
          await download(part);
          await fs.rename(part, target);
        } finally {
          await fs.rm(part, { force: true });
        }
        return add(key);
      })();
      loading.set(key, work);
      try {
        return await work;
      } finally {
        loading.delete(key);
      }
    },
    /** A file written at `fileOf(key)` and stored: kept for the running job, else removed at once. */
    async keepWritten(key: string) {
      if (scopes.getStore()) await add(key);
      else await drop(key).then(() => fs.rm(fileOf(key), { force: true }));
    },
    has: (key: string) => entries.has(key),
    /** Forgets every copy at or under `keyOrPrefix`. */
    async forget(keyOrPrefix: string) {
      for (const key of [...entries.keys()]) if (key === keyOrPrefix || key.startsWith(`${keyOrPrefix}/`)) await drop(key);
    },
    /** Runs a job; the copies it pinned and no other job holds are removed when it ends. */
    async scope<T>(work: () => Promise<T>): Promise<T> {
      if (scopes.getStore()) return work();
      const scope: Scope = { keys: new Set() };
      try {
        return await scopes.run(scope, work);
      } finally {
        for (const key of scope.keys) {
          const entry = entries.get(key);
          if (!entry) continue;
          entry.pins -= 1;
          if (entry.pins <= 0) await drop(key);
        }
      }
    },
    stats: () => ({ files: entries.size, totalBytes: total, limitBytes }),
  };
}

export type BoundedCache = ReturnType<typeof boundedCache>;
