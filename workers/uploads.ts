import * as tus from "tus-js-client";
import { ErrorBody } from "../api/errors";
import type { CutroomDb, UploadRow } from "../src/db";
import type { ApiCall } from "./api-client";
import type { Failure } from "./status";

export const UPLOAD_ENDPOINT = "/api/v1/uploads";
/** Write progress to the mirror at most this often: every write re-renders the views. */
const PROGRESS_WRITE_MS = 250;
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000];

const failureCode = (failure: Failure) => (failure.kind === "body" ? failure.body.code : failure.kind);

/** The error code of a tus answer that will not get better by retrying (the server answers `{ message, code }`). */
export function refusalCode(error: tus.DetailedError): string | undefined {
  const status = error.originalResponse?.getStatus();
  if (status === 413) return "file_too_big";
  // Lost sessions, timeouts, offset conflicts, locks and rate limits resume later.
  if (!status || status < 400 || status >= 500 || [401, 408, 409, 423, 429].includes(status)) return undefined;
  try {
    const code = ErrorBody.shape.code.safeParse(JSON.parse(error.originalResponse!.getBody()).code);
    return code.success ? code.data : "bad_request";
  } catch {
    return "bad_request";
  }
}

/**
 * Drives tus uploads from the worker. State lives in Dexie, so the views follow it and a reload
 * (or a dropped connection) resumes from the stored upload URL.
 */
export function createUploader(db: CutroomDb, call: ApiCall, token: () => Promise<string | undefined>) {
  const active = new Map<string, tus.Upload>();

  async function register(row: UploadRow, uploadUrl: string) {
    const mediaFile = uploadUrl.split("/").pop()!;
    const result = await call("library.create", {
      body: {
        media_file: mediaFile,
        name: row.name,
        locale: (row.locale as never) ?? null,
        process: 1,
        has_speech: row.locale ? 1 : 0,
        role: row.role,
      },
    });
    if (result.ok) {
      await db.media.put(result.data.media_file);
      // The bytes are on the server now: drop the local copy.
      await db.uploads.update(row.id, { status: "completed", progress: 100, mediaFileId: result.data.media_file.id, file: new Blob() });
    } else {
      await db.uploads.update(row.id, { status: "failed", error: failureCode(result.failure) });
    }
  }

  async function start(id: string): Promise<void> {
    const row = await db.uploads.get(id);
    if (!row || active.has(id) || row.status === "completed" || row.status === "canceled") return;
    if (row.status === "success" && row.uploadUrl) return register(row, row.uploadUrl);
    const bearer = await token();
    if (!bearer) return;
    await db.uploads.update(id, { status: "uploading", error: undefined });
    let lastWrite = 0;
    await new Promise<void>((resolve) => {
      const upload = new tus.Upload(row.file, {
        endpoint: UPLOAD_ENDPOINT,
        uploadUrl: row.uploadUrl,
        // A kept recording (issue 17) resumes the upload its stream opened, whose length is declared at the end.
        uploadLengthDeferred: !!row.deferred && !!row.uploadUrl,
        retryDelays: RETRY_DELAYS,
        chunkSize: 8 * 1024 * 1024,
        headers: { authorization: `Bearer ${bearer}` },
        metadata: { filename: row.name, filetype: row.mime },
        storeFingerprintForResuming: false,
        onUploadUrlAvailable: () => void db.uploads.update(id, { uploadUrl: upload.url ?? undefined }),
        onProgress: (sent, reported) => {
          // A deferred length reports no total: the file's own size is it.
          const total = reported || row.size || 1;
          const now = Date.now();
          if (now - lastWrite < PROGRESS_WRITE_MS && sent < total) return;
          lastWrite = now;
          void db.uploads.update(id, { progress: Math.min(100, Math.floor((sent / total) * 1000) / 10) });
        },
        onSuccess: async () => {
          active.delete(id);
          await db.uploads.update(id, { status: "success", progress: 100, uploadUrl: upload.url ?? row.uploadUrl });
          const fresh = await db.uploads.get(id);
          if (fresh) await register(fresh, upload.url!);
          resolve();
        },
        onError: async (error) => {
          active.delete(id);
          const refused = refusalCode(error as tus.DetailedError);
          const current = await db.uploads.get(id);
          if (current?.status === "canceled") return resolve();
          // A refusal (SPEC §8's 'limit single file', no storage left…) fails the file with the server's code, shown
          // in the user's language; offline or a server hiccup after every retry keeps the row, to resume on the next start.
          await db.uploads.update(id, refused ? { status: "failed", error: refused } : { status: "selected", error: "network" });
          resolve();
        },
      });
      active.set(id, upload);
      upload.start();
    });
  }

  return {
    start,
    async cancel(id: string) {
      const upload = active.get(id);
      active.delete(id);
      await db.uploads.update(id, { status: "canceled" });
      // Terminating removes the partial file from the server.
      if (upload) await upload.abort(true).catch(() => undefined);
    },
    /** After a reload: pick up whatever was uploading or waiting to be registered. */
    async resumeAll() {
      const pending = await db.uploads.where("status").anyOf(["uploading", "success"]).toArray();
      await Promise.all(pending.map((row) => start(row.id)));
    },
  };
}
