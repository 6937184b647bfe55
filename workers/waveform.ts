import type { CutroomDb } from "../src/db";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";

/**
 * Issue 14, trim and split dialogs: a media file's waveform and silences (GET /media/{id}/waveform), mirrored in
 * Dexie (meta `waveform:{id}`) the first time a dialog needs it. Peaks never change for a file, so the mirror's copy
 * is used from then on, offline too; a dialog works without it when it cannot be had.
 */
export function createWaveformActions(db: CutroomDb, call: ApiCall) {
  const loading = new Map<number, Promise<Result<{ cached: boolean }>>>();

  async function load(mediaFileId: number): Promise<Result<{ cached: boolean }>> {
    if (await db.meta.get(`waveform:${mediaFileId}`)) return { ok: true, data: { cached: true } };
    const result = await call("media.waveform", { params: { id: mediaFileId } });
    if (!result.ok) return result;
    await db.meta.put({ key: `waveform:${mediaFileId}`, value: result.data });
    return { ok: true, data: { cached: false } };
  }

  return {
    /** Mirrors a file's waveform unless the mirror has it; one request per file however many dialogs ask. */
    loadWaveform(mediaFileId: number): Promise<Result<{ cached: boolean }>> {
      let pending = loading.get(mediaFileId);
      if (!pending) {
        pending = load(mediaFileId).finally(() => loading.delete(mediaFileId));
        loading.set(mediaFileId, pending);
      }
      return pending;
    },
  };
}
