import { z } from "zod";

/** Interface languages (SPEC §1). */
export const LOCALES = ["en", "pt-BR", "es", "it", "fr", "de"] as const;
export const Locale = z.enum(LOCALES);
export type Locale = z.infer<typeof Locale>;

/** Spoken languages a video or audio file can be tagged with (SPEC §5). */
export const MEDIA_LANGUAGES = ["en-US", "pt-BR", "de-DE", "es-ES", "fr-FR", "it-IT", "ar-SA", "fil-PH", "hi-IN"] as const;
export const MediaLanguage = z.enum(MEDIA_LANGUAGES);
export type MediaLanguage = z.infer<typeof MediaLanguage>;
