import fs from "node:fs/promises";
import path from "node:path";

/**
 * The file-store port (issue 19). Keys are relative paths such as `media/7/42/proxy.mp4`.
 *
 * Every job and service works on local paths, in both modes: `fetch` makes a stored file's bytes local
 * (the file itself, or a copy in the bounded cache of the S3 adapter), `pathOf` names where an output is
 * written before `commit` stores it (in place, or uploaded to the bucket and the local copy dropped).
 */
export interface FileStore {
  readonly kind: "local" | "s3";
  /** The directory keys are relative to: the store itself (local) or its working copy and cache (S3). */
  readonly root: string;
  /** Where the key's bytes are (local) or are written before `commit` (S3). Refuses unsafe keys. */
  pathOf(key: string): string;
  /** A local path holding the key's bytes (S3: downloaded once into the cache, pinned for the running job). */
  fetch(key: string, signal?: AbortSignal): Promise<string>;
  /** Stores what was written at `pathOf(keyOrFolder)` (a file or a folder of files) under its key. */
  commit(keyOrFolder: string): Promise<void>;
  /** Moves a finished file into the store under `key`. */
  adopt(fromPath: string, key: string): Promise<void>;
  remove(keyOrPrefix: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The names directly in a folder key (`projects/7/9` → `preview-1.mp4`, …). */
  list(folder: string): Promise<string[]>;
  /** S3 only: a short-lived presigned GET of the key (media and download links are answered with it). */
  signedGet?(key: string, options?: { contentDisposition?: string }): Promise<string>;
  /** Runs a job's work so the files it fetched are let go (and the S3 cache emptied of them) when it ends. */
  jobScope<T>(work: () => Promise<T>): Promise<T>;
}

const SAFE_KEY = /^[A-Za-z0-9._/-]+$/;

/** A key's own form: the characters keys are made of, no `..` segment, no leading slash. */
export function checkKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.startsWith("/") || key.split("/").includes("..")) throw new Error(`unsafe storage key ${key}`);
  return key;
}

/** The default store: a directory under DATA_DIR. */
export function localFileStore(root: string): FileStore {
  const pathOf = (key: string) => path.join(root, checkKey(key));
  return {
    kind: "local",
    root,
    pathOf,
    fetch: async (key) => pathOf(key),
    commit: async (key) => void pathOf(key),
    async adopt(fromPath, key) {
      const target = pathOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      try {
        await fs.rename(fromPath, target);
      } catch (error) {
        // Different devices: copy, then remove the original.
        if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
        await fs.copyFile(fromPath, target);
        await fs.rm(fromPath, { force: true });
      }
    },
    remove: (keyOrPrefix) => fs.rm(pathOf(keyOrPrefix), { recursive: true, force: true }),
    exists: (key) => fs.access(pathOf(key)).then(() => true, () => false),
    list: (folder) => fs.readdir(pathOf(folder)).catch(() => [] as string[]),
    jobScope: (work) => work(),
  };
}
