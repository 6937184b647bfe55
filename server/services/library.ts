import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Db } from "../db";
import { likeAsciiCaseless } from "../db/sql";
import { findMedia, findMediaById, findMediaByName, insertMedia, listMedia, type MediaRow } from "../db/media";
import { findProject, type ProjectRow } from "../db/projects";
import { LIBRARY_PAGE_SIZE, type LibraryCreateBody, type LibraryItem, type LibraryTab, type MediaFile } from "../../api/media";
import type { TextLine } from "../../api/storyboard";
import type { z } from "zod";
import { probe, UnreadableMediaError, UnsupportedMediaError } from "../media";
import type { FileStore } from "../storage/local";
import type { Uploads } from "../http/uploads";
import { isUploadId, uploadOwner } from "../http/uploads";
import type { Accounts } from "./accounts";
import type { FileLinks } from "./file-links";
import type { Scenes } from "./scenes";
import { adoptOrphanMedia, completeLibraryProject, ensureLibraryProject } from "./library-projects";
import { DomainError, notFound } from "./errors";

export { LIBRARY_PAGE_SIZE };

export interface LibraryDeps {
  db: Db;
  store: FileStore & {
    copy?: (fromKey: string, toKey: string) => Promise<void>;
    signedPost?: (key: string, maxBytes: number) => Promise<{ url: string; fields: Record<string, string> }>;
    sizeOf?: (key: string) => Promise<number | undefined>;
  };
  uploads: Pick<Uploads, "info" | "localPath" | "bucketKey" | "remove" | "allowance" | "takeCreation">;
  accounts: Pick<Accounts, "quotas" | "mustBeVerified">;
  links: FileLinks;
  /** Scenes are presented exactly as the storyboard presents them. */
  scenes: Pick<Scenes, "presentMany">;
  /** Queues the processing of a new file (proxy, thumbnails, analysis). */
  enqueueIngest: (mediaFileId: number, userId: number) => Promise<void>;
}

export const mediaKey = (userId: number, mediaId: number, file: string) => `media/${userId}/${mediaId}/${file}`;
/** Every stored file of one upload (original, proxy, thumbnails) lives under this prefix. */
export const mediaFolder = (userId: number, mediaId: number) => `media/${userId}/${mediaId}`;

/** A user's text inside LIKE: %, _ and the escape character match themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const likeContains = (text: string) => `%${escapeLike(text)}%`;
const pages = (total: number) => Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE));
const bit = (v: unknown): 0 | 1 => (v ? 1 : 0);

/** A library or project row of the library page, with what its file adds. */
type ItemRow = ProjectRow & { media_kind: MediaRow["kind"] | null; media_progress: number | null; media_duration: number | null; media_thumbnail: string | null };

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

  function toItem(row: ItemRow, used: number): LibraryItem {
    const isLibrary = row.type === "library";
    const thumbnail = row.thumbnail_key ?? row.media_thumbnail;
    return {
      id: row.id,
      name: row.name,
      type: isLibrary ? "library" : "project",
      kind: isLibrary ? row.media_kind : null,
      media_file_id: isLibrary ? row.library_media_file_id : null,
      duration: isLibrary ? (row.media_duration ?? 0) : row.duration_out_seconds || row.duration_in_seconds,
      scenes_count: row.scenes_count,
      thumbnail_url: thumbnail ? deps.links.url(thumbnail) : null,
      preview_url: row.raw_preview_key ? deps.links.url(row.raw_preview_key) : null,
      raw_preview_render: bit(row.raw_preview_render),
      progress: isLibrary ? (row.media_progress ?? 0) : row.working_progress_raw,
      used_in_projects: isLibrary ? used : 0,
      created_at: row.created_at,
    };
  }

  /**
   * Per file, the other live projects that use it: through their files or through scenes taken from
   * the library. A file's own library project does not count.
   */
  async function usage(mediaIds: number[], q: Db = db): Promise<Map<number, number>> {
    const users = new Map<number, Set<number>>();
    if (mediaIds.length === 0) return new Map();
    const viaFiles = await q
      .selectFrom("project_media")
      .innerJoin("projects", "projects.id", "project_media.project_id")
      .select(["project_media.media_file_id as media", "projects.id as project"])
      .where("project_media.media_file_id", "in", mediaIds)
      .where("projects.deleted_at", "is", null)
      .where("projects.type", "!=", "library")
      .execute();
    const viaScenes = await q
      .selectFrom("scenes")
      .innerJoin("projects", "projects.id", "scenes.project_id")
      .select(["scenes.media_file_id as media", "projects.id as project"])
      .distinct()
      .where("scenes.media_file_id", "in", mediaIds)
      .where("projects.deleted_at", "is", null)
      .where("projects.type", "!=", "library")
      .execute();
    for (const { media, project } of [...viaFiles, ...viaScenes]) {
      if (media === null) continue;
      if (!users.has(media)) users.set(media, new Set());
      users.get(media)!.add(project);
    }
    return new Map([...users].map(([media, projects]) => [media, projects.size]));
  }

  /** A live project of this user, of either type; another user's id is not found. */
  async function ownedProject(userId: number, id: number): Promise<ProjectRow> {
    const row = await findProject(db, userId, id);
    if (!row || row.deleted_at) throw notFound("No such project");
    return row;
  }

  /** A project's main scenes (overlays sit on them and are not listed), in storyboard order. */
  const mainScenes = (projectId: number) => db.selectFrom("scenes").where("project_id", "=", projectId).where("parent_scene_id", "is", null);

  async function scenePage(projectId: number, page: number, ids?: number[]) {
    let query = mainScenes(projectId);
    if (ids) {
      const slice = ids.slice((page - 1) * LIBRARY_PAGE_SIZE, page * LIBRARY_PAGE_SIZE);
      const rows = slice.length ? await query.selectAll().where("id", "in", slice).orderBy("order").orderBy("id").execute() : [];
      return { data: await deps.scenes.presentMany(projectId, rows), current_page: page, last_page: pages(ids.length), total: ids.length };
    }
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
    query = query.orderBy("order").orderBy("id").limit(LIBRARY_PAGE_SIZE).offset((page - 1) * LIBRARY_PAGE_SIZE);
    const rows = await query.selectAll().execute();
    return { data: await deps.scenes.presentMany(projectId, rows), current_page: page, last_page: pages(Number(total)), total: Number(total) };
  }

  /** Refuses, and removes the upload so a refused file costs no storage. */
  async function refuse(uploadId: string, error: DomainError): Promise<never> {
    await deps.uploads.remove(uploadId);
    throw error;
  }

  return {
    toMediaFile,

    /**
     * POST /signeds3 (SPEC §7, issue 19): a presigned POST for one new upload id of this user, held to what one
     * more upload may weigh; S3 refuses any other key or a bigger file. POST /library adopts it like a tus upload.
     */
    async signedPost(userId: number): Promise<{ postEndpoint: string; signature: Record<string, string> }> {
      if (!deps.store.signedPost) throw notFound("Direct uploads to storage need STORAGE=s3; upload through /uploads");
      if (!deps.uploads.takeCreation(userId)) throw new DomainError("rate_limited", "Too many uploads started. Wait a minute and try again.");
      const allowed = await deps.uploads.allowance(userId);
      if (allowed.single <= 0) throw new DomainError("file_too_big", "One or more files exceed the single-file size limit");
      if (allowed.storageLeft <= 0) throw new DomainError("not_enough_storage", "Not enough storage");
      const post = await deps.store.signedPost(`${userId}-${randomUUID()}`, allowed.max);
      return { postEndpoint: post.url, signature: post.fields };
    },

    /** POST /library: a finished upload becomes a library file, if its content and the quotas allow. */
    async createFromUpload(userId: number, body: z.output<typeof LibraryCreateBody>): Promise<MediaFile> {
      // Processing waits for a verified address (issue 12 item 15); refused before the upload is touched.
      if (body.process) await deps.accounts.mustBeVerified(userId);
      const uploadId = body.media_file;
      // Only the exact form tus mints (issue 12 item 3): no path of any other shape reaches the uploads folder.
      if (!isUploadId(uploadId) || uploadOwner(uploadId) !== userId) throw notFound("No such upload");
      // A presigned POST's object (/signeds3) has no tus record: its size is the object's.
      const posted = !(await deps.uploads.info(uploadId)) && deps.uploads.bucketKey(uploadId) && deps.store.sizeOf ? await deps.store.sizeOf(uploadId) : undefined;
      const upload = posted !== undefined ? { size: posted, offset: posted, metadata: {} as Record<string, string | null> } : await deps.uploads.info(uploadId);
      if (!upload) throw notFound("No such upload");
      if (upload.size === undefined || upload.offset < upload.size) {
        throw new DomainError("upload_incomplete", "The upload has not finished yet");
      }
      if (await findMediaByName(db, userId, body.name)) {
        return refuse(uploadId, new DomainError("duplicate_name", "A file with this name is already in your library"));
      }

      const source = await deps.uploads.localPath(uploadId);
      // The length is measured from the packets, up to just past the plan's per-file limit (a header can lie).
      const lengthLimitSeconds = (await deps.accounts.quotas(userId)).uploadMaxLengthMinutes * 60;
      let info;
      try {
        info = await probe(source, { measureUpTo: lengthLimitSeconds + 1 });
      } catch (error) {
        // A playlist, a list of files, text…: refused by its container before anything it names is opened (issue 12 item 1).
        if (error instanceof UnsupportedMediaError) {
          return refuse(uploadId, new DomainError("unsupported_format", "Uploaded file may be corrupted or not be compatible"));
        }
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
        container: info.container,
        status: body.process ? "processing" : "ready",
        progress: 0,
        raw_preview_render: 0,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
      const key = mediaKey(userId, row.id, `source${extension}`);
      // STORAGE=s3 (issue 19): the bucket copies the upload's object; else the file is moved into the store.
      const inBucket = deps.uploads.bucketKey(uploadId);
      if (inBucket && deps.store.copy) await deps.store.copy(inBucket, key);
      else await deps.store.adopt(source, key);
      await deps.uploads.remove(uploadId);
      await db.updateTable("media_files").set({ storage_key: key }).where("id", "=", row.id).execute();
      const media = { ...row, storage_key: key };
      // Its library project: filled in by the ingest job, or now for a file that is not processed.
      if (body.process) {
        await ensureLibraryProject(db, media);
        await deps.enqueueIngest(row.id, userId);
      } else {
        await completeLibraryProject(db, media);
      }
      return toMediaFile(media);
    },

    async get(userId: number, id: number): Promise<MediaFile> {
      const row = await findMedia(db, userId, id);
      if (!row) throw notFound();
      return toMediaFile(row);
    },

    async list(userId: number, page: number, kind?: MediaRow["kind"]) {
      await adoptOrphanMedia(db, userId);
      const { rows, total } = await listMedia(db, userId, page, LIBRARY_PAGE_SIZE, kind);
      return { data: rows.map(toMediaFile), current_page: page, last_page: pages(total), total };
    },

    /**
     * GET /library/projects/search: the videos, audios and images tabs list library items of that kind,
     * the scenes tab the user's own projects that have scenes; newest first, searched by name.
     */
    async search(userId: number, tab: LibraryTab, text: string, page: number) {
      if (tab !== "scenes") await adoptOrphanMedia(db, userId);
      let query = db
        .selectFrom("projects")
        .leftJoin("media_files", "media_files.id", "projects.library_media_file_id")
        .where("projects.user_id", "=", userId)
        .where("projects.deleted_at", "is", null);
      query =
        tab === "scenes"
          ? query.where("projects.type", "=", "project").where((eb) => eb.exists(eb.selectFrom("scenes").select("scenes.id").whereRef("scenes.project_id", "=", "projects.id")))
          : query.where("projects.type", "=", "library").where("media_files.kind", "=", tab).where("media_files.deleted_at", "is", null);
      const needle = text.trim();
      if (needle) query = query.where(likeAsciiCaseless(db, "projects.name", likeContains(needle)));
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
      const rows: ItemRow[] = await query
        .selectAll("projects")
        .select(["media_files.kind as media_kind", "media_files.progress as media_progress", "media_files.duration_seconds as media_duration", "media_files.thumbnail_key as media_thumbnail"])
        .orderBy("projects.id", "desc")
        .limit(LIBRARY_PAGE_SIZE)
        .offset((page - 1) * LIBRARY_PAGE_SIZE)
        .execute();
      const used = await usage(rows.flatMap((r) => (r.type === "library" && r.library_media_file_id ? [r.library_media_file_id] : [])));
      return {
        data: rows.map((r) => toItem(r, r.library_media_file_id ? (used.get(r.library_media_file_id) ?? 0) : 0)),
        current_page: page,
        last_page: pages(Number(total)),
        total: Number(total),
      };
    },

    /** GET /library/projects/{id}/scenes: a page of one item's (or project's) scenes. */
    async scenes(userId: number, projectId: number, page: number) {
      await ownedProject(userId, projectId);
      return scenePage(projectId, page);
    },

    /**
     * GET /library/projects/{id}/search: scenes whose text contains the query, in any case. The text is
     * JSON: SQL narrows it coarsely, then the lines themselves are matched so a key such as "start" never is.
     */
    async searchScenes(userId: number, projectId: number, text: string, page: number) {
      await ownedProject(userId, projectId);
      const needle = text.trim().toLowerCase();
      if (!needle) return scenePage(projectId, page);
      let query = mainScenes(projectId).select(["id", "text"]);
      // LIKE folds ASCII case only: other text is matched in code alone.
      if (/^[\x20-\x7e]+$/.test(needle)) query = query.where(likeAsciiCaseless(db, "text", likeContains(JSON.stringify(needle).slice(1, -1))));
      const rows = await query.orderBy("order").orderBy("id").execute();
      const ids = rows
        .filter((row) => {
          const lines = (JSON.parse(row.text) as TextLine[]).map((line) => line.text.toLowerCase());
          return lines.some((line) => line.includes(needle)) || lines.join(" ").includes(needle);
        })
        .map((row) => row.id);
      return scenePage(projectId, page, ids);
    },

    /** PUT /projects/{id} with a name on a library item: the file takes the name too, unique as at upload. */
    async renameItem(project: ProjectRow, name: string): Promise<void> {
      const mediaId = project.library_media_file_id;
      if (!mediaId) return;
      const clash = await findMediaByName(db, project.user_id, name);
      if (clash && clash.id !== mediaId) throw new DomainError("duplicate_name", "A file with this name is already in your library");
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("media_files").set({ name, updated_at: now }).where("id", "=", mediaId).execute();
        await trx.updateTable("projects").set({ name, updated_at: now }).where("id", "=", project.id).execute();
      });
    },

    /**
     * DELETE /projects/{id} on a library item: the item and its file go, stored files included, unless
     * another project uses the file (SPEC §2: files used in projects cannot be deleted).
     */
    async removeItem(project: ProjectRow): Promise<void> {
      const mediaId = project.library_media_file_id;
      const media = mediaId ? await findMediaById(db, mediaId) : undefined;
      const live = media && !media.deleted_at ? media : undefined;
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        if (live) {
          const used = (await usage([live.id], trx)).get(live.id) ?? 0;
          if (used > 0) {
            throw new DomainError("media_in_use", `This file is used in ${used === 1 ? "a project" : `${used} projects`} and cannot be removed`);
          }
          // The ingest job would write its files again after they were removed.
          if (live.status === "processing") throw new DomainError("media_not_ready", "This file is still being processed; remove it once it is ready");
          await trx.updateTable("media_files").set({ deleted_at: now, updated_at: now }).where("id", "=", live.id).execute();
        }
        await trx.updateTable("projects").set({ deleted_at: now, updated_at: now, is_queued: 0 }).where("id", "=", project.id).execute();
      });
      // Minutes stay charged (the row remains, deleted); the bytes are freed.
      if (live) await deps.store.remove(mediaFolder(live.user_id, live.id));
    },
  };
}

export type Library = ReturnType<typeof createLibrary>;
