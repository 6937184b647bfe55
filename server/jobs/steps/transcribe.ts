import type { FastifyBaseLogger } from "fastify";
import type { SubtitlesUnavailable } from "../../../api/projects";
import type { Db } from "../../db";
import { findMediaById, updateMedia, type MediaRow } from "../../db/media";
import { MediaAbortedError } from "../../media/ffmpeg";
import { SpeechError, type SpeechEngineName, type SpeechToText, type SpokenWord } from "../../speech";
import type { FileStore } from "../../storage/local";
import type { JobContext } from "../types";
import type { ProjectState } from "./project";
import type { Step } from "./step";

/**
 * The transcribe step of a project (issue 14): the words spoken in each of its files that has speech, kept on
 * the media file (`media_files.transcript`) so every project made from the file reuses them. A language no
 * engine can do, or a recognition that failed for good, does not fail the project: the step answers why,
 * the project records it and completes without lines, and the operator's log says what is missing and how
 * to add it. A failure a later attempt may get past (a service down or busy) is thrown, except on the last
 * attempt, which gives up on subtitles rather than on the project.
 */

/** What `media_files.transcript` holds. */
export interface StoredTranscript {
  language: string;
  engine: SpeechEngineName;
  draft: boolean;
  words: SpokenWord[];
}

export function storedTranscript(media: Pick<MediaRow, "transcript">): StoredTranscript | null {
  if (!media.transcript) return null;
  try {
    return JSON.parse(media.transcript) as StoredTranscript;
  } catch {
    return null;
  }
}

/** The language a file's subtitles are recognised in: its upload's language, else the project's; null when nothing in it is spoken. */
export function spokenLanguage(media: Pick<MediaRow, "kind" | "has_speech" | "has_audio" | "language">, projectLocale: string | null): string | null {
  if (media.kind === "image" || !media.has_speech || !media.has_audio) return null;
  return media.language ?? projectLocale ?? null;
}

const HEARTBEAT_EVERY_MS = 2_000;

export interface TranscribeDeps {
  db: Db;
  store: FileStore;
  /** null: speech recognition turned off by the operator (STT=off). */
  speech: SpeechToText | null;
  log: FastifyBaseLogger;
}

export function createTranscribeStep(deps: TranscribeDeps) {
  const { db, store, log } = deps;
  /** One recognition per media file in this process, however many projects ask for it at once. */
  const inFlight = new Map<string, Promise<SubtitlesUnavailable | null>>();

  async function transcribeFile(media: MediaRow, language: string, ctx: JobContext, onProgress?: (fraction: number) => void): Promise<SubtitlesUnavailable | null> {
    if (storedTranscript(media)?.language === language) return null;
    if (!deps.speech) return { reason: "speech_off", language };
    const availability = await deps.speech.availability(language);
    if (!availability.available) {
      log.warn(
        { mediaFileId: media.id, language, reason: availability.reason },
        `No subtitles for ${language}: missing ${availability.missing}. ${availability.remedy}`,
      );
      return { reason: availability.reason, language };
    }
    let beat = Date.now();
    try {
      const transcript = await deps.speech.transcribe(await store.fetch(media.storage_key, ctx.signal), {
        language,
        signal: ctx.signal,
        onProgress: (fraction) => {
          onProgress?.(fraction);
          if (Date.now() - beat < HEARTBEAT_EVERY_MS) return;
          beat = Date.now();
          void ctx.heartbeat().catch(() => {});
        },
      });
      const stored: StoredTranscript = { language, engine: transcript.engine, draft: transcript.draft, words: transcript.words };
      await updateMedia(db, media.id, { transcript: JSON.stringify(stored) });
      log.info({ mediaFileId: media.id, language, engine: transcript.engine, words: transcript.words.length }, "transcribed");
      return null;
    } catch (error) {
      if (ctx.signal.aborted || error instanceof MediaAbortedError) throw error;
      const last = ctx.maxAttempts !== undefined && ctx.attempt >= ctx.maxAttempts;
      const retryable = error instanceof SpeechError ? error.retryable : true;
      if (retryable && !last) throw error;
      const code = error instanceof SpeechError ? error.code : "speech_engine_failed";
      log.warn({ mediaFileId: media.id, language, code, err: error }, `Subtitles for ${language} could not be made (${code}); the project completes without them`);
      return { reason: code === "speech_unavailable" ? "no_engine_for_language" : "speech_failed", language };
    }
  }

  /**
   * Transcribes the project's spoken files one after another (the local engine already uses both cores on a
   * long file). Answers why subtitles are missing (the first file's reason), or null.
   */
  async function transcribeProject(
    files: readonly MediaRow[],
    projectLocale: string | null,
    ctx: JobContext,
    /** 0..1 over the project's spoken files (a file another project is transcribing reports nothing here). */
    onProgress?: (fraction: number) => void,
  ): Promise<SubtitlesUnavailable | null> {
    let unavailable: SubtitlesUnavailable | null = null;
    const spoken = files.filter((media) => spokenLanguage(media, projectLocale));
    for (const media of files) {
      const language = spokenLanguage(media, projectLocale);
      if (!language) continue;
      const key = `${media.id}:${language}`;
      let running = inFlight.get(key);
      if (!running) {
        const done = spoken.indexOf(media);
        running = transcribeFile(media, language, ctx, onProgress && ((f) => onProgress((done + f) / spoken.length))).finally(() => inFlight.delete(key));
        inFlight.set(key, running);
      }
      unavailable ??= await running;
    }
    return unavailable;
  }

  return { transcribeProject };
}

/** True when every spoken file of the project has its words in the language it is recognised in. */
export function transcribed(files: readonly MediaRow[], projectLocale: string | null): boolean {
  return files.every((media) => {
    const language = spokenLanguage(media, projectLocale);
    return !language || storedTranscript(media)?.language === language;
  });
}

/**
 * The project's spoken files recognised (the words kept on each file, so every project made from a file reuses
 * them), and why the project has no subtitles when it cannot have them. Runs after Preview Ready.
 */
export const transcribeStep: Step<ProjectState> = {
  name: "transcribe",
  reads: ["media_files.storage_key"],
  writes: ["media_files.transcript", "unavailable"],
  weight: 90,
  done: (state) => {
    if (!transcribed(state.files, state.project.locale)) return false;
    state.unavailable = null;
    return true;
  },
  async run(state, progress) {
    const { db } = state.deps;
    state.unavailable = await state.transcriber.transcribeProject(state.files, state.project.locale, state.ctx, (fraction) => void progress(fraction).catch(() => {}));
    // Re-read: the words were stored on the files after their rows were loaded.
    for (const [i, m] of state.files.entries()) state.files[i] = (await findMediaById(db, m.id)) ?? m;
  },
};
