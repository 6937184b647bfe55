/**
 * The language codes as plain constants, without their zod schemas (api/locales.ts), so the app's
 * first load does not carry the validation library (issue 18).
 */

/** Interface languages (SPEC §1). */
export const LOCALES = ["en", "pt-BR", "es", "it", "fr", "de"] as const;
export type Locale = (typeof LOCALES)[number];

/** Spoken languages a video or audio file can be tagged with (SPEC §5). */
export const MEDIA_LANGUAGES = ["en-US", "pt-BR", "de-DE", "es-ES", "fr-FR", "it-IT", "ar-SA", "fil-PH", "hi-IN"] as const;
export type MediaLanguage = (typeof MEDIA_LANGUAGES)[number];

/** Languages subtitles can be translated into (SPEC §9). */
export const SUBTITLE_LANGUAGES = ["ar-SA", "de-DE", "en-US", "es-ES", "fa-IR", "fil-PH", "fr-FR", "hi-IN", "it-IT", "ja-JP", "ko-KR", "nl-NL", "pt-BR"] as const;
export type SubtitleLanguage = (typeof SUBTITLE_LANGUAGES)[number];
