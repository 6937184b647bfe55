import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CutroomDb } from "../../src/db";
import { createWaveformActions } from "../../workers/waveform";
import type { ApiCall } from "../../workers/api-client";
import type { Waveform } from "../../api/subtitles";

/** Issue 14: the trim and split dialogs' waveform is fetched once per file and kept in the mirror (offline use). */
const waveform: Waveform = { media_file_id: 5, per_second: 50, duration: 0.06, peaks: [0.1, 0.5, 0.2], silences: [{ start: 0, end: 0.02 }] };

let db: CutroomDb;
beforeEach(() => {
  db = new CutroomDb(`waveform-${Math.random()}`);
});
afterEach(async () => {
  await db.delete();
});

describe("loadWaveform", () => {
  it("fetches a file's waveform once, keeps it, and answers from the mirror after that (offline too)", async () => {
    const call = vi.fn(async () => ({ ok: true as const, data: waveform }));
    const { loadWaveform } = createWaveformActions(db, call as unknown as ApiCall);
    expect(await loadWaveform(5)).toEqual({ ok: true, data: { cached: false } });
    expect(call).toHaveBeenCalledWith("media.waveform", { params: { id: 5 } });
    expect(await db.meta.get("waveform:5")).toEqual({ key: "waveform:5", value: waveform });

    call.mockImplementation(async () => ({ ok: false, failure: { kind: "network" } }) as never);
    expect(await loadWaveform(5)).toEqual({ ok: true, data: { cached: true } });
    expect(call).toHaveBeenCalledTimes(1);
  });

  it("asks once for dialogs that open together", async () => {
    const call = vi.fn(async () => ({ ok: true as const, data: waveform }));
    const { loadWaveform } = createWaveformActions(db, call as unknown as ApiCall);
    await Promise.all([loadWaveform(5), loadWaveform(5), loadWaveform(5)]);
    expect(call).toHaveBeenCalledTimes(1);
  });

  it("keeps nothing when it cannot be had (offline, or another user's file), and tries again next time", async () => {
    const call = vi.fn(async () => ({ ok: false as const, failure: { kind: "network" as const } }));
    const { loadWaveform } = createWaveformActions(db, call as unknown as ApiCall);
    expect((await loadWaveform(5)).ok).toBe(false);
    expect(await db.meta.get("waveform:5")).toBeUndefined();
    call.mockImplementation(async () => ({ ok: true, data: waveform }) as never);
    expect(await loadWaveform(5)).toEqual({ ok: true, data: { cached: false } });
    expect(call).toHaveBeenCalledTimes(2);
  });

  it("is forgotten when the person signs out", async () => {
    const call = vi.fn(async () => ({ ok: true as const, data: waveform }));
    await createWaveformActions(db, call as unknown as ApiCall).loadWaveform(5);
    await db.signOutLocally();
    expect(await db.meta.get("waveform:5")).toBeUndefined();
  });
});
