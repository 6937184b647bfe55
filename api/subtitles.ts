/**
 * Subtitle sets, translation and words (SPEC §3 Subtitle set, §7 autosubtitles / translate / PUT /subtitles/{id};
 * issue 14). The contract the server, the sync worker and the views share.
 *
 * A project has one set per locale. The original set (`original: 1`, the spoken language) is the scenes' own
 * text lines: editing it edits the scene's line. A translated set keeps one translation per original line.
 * A line's `key` names the original line it comes from — `${media_file_id}@${start in ms}`, which survives
 * splits, merges and reorders because a line keeps its times in its media file — so a translation follows its
 * line through storyboard edits. Line times in a set are the edit's own time (seconds from the start of the
 * render, intro first), as in the subtitles files; only shown scenes' lines are listed.
 */
import { z } from "zod";
import { ErrorCode } from "./errors";
import { SubtitleLanguage } from "./locales";

export const SubtitleSetLine = z.object({
  key: z.string(),
  scene_id: z.number().int(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
  /** 1 when the person edited this line (a new translation keeps it). */
  edited: z.union([z.literal(0), z.literal(1)]),
});
export type SubtitleSetLine = z.infer<typeof SubtitleSetLine>;

/** Why a language cannot be had: no engine translates into it here, or its engine is not installed / reachable. */
export const TranslationUnavailableReason = z.enum(["no_engine_for_language", "engine_not_installed", "translation_failed", "no_source_lines"]);
export type TranslationUnavailableReason = z.infer<typeof TranslationUnavailableReason>;

export const SubtitleSetStatus = z.enum(["pending", "ready", "failed"]);

export const SubtitleSet = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  locale: z.string(),
  original: z.union([z.literal(0), z.literal(1)]),
  status: SubtitleSetStatus,
  /** The engine that made it: "pocketsphinx" | "whisper-http" | "apertium" | "libretranslate" | null (typed by hand). */
  engine: z.string().nullable(),
  /** 1: draft quality (local engines), shown as such. */
  draft: z.union([z.literal(0), z.literal(1)]),
  /** When status is "failed": why. */
  reason: TranslationUnavailableReason.nullable(),
  /** When status is "failed": the error code (a translate_* code of api/errors.ts) the app words in the user's language. */
  error: ErrorCode.nullable().optional(),
  /** When status is "failed": what is missing or went wrong and how an operator fixes it (English, for operators). */
  detail: z.string().nullable().optional(),
  lines: z.array(SubtitleSetLine),
  updated_at: z.string(),
});
export type SubtitleSet = z.infer<typeof SubtitleSet>;

/** GET /projects/{id}/autosubtitles?ready={bool}: the project's sets (ready=true: only those ready). */
export const SubtitleSetList = z.object({ data: z.array(SubtitleSet) });

/** GET /projects/{id}/translate/options: every subtitle language (SPEC §9) and whether it can be had here. */
export const TranslateOption = z.object({
  locale: SubtitleLanguage,
  available: z.boolean(),
  engine: z.string().nullable(),
  draft: z.union([z.literal(0), z.literal(1)]),
  /** When not available: why (shown in the user's language with what an operator adds). */
  reason: TranslationUnavailableReason.nullable(),
  /** When not available: what is missing and how an operator adds it (English, for operators). */
  detail: z.string().nullable().optional(),
});
export const TranslateOptions = z.object({
  /** The spoken language the original set is in (null: nothing spoken / no lines). */
  source_locale: z.string().nullable(),
  options: z.array(TranslateOption),
});
export type TranslateOptions = z.infer<typeof TranslateOptions>;

/** POST /projects/{id}/translate: queues a `translate` job; answers 202 with the set (status pending). */
export const TranslateRequest = z.object({ locale: SubtitleLanguage });

/** GET /projects/{id}/autosubtitles?ready=true|false|1|0. */
export const SubtitleSetsQuery = z.object({ ready: z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1").optional() });

/** PUT /subtitles/{id}: text edits of a set's lines (times follow the scenes); each line at most 35 characters. */
export const SubtitleLinesUpdate = z.object({
  lines: z.array(z.object({ key: z.string().max(64), text: z.string() })).min(1).max(5000),
});

/** A recognised word (times in its media file, seconds). `filler`: an "um"/"uh"-like word the engine reported. */
export const Word = z.object({
  start: z.number(),
  end: z.number(),
  text: z.string(),
  confidence: z.number().nullable(),
  filler: z.union([z.literal(0), z.literal(1)]).optional(),
});
export type Word = z.infer<typeof Word>;

/** GET /projects/{id}/words: the words of the project's media files (the transcript view, trim/split dialogs). */
export const ProjectWords = z.object({
  media: z.array(z.object({ media_file_id: z.number().int(), language: z.string(), draft: z.union([z.literal(0), z.literal(1)]), words: z.array(Word) })),
});
export type ProjectWords = z.infer<typeof ProjectWords>;

/**
 * GET /media/{id}/waveform: peak levels of a media file's audio, `per_second` values a second, each 0..1 of full
 * scale (max-abs). `silences`: the stretches the speech analysis found no speech in (media seconds, sorted), for
 * the trim and split markers to snap to; absent when the file has no speech analysis.
 */
export const Waveform = z.object({
  media_file_id: z.number().int(),
  per_second: z.number(),
  duration: z.number(),
  peaks: z.array(z.number()),
  silences: z.array(z.object({ start: z.number(), end: z.number() })).optional(),
});
export type Waveform = z.infer<typeof Waveform>;
