import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import fs from "node:fs/promises";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Server as TusServer } from "@tus/server";
import { FileStore as TusFileStore } from "@tus/file-store";
import { API_BASE } from "../../api/route";
import type { ErrorBody } from "../../api/errors";

export const UPLOADS_PATH = `${API_BASE}/uploads`;
const OWNER_HEADER = "x-cutroom-owner";

export interface UploadsDeps {
  directory: string;
  /** The most one upload of this user may weigh: the plan's single-file limit within the storage left. */
  maxBytesFor: (userId: number) => Promise<number>;
}

/** An upload id names its owner, so a request for another user's upload can be refused before tus sees it. */
export const uploadOwner = (uploadId: string): number | undefined => {
  const owner = Number(uploadId.split("-")[0]);
  return Number.isInteger(owner) && owner > 0 ? owner : undefined;
};

/**
 * Tells the tus server who owns the request. tus reads headers from `rawHeaders`, so the header is
 * set there, after removing any copy the client sent: the owner comes from the token only.
 */
function setOwner(request: FastifyRequest, userId: number) {
  const raw = request.raw.rawHeaders;
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== OWNER_HEADER) kept.push(raw[i]!, raw[i + 1]!);
  }
  kept.push(OWNER_HEADER, String(userId));
  raw.splice(0, raw.length, ...kept);
  request.raw.headers[OWNER_HEADER] = String(userId);
}

const ownerOf = (header: string | null) => {
  const id = Number(header);
  if (!Number.isInteger(id) || id <= 0) throw new Error("upload request without an authenticated owner");
  return id;
};

/** The tus server and its file store; mounted on HTTP by `registerUploads`. */
export function createUploads(deps: UploadsDeps) {
  mkdirSync(deps.directory, { recursive: true });
  const datastore = new TusFileStore({ directory: deps.directory });
  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore,
    respectForwardedHeaders: false,
    // Checked again after auth below; this only names the file.
    namingFunction: (req) => `${ownerOf(req.headers.get(OWNER_HEADER))}-${randomUUID()}`,
    maxSize: async (req) => deps.maxBytesFor(ownerOf(req.headers.get(OWNER_HEADER))),
  });

  return {
    tus,
    datastore,
    /** Where a finished upload's bytes are. */
    pathOf: (uploadId: string) => `${deps.directory}/${uploadId}`,
    async info(uploadId: string) {
      try {
        return await datastore.getUpload(uploadId);
      } catch {
        return undefined;
      }
    },
    /** Removes the bytes and tus's metadata file, whether or not the upload was adopted. */
    async remove(uploadId: string) {
      await datastore.remove(uploadId).catch(() => undefined);
      await fs.rm(`${deps.directory}/${uploadId}`, { force: true });
      await fs.rm(`${deps.directory}/${uploadId}.json`, { force: true });
    },
  };
}

export type Uploads = ReturnType<typeof createUploads>;

/** Resumable uploads (tus protocol) under /api/v1/uploads, behind bearer auth. */
export function registerUploads(app: FastifyInstance, uploads: Uploads, authenticate: (request: FastifyRequest) => Promise<void>) {
  app.register(async (scope) => {
    // tus reads the raw body itself.
    scope.addContentTypeParser("application/offset+octet-stream", (_req, _payload, done) => done(null));
    const handle = async (request: FastifyRequest, reply: import("fastify").FastifyReply) => {
      if (request.method !== "OPTIONS") {
        await authenticate(request);
        const id = request.url.split("?")[0]!.slice(UPLOADS_PATH.length + 1);
        if (id && uploadOwner(id) !== request.userId) {
          return reply.status(404).send({ message: "Not found", code: "not_found" } satisfies ErrorBody);
        }
        setOwner(request, request.userId!);
      }
      reply.hijack();
      await uploads.tus.handle(request.raw, reply.raw);
    };
    scope.all(UPLOADS_PATH, handle);
    scope.all(`${UPLOADS_PATH}/*`, handle);
  });
}
