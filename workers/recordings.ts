import * as tus from "tus-js-client";
import type { CutroomDb, RecordingMode, RecordingRow } from "../src/db";
import { refusalCode, UPLOAD_ENDPOINT } from "./uploads";

/** The most one PATCH carries when the stream catches up (after being offline); live, each chunk goes as it comes. */
export const RECORDING_PATCH_BYTES = 4 * 1024 * 1024;
/** After a failed stream, the next chunk tries again no sooner than this (the `online` event tries at once). */
export const RECORDING_RETRY_MS = 5000;
const RETRY_DELAYS = [0, 1000, 3000];

/** Where the bytes of one recording are, and whether more will come. */
export interface ChunkStore {
  /** Bytes kept so far and whether the recording has ended. */
  state(id: string): Promise<{ bytes: number; ended: boolean } | undefined>;
  /** The bytes in [start, end) (end past the kept bytes reads what there is). */
  read(id: string, start: number, end: number): Promise<Blob>;
}

/** The recording's chunks in Dexie. */
export function dexieChunks(db: CutroomDb): ChunkStore {
  return {
    async state(id) {
      const row = await db.recordings.get(id);
      return row ? { bytes: row.bytes, ended: row.status === "stopped" } : undefined;
    },
    async read(id, start, end) {
      const chunks = await db.recordingChunks.where("[recordingId+seq]").between([id, -Infinity], [id, Infinity]).toArray();
      const parts: Blob[] = [];
      for (const chunk of chunks) {
        const from = Math.max(start, chunk.start);
        const to = Math.min(end, chunk.start + chunk.data.size);
        if (to > from) parts.push(chunk.data.slice(from - chunk.start, to - chunk.start));
      }
      return new Blob(parts);
    },
  };
}

/**
 * A tus-js-client file source over a recording that is still growing. `slice` answers as soon as there is
 * anything past `start` (so each chunk leaves as it comes, and a lost tab loses at most the last one), up to
 * `end`; once the recording has ended and everything is read it says `done`, and tus declares the length.
 */
export class GrowingSource {
  private waiters: (() => void)[] = [];
  private closed = false;
  /** Unknown until the recording ends: the upload's length is deferred. */
  readonly size = 0;

  constructor(
    private readonly store: ChunkStore,
    private readonly id: string,
  ) {}

  /** Bumped by every wake, so a wake that comes while a slice reads the state is never missed. */
  private version = 0;

  /** More bytes were kept, or the recording ended. */
  wake() {
    this.version += 1;
    const waiting = this.waiters;
    this.waiters = [];
    for (const resolve of waiting) resolve();
  }

  async slice(start: number, end: number): Promise<{ value: Blob; done: boolean }> {
    for (;;) {
      const seen = this.version;
      if (this.closed) throw new Error("recording source closed");
      const state = await this.store.state(this.id);
      if (this.closed) throw new Error("recording source closed");
      if (!state) throw new Error("recording gone");
      if (state.bytes > start || state.ended) {
        const to = Math.min(end, state.bytes);
        const value = to > start ? await this.store.read(this.id, start, to) : new Blob([]);
        return { value, done: state.ended && to >= state.bytes };
      }
      await new Promise<void>((resolve) => (this.version !== seen ? resolve() : this.waiters.push(resolve)));
    }
  }

  close() {
    this.closed = true;
    this.wake();
  }
}

interface Stream {
  upload: tus.Upload;
  source: GrowingSource;
  /** Settles when the stream stops: finished, failed or aborted. */
  stopped: Promise<void>;
}

export interface RecordingStreamsOptions {
  endpoint?: string;
  patchBytes?: number;
  retryMs?: number;
  /** Tests hand in a tus-js-client file reader wrapper or HTTP stack here. */
  tusOptions?: Partial<tus.UploadOptions>;
  chunks?: ChunkStore;
}

/**
 * Issue 17: recordings made in the app stream to the server while they record. The recorder hands each
 * chunk over; it is kept in IndexedDB first (a crashed tab or a dropped connection loses nothing kept), then
 * appended to a tus upload whose length is declared when the recording ends. Offline, the chunks wait and
 * the stream resumes from the server's offset when the connection is back.
 */
export function createRecordingStreams(db: CutroomDb, token: () => Promise<string | undefined>, options: RecordingStreamsOptions = {}) {
  const chunks = options.chunks ?? dexieChunks(db);
  const retryMs = options.retryMs ?? RECORDING_RETRY_MS;
  const streams = new Map<string, Stream>();
  const failedAt = new Map<string, number>();

  async function stream(id: string): Promise<void> {
    if (streams.has(id)) return;
    const row = await db.recordings.get(id);
    if (!row || row.uploaded || row.error) return;
    const bearer = await token();
    if (!bearer || streams.has(id)) return;
    const source = new GrowingSource(chunks, id);
    let settle!: () => void;
    const stopped = new Promise<void>((resolve) => (settle = resolve));
    const done = () => {
      if (streams.get(id)?.source === source) streams.delete(id);
      settle();
    };
    const upload = new tus.Upload(new Blob([]), {
      endpoint: options.endpoint ?? UPLOAD_ENDPOINT,
      uploadUrl: row.uploadUrl,
      uploadLengthDeferred: true,
      chunkSize: options.patchBytes ?? RECORDING_PATCH_BYTES,
      retryDelays: RETRY_DELAYS,
      headers: { authorization: `Bearer ${bearer}` },
      metadata: { filename: row.name, filetype: row.mime },
      storeFingerprintForResuming: false,
      ...options.tusOptions,
      fileReader: { openFile: async () => source },
      onUploadUrlAvailable: () => void db.recordings.update(id, { uploadUrl: upload.url ?? undefined }),
      onChunkComplete: (_size, accepted) => void db.recordings.update(id, { uploadedBytes: accepted }),
      onSuccess: async () => {
        failedAt.delete(id);
        await db.recordings.update(id, { uploaded: true, uploadUrl: upload.url ?? row.uploadUrl });
        done();
      },
      onError: async (error) => {
        failedAt.set(id, Date.now());
        // A refusal (no storage left, over the single-file limit) stops the stream for good; anything else resumes later.
        const refused = error instanceof tus.DetailedError ? refusalCode(error) : undefined;
        if (refused) await db.recordings.update(id, { error: refused });
        done();
      },
    });
    streams.set(id, { upload, source, stopped });
    upload.start();
  }

  /** Starts (or restarts after a failure, at most every `retryMs`) the stream of a recording. */
  function nudge(id: string, now = Date.now()) {
    const active = streams.get(id);
    if (active) return active.source.wake();
    const failed = failedAt.get(id);
    if (failed !== undefined && now - failed < retryMs) return;
    void stream(id);
  }

  /** Stops the stream (the server keeps what it has); resolves once nothing more is sent. */
  async function halt(id: string) {
    const active = streams.get(id);
    if (!active) return;
    streams.delete(id);
    active.source.close();
    await active.upload.abort(false).catch(() => undefined);
    await Promise.race([active.stopped, new Promise((resolve) => setTimeout(resolve, 50))]);
  }

  return {
    /** A new recording: its row now, its server upload as soon as the first bytes come. */
    async beginRecording(meta: { id?: string; name: string; mime: string; mode: RecordingMode }): Promise<string> {
      const id = meta.id ?? crypto.randomUUID();
      const row: RecordingRow = { ...meta, id, status: "recording", bytes: 0, durationSeconds: 0, uploadedBytes: 0, uploaded: false, createdAt: Date.now() };
      await db.recordings.put(row);
      return id;
    },
    /** One chunk from MediaRecorder, in order; `durationSeconds` is the time recorded so far. */
    async appendRecording(id: string, seq: number, data: Blob, durationSeconds: number) {
      const kept = await db.transaction("rw", db.recordings, db.recordingChunks, async () => {
        const row = await db.recordings.get(id);
        if (!row || row.status !== "recording") return false;
        // A chunk sent twice (a retried call) is kept once.
        if (await db.recordingChunks.get([id, seq])) return false;
        await db.recordingChunks.put({ recordingId: id, seq, start: row.bytes, data });
        await db.recordings.update(id, { bytes: row.bytes + data.size, durationSeconds: Math.max(row.durationSeconds, durationSeconds) });
        return true;
      });
      if (kept && data.size > 0) nudge(id);
    },
    /** The recorder stopped (or the recording was found interrupted): the stream sends the rest and the length. */
    async finishRecording(id: string, durationSeconds?: number) {
      const row = await db.recordings.get(id);
      if (!row) return;
      await db.recordings.update(id, { status: "stopped", durationSeconds: Math.max(row.durationSeconds, durationSeconds ?? 0) });
      const active = streams.get(id);
      if (active) active.source.wake();
      else void stream(id);
    },
    /** The whole recording as kept here (for playing back a recording found after a crash). */
    async recordingBlob(id: string): Promise<Blob | null> {
      const row = await db.recordings.get(id);
      if (!row) return null;
      const data = await chunks.read(id, 0, row.bytes);
      return new Blob([data], { type: row.mime });
    },
    /** Discarded: the stream stops, the server's partial upload is removed, and the bytes here go. */
    async discardRecording(id: string) {
      const row = await db.recordings.get(id);
      await halt(id);
      const url = (await db.recordings.get(id))?.uploadUrl ?? row?.uploadUrl;
      const bearer = await token();
      if (url && bearer) {
        await fetch(url, { method: "DELETE", headers: { authorization: `Bearer ${bearer}`, "tus-resumable": "1.0.0" } }).catch(() => undefined);
      }
      await db.transaction("rw", db.recordings, db.recordingChunks, async () => {
        await db.recordingChunks.where("recordingId").equals(id).delete();
        await db.recordings.delete(id);
      });
    },
    /**
     * Kept: the upload list takes the recording over. The stream stops; the upload row resumes the same server
     * upload from its offset (nothing is sent twice) with the whole file it holds.
     */
    async adoptRecording(id: string): Promise<{ uploadUrl?: string } | null> {
      if (!(await db.recordings.get(id))) return null;
      await halt(id);
      const row = await db.recordings.get(id);
      await db.transaction("rw", db.recordings, db.recordingChunks, async () => {
        await db.recordingChunks.where("recordingId").equals(id).delete();
        await db.recordings.delete(id);
      });
      return { uploadUrl: row?.uploaded || row?.uploadUrl ? row.uploadUrl : undefined };
    },
    /** At boot and when the connection is back: every recording not yet on the server streams again. */
    async resumeRecordings() {
      failedAt.clear();
      const rows = await db.recordings.toArray();
      await Promise.all(rows.filter((r) => !r.uploaded && !r.error).map((r) => stream(r.id)));
    },
    /** For tests: whether a recording's stream is running. */
    isStreaming: (id: string) => streams.has(id),
  };
}
