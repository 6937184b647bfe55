import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CopyObjectCommand,
  CreateBucketCommand,
  HeadBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { createPresignedPost } from "@aws-sdk/s3-presigned-post";
import { boundedCache } from "./cache";
import { checkKey, type FileStore } from "./local";

export interface S3Settings {
  endpoint: string;
  /** The endpoint browsers reach, when it differs from the servers' (presigned URLs are signed for its host). */
  publicEndpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Local copies of inputs and outputs on their way to the bucket. */
  cacheDir: string;
  cacheBytes: number;
  /** Lifetime of a presigned GET or POST, in seconds. */
  presignSeconds: number;
}

/** The SDK client's settings, shared with `@tus/s3-store`. Credentials never reach a log or a URL. */
export function s3ClientConfig(s: S3Settings): S3ClientConfig {
  return {
    endpoint: s.endpoint,
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    // Only what S3 itself asks for: some S3-compatible servers refuse the newer optional checksums.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  };
}

const notFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404;
};

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

export type S3FileStore = ReturnType<typeof s3FileStore>;

/** Media in an S3-compatible bucket (STORAGE=s3), through the AWS SDK v3. */
export function s3FileStore(settings: S3Settings, log?: { warn: (fields: object, message: string) => void }) {
  const client = new S3Client(s3ClientConfig(settings));
  // Presigned URLs name the host they were signed for: the one browsers reach.
  const presigner = settings.publicEndpoint ? new S3Client({ ...s3ClientConfig(settings), endpoint: settings.publicEndpoint }) : client;
  const Bucket = settings.bucket;
  const root = path.resolve(settings.cacheDir);
  const cache = boundedCache(root, settings.cacheBytes, (fields) => log?.warn(fields, "one job's inputs outgrow S3_CACHE_MB"));
  const pathOf = (key: string) => path.join(root, checkKey(key));

  async function put(file: string, key: string) {
    const { size } = await fs.stat(file);
    await client.send(new PutObjectCommand({ Bucket, Key: key, Body: createReadStream(file), ContentLength: size }));
  }

  /** Every key at `key` or under `key/`. */
  async function keysUnder(key: string): Promise<string[]> {
    const found: string[] = [];
    for (const prefix of [key, `${key}/`]) {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token, ...(prefix === key ? { MaxKeys: 1 } : {}) }));
        for (const o of page.Contents ?? []) if (o.Key && (o.Key === key || o.Key.startsWith(`${key}/`))) found.push(o.Key);
        token = prefix === key ? undefined : page.NextContinuationToken;
      } while (token);
    }
    return [...new Set(found)];
  }

  async function download(key: string, target: string, signal?: AbortSignal) {
    const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }), { abortSignal: signal });
    await pipeline(answer.Body as Readable, createWriteStream(target), { signal });
  }

  const store = {
    kind: "s3" as const,
    root,
    client,
    bucket: Bucket,
    cache,
    pathOf,
    fetch: (key: string, signal?: AbortSignal) => cache.get(checkKey(key), (target) => download(key, target, signal)),
    async commit(keyOrFolder: string) {
      const local = pathOf(keyOrFolder);
      const stat = await fs.stat(local);
      if (stat.isDirectory()) {
        // A folder replaces the one stored before (thumbnails): the old keys go first.
        await store.remove(keyOrFolder, { keepLocal: true });
        for await (const file of walk(local)) await put(file, path.relative(root, file).split(path.sep).join("/"));
        await fs.rm(local, { recursive: true, force: true });
        return;
      }
      await put(local, keyOrFolder);
      await cache.keepWritten(keyOrFolder);
    },
    async adopt(fromPath: string, key: string) {
      checkKey(key);
      await put(fromPath, key);
      await fs.rm(fromPath, { force: true });
    },
    /** A server-side copy (an upload adopted into the library). */
    async copy(fromKey: string, toKey: string) {
      await client.send(new CopyObjectCommand({ Bucket, Key: checkKey(toKey), CopySource: `${Bucket}/${checkKey(fromKey)}` }));
    },
    async remove(keyOrPrefix: string, options: { keepLocal?: boolean } = {}) {
      checkKey(keyOrPrefix);
      const keys = await keysUnder(keyOrPrefix);
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        const answer = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
        if (answer.Errors?.length) throw new Error(`could not remove ${answer.Errors.length} stored files (${answer.Errors[0]?.Code})`);
      }
      if (!options.keepLocal) {
        await cache.forget(keyOrPrefix);
        await fs.rm(pathOf(keyOrPrefix), { recursive: true, force: true });
      }
    },
    async exists(key: string) {
      if (cache.has(checkKey(key))) return true;
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (!notFound(error)) throw error;
      }
      return (await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${key}/`, MaxKeys: 1 }))).KeyCount! > 0;
    },
    async list(folder: string) {
      const names: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${checkKey(folder)}/`, Delimiter: "/", ContinuationToken: token }));
        for (const o of page.Contents ?? []) if (o.Key) names.push(o.Key.slice(folder.length + 1));
        token = page.NextContinuationToken;
      } while (token);
      return names;
    },
    jobScope: <T>(work: () => Promise<T>) => cache.scope(work),
    /** A short-lived presigned GET; `download` names the file a browser saves. */
    signedGet(key: string, options: { download?: string; contentDisposition?: string } = {}) {
      return getSignedUrl(
        presigner,
        new GetObjectCommand({ Bucket, Key: checkKey(key), ...(options.contentDisposition ? { ResponseContentDisposition: options.contentDisposition } : {}) }),
        { expiresIn: settings.presignSeconds },
      );
    },
    /** A presigned POST for exactly `key`, at most `maxBytes`. */
    signedPost(key: string, maxBytes: number) {
      return createPresignedPost(presigner, {
        Bucket,
        Key: checkKey(key),
        Conditions: [["content-length-range", 1, Math.max(1, maxBytes)], ["eq", "$key", key]],
        Expires: settings.presignSeconds,
      });
    },
    /** The object's size, or undefined when there is none. */
    async sizeOf(key: string): Promise<number | undefined> {
      try {
        return (await client.send(new HeadObjectCommand({ Bucket, Key: checkKey(key) }))).ContentLength;
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    },
    /** At start: the bucket answers, or is made when there is none (an account without that right gets a clear error). */
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        if (!notFound(error)) throw new Error(`S3_BUCKET ${Bucket} at S3_ENDPOINT is not reachable (HTTP ${(error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? (error as Error).name}); check the endpoint and keys`);
        await client.send(new CreateBucketCommand({ Bucket }));
      }
    },
  } satisfies FileStore & Record<string, unknown>;
  return store;
}
