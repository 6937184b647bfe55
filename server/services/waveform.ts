import fs from "node:fs/promises";
import path from "node:path";
import type { Waveform } from "../../api/subtitles";
import type { Db } from "../db";
import { findMedia, type MediaRow } from "../db/media";
import { storedMediaInfo } from "../jobs/render-edit";
import { partName } from "../jobs/steps/atomic";
import { NoAudioStreamError } from "../media/analyze";
import { measureWaveform, WAVEFORM_PER_SECOND } from "../media/waveform";
import type { FileStore } from "../storage/local";
import { notFound } from "./errors";
import { mediaKey } from "./library";
import type { StoredAnalysis } from "./storyboard-builder";

/** What is kept beside the file (`waveform.json`): computed once per media file. */
interface StoredWaveform {
  per_second: number;
  duration: number;
  peaks: number[];
}

/** The stretches between the analysis' speech (padding included) within [0, duration]: where a marker may rest. */
export function silencesOf(speech: readonly { start: number; end: number }[], duration: number): { start: number; end: number }[] {
  const silences: { start: number; end: number }[] = [];
  let at = 0;
  for (const s of [...speech].sort((a, b) => a.start - b.start)) {
    if (s.start > at)
      silences.push({
        start: round(at),
        end: round(Math.min(s.start, duration)),
      });
    at = Math.max(at, s.end);
  }
  if (duration > at) silences.push({ start: round(at), end: round(duration) });
  return silences.filter((s) => s.end > s.start);
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Where a file's waveform is kept: beside the file, in the store. */
export const waveformKey = (media: Pick<MediaRow, "user_id" | "id">) => mediaKey(media.user_id, media.id, "waveform.json");

/** One computation per file in this process, however many requests and jobs ask at once. */
const inFlight = new Map<number, Promise<StoredWaveform>>();

/**
 * A file's waveform: the stored copy, or measured (from the proxy when it has one) and stored atomically. The
 * pipeline's waveform step calls it once the proxy exists; a file processed before that step is measured on its
 * first request.
 */
export function storedWaveform(store: FileStore, media: MediaRow, signal?: AbortSignal): Promise<StoredWaveform> {
  let pending = inFlight.get(media.id);
  if (!pending) {
    pending = compute(store, media, signal).finally(() => inFlight.delete(media.id));
    inFlight.set(media.id, pending);
  }
  return pending;
}

async function compute(store: FileStore, media: MediaRow, signal?: AbortSignal): Promise<StoredWaveform> {
  const key = waveformKey(media);
  const target = store.pathOf(key);
  try {
    if (store.kind === "local" || (await store.exists(key))) return JSON.parse(await fs.readFile(await store.fetch(key, signal), "utf8")) as StoredWaveform;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  let stored: StoredWaveform;
  if (media.kind === "image" || !media.has_audio) {
    stored = {
      per_second: WAVEFORM_PER_SECOND,
      duration: media.duration_seconds,
      peaks: [],
    };
  } else {
    // The proxy is a clean MP4 of known shape; the original only while no proxy exists yet.
    const useProxy = media.proxy_key !== null && (await store.exists(media.proxy_key));
    const file = await store.fetch(useProxy ? media.proxy_key! : media.storage_key, signal);
    const info = await storedMediaInfo(
      file,
      {
        container: useProxy ? "mov" : media.container,
        duration_seconds: media.duration_seconds,
      },
      { signal },
    );
    try {
      const measured = await measureWaveform(file, info, { signal });
      stored = {
        per_second: WAVEFORM_PER_SECOND,
        duration: round(measured.durationSeconds),
        peaks: measured.peaks,
      };
    } catch (error) {
      if (!(error instanceof NoAudioStreamError)) throw error;
      stored = {
        per_second: WAVEFORM_PER_SECOND,
        duration: media.duration_seconds,
        peaks: [],
      };
    }
  }
  // Written whole under this attempt's own name, then renamed: a reader never sees half a file.
  await fs.mkdir(path.dirname(target), { recursive: true });
  const tmp = partName(target);
  try {
    await fs.writeFile(tmp, JSON.stringify(stored), "utf8");
    await fs.rename(tmp, target);
  } finally {
    await fs.rm(tmp, { force: true });
  }
  await store.commit(key);
  return stored;
}

/** GET /media/{id}/waveform (issue 14): owner-scoped; the peaks are measured once per file and kept beside it. */
export function createWaveforms(deps: { db: Db; store: FileStore }) {
  const { db, store } = deps;
  return {
    async get(userId: number, mediaId: number): Promise<Waveform> {
      const media = await findMedia(db, userId, mediaId);
      if (!media) throw notFound("Media file not found");
      const stored = await storedWaveform(store, media);
      const analysis = media.analysis ? (JSON.parse(media.analysis) as StoredAnalysis) : null;
      const analysed = Boolean(media.has_speech) && analysis !== null && analysis.noiseFloorDb !== null;
      return {
        media_file_id: media.id,
        per_second: stored.per_second,
        duration: stored.duration,
        peaks: stored.peaks,
        ...(analysed ? { silences: silencesOf(analysis.speech, media.duration_seconds) } : {}),
      };
    },
  };
}

export type Waveforms = ReturnType<typeof createWaveforms>;
