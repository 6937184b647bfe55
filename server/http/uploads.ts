import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Server as TusServer } from "@tus/server";
import { FileStore as TusFileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { API_BASE } from "../../api/route";
import { UPLOAD_ID_PATTERN } from "../../api/media";
import type { ErrorBody, ErrorCode } from "../../api/errors";
import { DomainError } from "../services/errors";

export const UPLOADS_PATH = `${API_BASE}/uploads`;
const OWNER_HEADER = "x-cutroom-owner";

/** The only form of upload id the server mints: `<owner id>-<uuid v4>`. */
export const isUploadId = (id: string) => UPLOAD_ID_PATTERN.test(id);

export interface UploadsDeps {
  directory: string;
  /** The plan's single-file limit and the storage left (plan storage − stored media) of a user. */
  quotasFor: (userId: number) => Promise<{ uploadMaxSizeBytes: number; storageBytes: number }>;
  /** An upload not adopted by POST /library within this long is removed (0: never). */
  expiryMs: number;
  /** Upload creations (POST /uploads) one user may make per minute. */
  creationsPerMinute: number;
  /**
   * STORAGE=s3 (issue 19): uploads are written to the bucket by `@tus/s3-store` (multipart), each as the object
   * `<upload id>` with its metadata in `<upload id>.info`; `store` makes a finished one local to probe it.
   */
  bucket?: {
    clientConfig: S3ClientConfig;
    name: string;
    client: S3Client;
    fetch: (key: string) => Promise<string>;
    forget: (key: string) => Promise<void>;
  };
}

/** tus's parts on S3 (5 MiB is S3's least part size). */
const S3_PART_BYTES = 8 * 1_048_576;

/** An upload id names its owner, so a request for another user's upload can be refused before tus sees it. */
export const uploadOwner = (uploadId: string): number | undefined => {
  if (!isUploadId(uploadId)) return undefined;
  const owner = Number(uploadId.split("-")[0]);
  return Number.isSafeInteger(owner) && owner > 0 ? owner : undefined;
};

/**
 * The upload id of a request URL (path and optional query), or undefined when the URL is not exactly
 * `/api/v1/uploads/<id>` with an id of the minted form. tus's own extraction takes the last `/` segment
 * of the whole URL, query included; this one never looks past the path.
 */
export function uploadIdOfUrl(url: string): string | undefined {
  let pathname = url.split("?")[0]!;
  // tus hands over absolute URLs, Fastify the request target.
  if (!pathname.startsWith("/")) {
    try {
      pathname = new URL(url).pathname;
    } catch {
      return undefined;
    }
  }
  if (!pathname.startsWith(`${UPLOADS_PATH}/`)) return undefined;
  const id = pathname.slice(UPLOADS_PATH.length + 1);
  return isUploadId(id) ? id : undefined;
}

/**
 * Tells the tus server who owns the request. tus reads headers from `rawHeaders`, so the header is
 * set there, after removing any copy the client sent: the owner comes from the token only.
 */
function setOwner(request: FastifyRequest, userId: number | undefined) {
  const raw = request.raw.rawHeaders;
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== OWNER_HEADER) kept.push(raw[i]!, raw[i + 1]!);
  }
  if (userId !== undefined) kept.push(OWNER_HEADER, String(userId));
  raw.splice(0, raw.length, ...kept);
  if (userId !== undefined) request.raw.headers[OWNER_HEADER] = String(userId);
  else delete request.raw.headers[OWNER_HEADER];
}

const ownerOf = (header: string | null) => {
  const id = Number(header);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
};

/** tus errors are thrown as `{ status_code, body }`. */
const tusError = (status_code: number, body: string) => ({ status_code, body });

const SINGLE_FILE_MESSAGE = "One or more files exceed the single-file size limit";

/** tus answers its errors in plain text; the API answers every error as `{ message, code }`. */
function errorBodyFor(status: number, text: string): { status: number; body: ErrorBody } | undefined {
  const json = (code: ErrorCode, message: string, to = status) => ({ status: to, body: { message, code } });
  if (status < 400) return undefined;
  if (status === 401) return json("unauthenticated", "Please authenticate");
  if (status === 404) return json("not_found", "Not found");
  if (status === 409) return json("upload_conflict", "The upload's offset does not match the server's");
  if (status === 410) return json("upload_expired", "This upload has expired");
  if (status === 413) {
    return /maximum size/i.test(text) ? json("file_too_big", SINGLE_FILE_MESSAGE) : json("payload_too_large", "The request is more than the upload's declared size");
  }
  if (status === 429) return json("rate_limited", "Too many attempts. Wait a minute and try again.");
  if (status >= 500 && status !== 501) return json("internal", "Internal server error", 500);
  // Protocol faults: a missing or invalid header, an unsupported extension, a lock taken by another request.
  // 403 would sign the app out (SPEC §8), so those are plain bad requests.
  const message = text.trim().split("\n")[0]!.slice(0, 200) || "Bad request";
  return json("bad_request", message, status === 412 ? 412 : 400);
}

/** The tus server and its file store; mounted on HTTP by `registerUploads`. */
export function createUploads(deps: UploadsDeps) {
  mkdirSync(deps.directory, { recursive: true });
  const bucket = deps.bucket;
  const datastore = bucket
    ? new S3Store({ partSize: S3_PART_BYTES, expirationPeriodInMilliseconds: deps.expiryMs, s3ClientConfig: { ...bucket.clientConfig, bucket: bucket.name } })
    : new TusFileStore({ directory: deps.directory, expirationPeriodInMilliseconds: deps.expiryMs });

  /**
   * S3: the uploads in the bucket's top level, of one owner or all: tus's (an `.info` object beside the bytes) and
   * presigned POSTs' (/signeds3: the object alone, its size and age its own).
   */
  async function bucketUploads(owner?: number): Promise<{ id: string; tus: boolean; size: number; modified: number }[]> {
    const found = new Map<string, { id: string; tus: boolean; size: number; modified: number }>();
    let token: string | undefined;
    do {
      const page = await bucket!.client.send(new ListObjectsV2Command({ Bucket: bucket!.name, Prefix: owner === undefined ? "" : `${owner}-`, Delimiter: "/", ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        const info = o.Key?.endsWith(".info") ?? false;
        const id = info ? o.Key!.slice(0, -".info".length) : (o.Key ?? "");
        if (!isUploadId(id)) continue;
        const entry = found.get(id) ?? { id, tus: false, size: 0, modified: o.LastModified?.getTime() ?? Date.now() };
        if (info) entry.tus = true;
        else entry.size = o.Size ?? 0;
        found.set(id, entry);
      }
      token = page.NextContinuationToken;
    } while (token);
    return [...found.values()];
  }

  /** Bytes held by the user's uploads that are not in the library yet (declared lengths), but `except`. */
  async function pendingBytes(userId: number, except?: string): Promise<number> {
    if (bucket) {
      let total = 0;
      for (const { id, tus, size } of await bucketUploads(userId)) {
        if (id === except) continue;
        const upload = tus ? await datastore.getUpload(id).catch(() => undefined) : { size, offset: size };
        total += Number(upload?.size ?? upload?.offset ?? 0) || 0;
      }
      return total;
    }
    const names = await fs.readdir(deps.directory).catch(() => [] as string[]);
    let total = 0;
    for (const name of names) {
      if (!name.endsWith(".json")) continue;
      const id = name.slice(0, -".json".length);
      if (id === except || uploadOwner(id) !== userId) continue;
      try {
        const upload = JSON.parse(await fs.readFile(path.join(deps.directory, name), "utf8")) as { size?: number; offset?: number };
        // A deferred length (a recording streamed while it records, issue 17) counts the bytes it holds so far.
        const held = upload.size ?? (await fs.stat(path.join(deps.directory, id)).then((s) => s.size, () => upload.offset ?? 0));
        total += Number(held) || 0;
      } catch {
        // Removed meanwhile, or being written: not counted.
      }
    }
    return total;
  }

  /** What one more upload of this user may weigh, and which limit binds it. */
  async function allowance(userId: number, except?: string) {
    const quotas = await deps.quotasFor(userId);
    const storageLeft = Math.max(0, quotas.storageBytes - (await pendingBytes(userId, except)));
    return { single: quotas.uploadMaxSizeBytes, storageLeft, max: Math.max(0, Math.min(quotas.uploadMaxSizeBytes, storageLeft)) };
  }

  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore,
    respectForwardedHeaders: false,
    // Checked again after auth below; this only names the file.
    namingFunction: (req) => {
      const owner = ownerOf(req.headers.get(OWNER_HEADER));
      if (owner === undefined) throw tusError(401, "Please authenticate");
      return `${owner}-${randomUUID()}`;
    },
    // The id tus works on is read from the path alone, never from the query.
    getFileIdFromRequest: (req) => uploadIdOfUrl(req.url),
    // Whatever id tus extracted, it must be the requester's.
    onIncomingRequest: async (req, uploadId) => {
      const owner = ownerOf(req.headers.get(OWNER_HEADER));
      if (owner === undefined || uploadOwner(uploadId) !== owner) throw tusError(404, "Not found");
    },
    // 0 means "no limit" to tus, so a user with nothing left gets 1 byte (creation was refused before).
    maxSize: async (req, uploadId) => {
      const owner = ownerOf(req.headers.get(OWNER_HEADER));
      if (owner === undefined) return 0;
      return Math.max(1, (await allowance(owner, uploadId ?? undefined)).max);
    },
  });
  // Every answer of tus in the API's error shape, its protocol headers kept.
  const handler = (tus as unknown as { handler: (req: Request) => Promise<Response> }).handler.bind(tus);
  (tus as unknown as { handler: (req: Request) => Promise<Response> }).handler = async (req) => {
    const res = await handler(req);
    res.headers.set("cache-control", "no-store");
    const mapped = errorBodyFor(res.status, res.status >= 400 ? await res.text().catch(() => "") : "");
    if (!mapped) return res;
    const body = JSON.stringify(mapped.body);
    const headers = new Headers(res.headers);
    headers.set("content-type", "application/json; charset=utf-8");
    headers.set("content-length", String(Buffer.byteLength(body)));
    return new Response(body, { status: mapped.status, headers });
  };

  /** Removes the bytes and tus's metadata file, whether or not the upload was adopted. */
  async function remove(uploadId: string) {
    if (!isUploadId(uploadId)) return;
    await datastore.remove(uploadId).catch(() => undefined);
    if (bucket) {
      // A presigned POST's object has no tus record for the store to go by.
      const Objects = [uploadId, `${uploadId}.info`, `${uploadId}.part`].map((Key) => ({ Key }));
      await bucket.client.send(new DeleteObjectsCommand({ Bucket: bucket.name, Delete: { Objects, Quiet: true } }));
      await bucket.forget(uploadId);
    }
    await fs.rm(path.join(deps.directory, uploadId), { force: true });
    await fs.rm(path.join(deps.directory, `${uploadId}.json`), { force: true });
  }

  /** Removes every upload (finished or not) older than the expiry that POST /library has not adopted. */
  async function removeExpired(now = Date.now()): Promise<number> {
    if (deps.expiryMs <= 0) return 0;
    let removed = 0;
    if (bucket) {
      for (const { id, tus, modified } of await bucketUploads()) {
        const created = tus ? Date.parse((await datastore.getUpload(id).catch(() => undefined))?.creation_date ?? "") : modified;
        if (Number.isFinite(created) && now - created > deps.expiryMs) {
          await remove(id);
          removed += 1;
        }
      }
      return removed;
    }
    const names = await fs.readdir(deps.directory).catch(() => [] as string[]);
    for (const name of names) {
      const id = name.endsWith(".json") ? name.slice(0, -".json".length) : name;
      if (!isUploadId(id)) continue;
      let created: number;
      try {
        const meta = JSON.parse(await fs.readFile(path.join(deps.directory, `${id}.json`), "utf8")) as { creation_date?: string };
        created = Date.parse(meta.creation_date ?? "");
        if (!Number.isFinite(created)) created = (await fs.stat(path.join(deps.directory, name))).mtimeMs;
      } catch {
        // Bytes without metadata (or the reverse): aged by the file itself.
        created = await fs.stat(path.join(deps.directory, name)).then((s) => s.mtimeMs, () => now);
      }
      if (now - created > deps.expiryMs) {
        await remove(id);
        removed += name.endsWith(".json") ? 1 : 0;
      }
    }
    return removed;
  }

  const creations = new Map<number, { windowStart: number; count: number }>();
  /** A fixed one-minute window per user; false when the user is over the limit. */
  function takeCreation(userId: number, now = Date.now()): boolean {
    const entry = creations.get(userId);
    if (!entry || now - entry.windowStart >= 60_000) {
      if (creations.size > 10_000) for (const [id, e] of creations) if (now - e.windowStart >= 60_000) creations.delete(id);
      creations.set(userId, { windowStart: now, count: 1 });
      return true;
    }
    entry.count += 1;
    return entry.count <= deps.creationsPerMinute;
  }

  let sweeper: NodeJS.Timeout | undefined;

  return {
    tus,
    datastore,
    expiryMs: deps.expiryMs,
    pendingBytes,
    allowance,
    takeCreation,
    removeExpired,
    /** Where a finished upload's bytes are on this machine (S3: a copy in the store's cache, gone with `remove`). */
    async localPath(uploadId: string): Promise<string> {
      if (!isUploadId(uploadId)) throw new DomainError("not_found", "No such upload");
      return bucket ? bucket.fetch(uploadId) : path.join(deps.directory, uploadId);
    },
    /** The ids of a user's uploads not in the library yet (S3: tus's and presigned POSTs' in the bucket). */
    async ownedBy(userId: number): Promise<string[]> {
      if (bucket) return (await bucketUploads(userId)).map((u) => u.id);
      const names = await fs.readdir(deps.directory).catch(() => [] as string[]);
      return [...new Set(names.map((name) => name.replace(/\.json$/, "")))].filter((id) => uploadOwner(id) === userId);
    },
    /** S3: the finished upload is the bucket's object of this name (adopted by a server-side copy). */
    bucketKey: (uploadId: string) => (bucket && isUploadId(uploadId) ? uploadId : undefined),
    async info(uploadId: string) {
      if (!isUploadId(uploadId)) return undefined;
      try {
        return await datastore.getUpload(uploadId);
      } catch {
        return undefined;
      }
    },
    remove,
    /** Sweeps expired uploads now and then every `everyMs` (an hour at most). */
    startSweeping(everyMs = Math.min(3600_000, Math.max(60_000, deps.expiryMs / 4)), onError?: (error: unknown) => void) {
      if (sweeper || deps.expiryMs <= 0) return;
      const sweep = () => void removeExpired().catch((error) => onError?.(error));
      sweep();
      sweeper = setInterval(sweep, everyMs);
      sweeper.unref();
    },
    stopSweeping() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
    },
  };
}

export type Uploads = ReturnType<typeof createUploads>;

const notFound = (reply: FastifyReply) => reply.status(404).header("cache-control", "no-store").send({ message: "Not found", code: "not_found" } satisfies ErrorBody);

/** Resumable uploads (tus protocol) under /api/v1/uploads, behind bearer auth. */
export function registerUploads(app: FastifyInstance, uploads: Uploads, authenticate: (request: FastifyRequest) => Promise<void>) {
  app.addHook("onReady", async () => uploads.startSweeping(undefined, (error) => app.log.error({ err: error }, "upload sweep failed")));
  app.addHook("onClose", async () => uploads.stopSweeping());
  app.register(async (scope) => {
    // tus reads the raw body itself.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const target = request.raw.url ?? request.url;
      const collection = target.split("?")[0] === UPLOADS_PATH;
      const id = uploadIdOfUrl(target);
      if (request.method === "OPTIONS") {
        // A CORS preflight or tus discovery: no credentials, no owner.
        if (!collection && !id) return notFound(reply);
        setOwner(request, undefined);
      } else {
        await authenticate(request);
        const userId = request.userId!;
        // Only `/uploads` (creation) and `/uploads/<id>` of one's own upload exist; anything else is 404.
        if (request.method === "POST" ? !collection : !id || uploadOwner(id) !== userId) return notFound(reply);
        if (!["POST", "HEAD", "PATCH", "DELETE", "GET"].includes(request.method)) return notFound(reply);
        setOwner(request, userId);
        if (request.method === "PATCH") await dropRepeatedLength(request, id!);
        if (request.method === "POST") {
          // One creation at a time per user, so two at once cannot both fit in the same storage left.
          return oneAtATime(userId, async () => {
            await admitCreation(request, userId);
            reply.hijack();
            await uploads.tus.handle(request.raw, reply.raw);
          });
        }
      }
      reply.hijack();
      await uploads.tus.handle(request.raw, reply.raw);
    };

    /**
     * A deferred upload whose last PATCH declared the length but broke before all its bytes arrived is resumed
     * with the same Upload-Length again; tus refuses a second declaration, so one equal to the first is dropped.
     */
    async function dropRepeatedLength(request: FastifyRequest, id: string) {
      const header = request.headers["upload-length"];
      if (typeof header !== "string") return;
      const info = await uploads.info(id);
      if (info?.size === undefined || String(info.size) !== header.trim()) return;
      const raw = request.raw.rawHeaders;
      const kept: string[] = [];
      for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== "upload-length") kept.push(raw[i]!, raw[i + 1]!);
      raw.splice(0, raw.length, ...kept);
      delete request.raw.headers["upload-length"];
    }

    const creating = new Map<number, Promise<unknown>>();
    async function oneAtATime(userId: number, task: () => Promise<void>) {
      const previous = creating.get(userId) ?? Promise.resolve();
      const current = previous.catch(() => undefined).then(task);
      const settled = current.catch(() => undefined);
      creating.set(userId, settled);
      try {
        await current;
      } finally {
        if (creating.get(userId) === settled) creating.delete(userId);
      }
    }

    /** Before tus creates an upload: the rate limit, a declared length, the single-file limit and the storage left. */
    async function admitCreation(request: FastifyRequest, userId: number) {
      if (!uploads.takeCreation(userId)) {
        throw new DomainError("rate_limited", "Too many uploads started. Wait a minute and try again.");
      }
      const declared = request.headers["upload-length"];
      const allowed = await uploads.allowance(userId);
      if (declared === undefined && request.headers["upload-defer-length"] === "1") {
        // A recording streamed while it records (issue 17): its length comes with its last chunk. Every chunk is
        // held to what the user has left (tus's maxSize per PATCH), and what it has so far counts as pending.
        if (allowed.single <= 0) throw new DomainError("file_too_big", SINGLE_FILE_MESSAGE);
        if (allowed.storageLeft <= 0) throw new DomainError("not_enough_storage", "Not enough storage");
        return;
      }
      if (typeof declared !== "string" || !/^\d{1,15}$/.test(declared)) {
        throw new DomainError("bad_request", "Upload-Length or Upload-Defer-Length: 1 is required");
      }
      const length = Number(declared);
      if (length > allowed.single) throw new DomainError("file_too_big", SINGLE_FILE_MESSAGE);
      if (length > allowed.storageLeft) throw new DomainError("not_enough_storage", "Not enough storage");
    }

    scope.all(UPLOADS_PATH, handle);
    scope.all(`${UPLOADS_PATH}/*`, handle);
  });
}
