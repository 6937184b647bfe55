import path from "node:path";
import type { Db } from "../db";
import { findMedia, findMediaByName, insertMedia, listMedia, type MediaRow } from "../db/media";
import type { LibraryCreateBody, MediaFile } from "../../api/media";
import type { z } from "zod";
import { probe, UnreadableMediaError } from "../media";
import type { FileStore } from "../storage/local";
import type { Uploads } from "../http/uploads";
import { uploadOwner } from "../http/uploads";
import type { Accounts } from "./accounts";
import type { FileLinks } from "./file-links";
import { DomainError, notFound } from "./errors";

export const LIBRARY_PAGE_SIZE = 24;

export interface LibraryDeps {
  db: Db;
  store: FileStore;
  uploads: Pick<Uploads, "info" | "pathOf" | "remove">;
  accounts: Pick<Accounts, "quotas">;
  links: FileLinks;
  /** Queues the processing of a new file (proxy, thumbnails, analysis). */
  enqueueIngest: (mediaFileId: number, userId: number) => Promise<void>;
}

export const mediaKey = (userId: number, mediaId: number, file: string) => `media/${userId}/${mediaId}/${file}`;

export function createLibrary(deps: LibraryDeps) {
  const { db } = deps;

  function toMediaFile(row: MediaRow): MediaFile {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      type: row.type,
      duration: row.duration_seconds,
      size: Number(row.size_bytes),
      width: row.width,
      height: row.height,
      language: row.language,
      has_speech: row.has_speech ? 1 : 0,
      status: row.status,
      progress: row.progress,
      raw_preview_render: row.raw_preview_render ? 1 : 0,
      thumbnail_url: row.thumbnail_key ? deps.links.url(row.thumbnail_key) : null,
      preview_url: row.proxy_key ? deps.links.url(row.proxy_key) : null,
      created_at: row.created_at,
    };
  }

  /** Refuses, and removes the upload so a refused file costs no storage. */
  async function refuse(uploadId: string, error: DomainError): Promise<never> {
    await deps.uploads.remove(uploadId);
    throw error;
  }

  return {
    toMediaFile,

    /** POST /library: a finished upload becomes a library file, if its content and the quotas allow. */
    async createFromUpload(userId: number, body: z.output<typeof LibraryCreateBody>): Promise<MediaFile> {
      const uploadId = body.media_file;
      if (uploadOwner(uploadId) !== userId) throw notFound("No such upload");
      const upload = await deps.uploads.info(uploadId);
      if (!upload) throw notFound("No such upload");
      if (upload.size === undefined || upload.offset < upload.size) {
        throw new DomainError("upload_incomplete", "The upload has not finished yet");
      }
      if (await findMediaByName(db, userId, body.name)) {
        return refuse(uploadId, new DomainError("duplicate_name", "A file with this name is already in your library"));
      }

      const source = deps.uploads.pathOf(uploadId);
      let info;
      try {
        info = await probe(source);
      } catch (error) {
        if (error instanceof UnreadableMediaError) {
          return refuse(uploadId, new DomainError("media_unreadable", "Uploaded file may be corrupted or not be compatible"));
        }
        throw error;
      }

      const quotas = await deps.accounts.quotas(userId);
      const size = upload.offset;
      if (size > quotas.uploadMaxSizeBytes) return refuse(uploadId, new DomainError("file_too_big", "One or more files exceed the single-file size limit"));
      if (size > quotas.storageBytes) return refuse(uploadId, new DomainError("not_enough_storage", "Not enough storage"));
      if (info.kind !== "image") {
        if (info.durationSeconds > quotas.uploadMaxLengthMinutes * 60) {
          return refuse(uploadId, new DomainError("file_too_long", "The uploaded file is too long for your plan"));
        }
        if (body.process && info.durationSeconds / 60 > quotas.processingMinutes) {
          return refuse(uploadId, new DomainError("not_enough_minutes", "Not enough processing minutes"));
        }
      }

      const now = new Date().toISOString();
      const extension = path.extname(body.name).toLowerCase().replace(/[^a-z0-9.]/g, "").slice(0, 8) || ".bin";
      const row = await insertMedia(db, {
        user_id: userId,
        name: body.name,
        kind: info.kind,
        type: body.role === "main" ? "library" : body.role,
        mime: (upload.metadata?.filetype as string | undefined) ?? null,
        size_bytes: size,
        duration_seconds: info.kind === "image" ? 0 : info.durationSeconds,
        width: info.width ?? null,
        height: info.height ?? null,
        fps: info.fps ?? null,
        has_audio: info.hasAudio ? 1 : 0,
        has_speech: info.kind === "image" ? 0 : body.has_speech,
        language: body.has_speech ? body.locale : null,
        storage_key: "pending",
        proxy_key: null,
        thumbnail_key: null,
        analysis: null,
        status: body.process ? "processing" : "ready",
        progress: 0,
        raw_preview_render: 0,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
      const key = mediaKey(userId, row.id, `source${extension}`);
      await deps.store.adopt(source, key);
      await deps.uploads.remove(uploadId);
      await db.updateTable("media_files").set({ storage_key: key }).where("id", "=", row.id).execute();
      if (body.process) await deps.enqueueIngest(row.id, userId);
      return toMediaFile({ ...row, storage_key: key });
    },

    async get(userId: number, id: number): Promise<MediaFile> {
      const row = await findMedia(db, userId, id);
      if (!row) throw notFound();
      return toMediaFile(row);
    },

    async list(userId: number, page: number, kind?: MediaRow["kind"]) {
      const { rows, total } = await listMedia(db, userId, page, LIBRARY_PAGE_SIZE, kind);
      return { data: rows.map(toMediaFile), current_page: page, last_page: Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE)), total };
    },
  };
}

export type Library = ReturnType<typeof createLibrary>;
