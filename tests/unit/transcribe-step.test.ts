import { afterEach, describe, expect, it } from "vitest";
import { migrate, openSqlite, type Db } from "../../server/db";
import type { MediaRow } from "../../server/db/media";
import { seedPlans } from "../../server/db/plans";
import { createTranscribeStep, storedTranscript } from "../../server/jobs/transcribe";
import type { JobContext } from "../../server/jobs/types";
import { SpeechError, type SpeechAvailability, type SpeechToText } from "../../server/speech";
import type { FileStore } from "../../server/storage/local";

/** Issue 14: the transcribe step's outcomes — words kept on the file, reasons recorded, retries only while attempts are left. */

const warnings: string[] = [];
const log = { warn: (_f: unknown, m: string) => void warnings.push(m), info: () => {} } as never;
const store = { pathOf: (key: string) => `/store/${key}`, fetch: async (key: string) => `/store/${key}` } as unknown as FileStore;
let db: Db;

async function mediaRow(overrides: Partial<MediaRow> = {}): Promise<MediaRow> {
  db = openSqlite(":memory:");
  await migrate(db);
  await seedPlans(db);
  const now = new Date().toISOString();
  const user = await db.insertInto("users").values({ email: "a@b.c", password_hash: "x", first_name: "A", last_name: "B", locale: "en", plan_id: "free", created_at: now, updated_at: now } as never).returning("id").executeTakeFirstOrThrow();
  const row = await db
    .insertInto("media_files")
    .values({ user_id: user.id, name: "t.mp4", kind: "video", type: "main", size_bytes: 1, duration_seconds: 10, has_audio: 1, has_speech: 1, language: "en-US", storage_key: "media/t.mp4", status: "processing", progress: 0, raw_preview_render: 0, created_at: now, updated_at: now, ...overrides } as never)
    .returningAll()
    .executeTakeFirstOrThrow();
  return row as MediaRow;
}

const ctx = (attempt: number, maxAttempts = 3): JobContext => ({ jobId: "j", attempt, maxAttempts, signal: new AbortController().signal, heartbeat: async () => {} });

function speech(transcribe: SpeechToText["transcribe"], availability: SpeechAvailability = { available: true, engine: "pocketsphinx", draft: true }): SpeechToText {
  return { availability: async () => availability, transcribe };
}

afterEach(async () => {
  warnings.length = 0;
  await db?.destroy();
});

describe("transcribe step", () => {
  it("keeps the words on the media file, and a second project of the file reuses them", async () => {
    const media = await mediaRow();
    let calls = 0;
    const step = createTranscribeStep({
      db,
      store,
      log,
      speech: speech(async (_file, options) => {
        calls++;
        options.onProgress?.(0.5);
        return { words: [{ start: 0.5, end: 0.9, text: "hello", confidence: 0.9 }], engine: "pocketsphinx", draft: true, language: "en-US" };
      }),
    });
    const progress: number[] = [];
    // The image has nothing spoken: the talk is the only file the progress is shared over.
    expect(await step.transcribeProject([{ ...media, id: 999, kind: "image" }, media], "en-US", ctx(1), (f) => progress.push(f))).toBeNull();
    expect(progress).toEqual([0.5]);
    const stored = (await db.selectFrom("media_files").selectAll().where("id", "=", media.id).executeTakeFirstOrThrow()) as MediaRow;
    expect(storedTranscript(stored)).toEqual({ language: "en-US", engine: "pocketsphinx", draft: true, words: [{ start: 0.5, end: 0.9, text: "hello", confidence: 0.9 }] });
    expect(await step.transcribeProject([stored], "en-US", ctx(1))).toBeNull();
    expect(calls).toBe(1);
  });

  it("records a language no engine serves, and logs what is missing and how to add it", async () => {
    const media = await mediaRow({ language: "de-DE" });
    const step = createTranscribeStep({ db, store, log, speech: speech(async () => { throw new Error("not called"); }, { available: false, reason: "no_engine_for_language", missing: "speech recognition for de-DE", remedy: "Set STT_URL." }) });
    expect(await step.transcribeProject([media], "en-US", ctx(1))).toEqual({ reason: "no_engine_for_language", language: "de-DE" });
    expect(warnings[0]).toContain("missing speech recognition for de-DE. Set STT_URL.");
  });

  it("throws a retryable failure while attempts are left, and gives up on subtitles (not the project) on the last", async () => {
    const media = await mediaRow();
    const step = createTranscribeStep({ db, store, log, speech: speech(async () => { throw new SpeechError("speech_service_error", "503", true, 503); }) });
    await expect(step.transcribeProject([media], null, ctx(1))).rejects.toThrow(SpeechError);
    expect(await step.transcribeProject([media], null, ctx(3))).toEqual({ reason: "speech_failed", language: "en-US" });
  });

  it("gives up at once on a failure no retry mends, says speech_off when turned off, and skips files with nothing spoken", async () => {
    const media = await mediaRow();
    const failing = createTranscribeStep({ db, store, log, speech: speech(async () => { throw new SpeechError("speech_unauthorized", "401", false, 401); }) });
    expect(await failing.transcribeProject([media], null, ctx(1))).toEqual({ reason: "speech_failed", language: "en-US" });
    const off = createTranscribeStep({ db, store, log, speech: null });
    expect(await off.transcribeProject([media], null, ctx(1))).toEqual({ reason: "speech_off", language: "en-US" });
    expect(await off.transcribeProject([{ ...media, has_speech: 0 }, { ...media, kind: "image" }], "en-US", ctx(1))).toBeNull();
  });
});
