import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { localFileStore, type FileStore } from "./local";
import { s3FileStore, type S3FileStore, type S3Settings } from "./s3";

export type { FileStore } from "./local";
export type { S3FileStore } from "./s3";

/** The origins a browser fetches bucket files from (path style: the endpoint; else the bucket's own host too). */
export function bucketOrigins(s3: Pick<S3Settings, "endpoint" | "publicEndpoint" | "bucket" | "forcePathStyle">): string[] {
  const url = new URL(s3.publicEndpoint ?? s3.endpoint);
  return s3.forcePathStyle ? [url.origin] : [url.origin, `${url.protocol}//${s3.bucket}.${url.host}`];
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * The store STORAGE names: DATA_DIR/store, or the bucket with this process's own cache folder under
 * DATA_DIR/s3-cache (one per process, so an API and workers may share a DATA_DIR); the folders of
 * processes no longer running are removed first.
 */
export function createFileStore(config: Pick<Config, "storeDir" | "s3">, log?: { warn: (fields: object, message: string) => void }): FileStore & Partial<Pick<S3FileStore, "client" | "bucket" | "copy" | "signedPost" | "sizeOf" | "cache" | "check">> {
  if (!config.s3) return localFileStore(config.storeDir);
  const parent = config.s3.cacheDir;
  fs.mkdirSync(parent, { recursive: true });
  for (const name of fs.readdirSync(parent)) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid === process.pid || !alive(pid)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  return s3FileStore({ ...config.s3, cacheDir: path.join(parent, String(process.pid)) }, log);
}
