import type { Db } from "../db";
import { jobId } from "../jobs/queue";
import type { FileStore } from "../storage/local";
import { ensureLibraryProject } from "./library-projects";
import { mediaFolder } from "./library";

/** A POST /library takes milliseconds between its steps; a row older than this is not in flight anywhere. */
export const LIBRARY_RECOVERY_MARGIN_MS = 10_000;

export interface LibraryRecoveryDeps {
  db: Db;
  store: Pick<FileStore, "list" | "remove">;
  enqueueIngest: (mediaFileId: number, userId: number) => Promise<void>;
  /** Whether the queue knows a job (queued, running or finished); default: a row of the jobs table (issue 19: BullMQ keeps its jobs in Redis). */
  jobKnown?: (id: string) => Promise<boolean>;
}

export interface LibraryRecovery {
  undone: number;
  keyed: number;
  requeued: number;
}

/**
 * POST /library in steps (services/library.ts createFromUpload): insert the row (storage key
 * "pending") → move the upload into the store → record the key → queue the file's ingest. A server
 * killed between two steps leaves a library file that would stay "processing" forever, and a retry
 * of the request would find its name taken. This finishes or undoes such a file (issue 12, crash
 * recovery):
 * - the upload was not moved yet: the row goes, the upload stays, and the same POST works again;
 * - the upload was moved but its key not recorded: the key is recorded from the file in the store;
 * - a file left "processing" without its ingest job: the job is queued (with its library project).
 * Only rows older than `olderThanMs` are touched, so a request in flight in another process is left alone.
 */
export async function recoverLibraryAdds(deps: LibraryRecoveryDeps, olderThanMs: number, now = Date.now()): Promise<LibraryRecovery> {
  const { db } = deps;
  const before = new Date(now - olderThanMs).toISOString();
  const result: LibraryRecovery = { undone: 0, keyed: 0, requeued: 0 };

  const pending = await db.selectFrom("media_files").select(["id", "user_id"]).where("storage_key", "=", "pending").where("created_at", "<", before).execute();
  for (const media of pending) {
    const folder = mediaFolder(media.user_id, media.id);
    const source = (await deps.store.list(folder)).find((name) => name.startsWith("source.") && !name.includes(".part."));
    if (source) {
      await db.updateTable("media_files").set({ storage_key: `${mediaFolder(media.user_id, media.id)}/${source}` }).where("id", "=", media.id).execute();
      result.keyed += 1;
      continue;
    }
    // Nothing of it was kept: as if the request never happened (its upload is still there to post again).
    await db.transaction().execute(async (trx) => {
      const projects = await trx.selectFrom("projects").select("id").where("library_media_file_id", "=", media.id).execute();
      const ids = projects.map((p) => p.id);
      if (ids.length) {
        await trx.deleteFrom("project_media").where("project_id", "in", ids).execute();
        await trx.deleteFrom("projects").where("id", "in", ids).execute();
      }
      await trx.deleteFrom("project_media").where("media_file_id", "=", media.id).execute();
      await trx.deleteFrom("media_files").where("id", "=", media.id).execute();
    });
    await deps.store.remove(folder);
    result.undone += 1;
  }

  const processing = await db
    .selectFrom("media_files")
    .selectAll()
    .where("status", "=", "processing")
    .where("deleted_at", "is", null)
    .where("storage_key", "!=", "pending")
    .where("created_at", "<", before)
    .execute();
  for (const media of processing) {
    const id = jobId("ingest-media", { mediaFileId: media.id });
    const known = deps.jobKnown ? await deps.jobKnown(id) : (await db.selectFrom("jobs").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
    if (known) continue; // queued, running, or finished: the queue and its onFailed take care of it
    await ensureLibraryProject(db, media);
    await deps.enqueueIngest(media.id, media.user_id);
    result.requeued += 1;
  }
  return result;
}

