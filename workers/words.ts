import type { CutroomDb, WordsRow } from "../src/db";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";

/** Words change only when a file is recognised again: a project opened again within this long is not asked twice. */
export const WORDS_FRESH_MS = 60_000;

/**
 * Issue 14, edit by transcript: the recognised words of an opened project's media files, mirrored in Dexie
 * (table `words`, one row per media file) so the transcript view and the trim/split dialogs read them
 * offline. A file the project no longer uses loses the project from its row; a row no project uses goes.
 */
export function createWordsActions(db: CutroomDb, call: ApiCall) {
  const loading = new Map<number, Promise<Result<{ files: number }>>>();
  const fetchedAt = new Map<number, number>();

  async function load(projectId: number): Promise<Result<{ files: number }>> {
    const result = await call("projects.words", { params: { id: projectId } });
    if (!result.ok) {
      if (result.failure.kind === "body" && result.failure.body.code === "not_found") await forget(projectId, new Set());
      return result;
    }
    const now = new Date().toISOString();
    const media = result.data.media;
    await db.transaction("rw", db.words, async () => {
      const existing = new Map((await db.words.bulkGet(media.map((m) => m.media_file_id))).filter((r): r is WordsRow => !!r).map((r) => [r.media_file_id, r]));
      await db.words.bulkPut(
        media.map((m) => ({
          media_file_id: m.media_file_id,
          project_ids: [...new Set([...(existing.get(m.media_file_id)?.project_ids ?? []), projectId])],
          language: m.language,
          draft: m.draft,
          words: m.words,
          fetchedAt: now,
        })),
      );
      await forget(projectId, new Set(media.map((m) => m.media_file_id)));
    });
    fetchedAt.set(projectId, Date.now());
    return { ok: true, data: { files: media.length } };
  }

  /** The project no longer uses files other than `keep`. */
  async function forget(projectId: number, keep: ReadonlySet<number>) {
    await db.transaction("rw", db.words, async () => {
      const rows = await db.words.where("project_ids").equals(projectId).toArray();
      for (const row of rows) {
        if (keep.has(row.media_file_id)) continue;
        const rest = row.project_ids.filter((id) => id !== projectId);
        if (rest.length === 0) await db.words.delete(row.media_file_id);
        else await db.words.update(row.media_file_id, { project_ids: rest });
      }
    });
  }

  return {
    /**
     * Mirrors the words of a project's files (when a project is opened). `fresh` asks again even when the
     * mirror was filled a moment ago (after a recreate, or once the project has finished processing).
     */
    loadProjectWords(projectId: number, fresh = false): Promise<Result<{ files: number }>> {
      const running = loading.get(projectId);
      if (running) return running;
      const last = fetchedAt.get(projectId);
      if (!fresh && last !== undefined && Date.now() - last < WORDS_FRESH_MS) return Promise.resolve({ ok: true, data: { files: -1 } });
      const promise = load(projectId).finally(() => loading.delete(projectId));
      loading.set(projectId, promise);
      return promise;
    },
  };
}
