import { z } from "zod";

/** Interface languages (SPEC §1). */
export const LOCALES = ["en", "pt-BR", "es", "it", "fr", "de"] as const;
export const Locale = z.enum(LOCALES);
export type Locale = z.infer<typeof Locale>;

/** Spoken languages a video or audio file can be tagged with (SPEC §5). */
export const MEDIA_LANGUAGES = ["en-US", "pt-BR", "de-DE", "es-ES", "fr-FR", "it-IT", "ar-SA", "fil-PH", "hi-IN"] as const;
export const MediaLanguage = z.enum(MEDIA_LANGUAGES);
export type MediaLanguage = z.infer<typeof MediaLanguage>;

/** Languages subtitles can be translated into (SPEC §9). */
export const SUBTITLE_LANGUAGES = ["ar-SA", "de-DE", "en-US", "es-ES", "fa-IR", "fil-PH", "fr-FR", "hi-IN", "it-IT", "ja-JP", "ko-KR", "nl-NL", "pt-BR"] as const;
export const SubtitleLanguage = z.enum(SUBTITLE_LANGUAGES);
export type SubtitleLanguage = z.infer<typeof SubtitleLanguage>;
