import { z } from "zod";
import { LOCALES, MEDIA_LANGUAGES, SUBTITLE_LANGUAGES } from "./language-codes";

export { LOCALES, MEDIA_LANGUAGES, SUBTITLE_LANGUAGES };

/** Interface languages (SPEC §1). */
export const Locale = z.enum(LOCALES);
export type Locale = z.infer<typeof Locale>;

/** Spoken languages a video or audio file can be tagged with (SPEC §5). */
export const MediaLanguage = z.enum(MEDIA_LANGUAGES);
export type MediaLanguage = z.infer<typeof MediaLanguage>;

/** Languages subtitles can be translated into (SPEC §9). */
export const SubtitleLanguage = z.enum(SUBTITLE_LANGUAGES);
export type SubtitleLanguage = z.infer<typeof SubtitleLanguage>;
