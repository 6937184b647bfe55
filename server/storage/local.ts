import fs from "node:fs/promises";
import path from "node:path";

/** The file-store port. Keys are relative paths such as `media/7/42/proxy.mp4`. */
export interface FileStore {
  /** The directory keys are relative to (local store only). */
  readonly root: string;
  /** Absolute path of a key on this machine (local store only; S3 will stream instead). */
  pathOf(key: string): string;
  /** Moves a finished file into the store under `key`. */
  adopt(fromPath: string, key: string): Promise<void>;
  remove(keyOrPrefix: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

const SAFE_KEY = /^[A-Za-z0-9._/-]+$/;

/** The default store: a directory under DATA_DIR. */
export function localFileStore(root: string): FileStore {
  const pathOf = (key: string) => {
    if (!SAFE_KEY.test(key) || key.split("/").includes("..")) throw new Error(`unsafe storage key ${key}`);
    return path.join(root, key);
  };
  return {
    root,
    pathOf,
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
  };
}
