import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { MEDIA_LANGUAGES, type MediaLanguage } from "../../api/language-codes";

/** Spoken languages by name, in the interface language (SPEC §5 lists the codes). */
export const MEDIA_LANGUAGE_NAMES: Record<MediaLanguage, MessageDescriptor> = {
  "en-US": msg`English (US)`,
  "pt-BR": msg`Portuguese (Brazil)`,
  "de-DE": msg`German`,
  "es-ES": msg`Spanish`,
  "fr-FR": msg`French`,
  "it-IT": msg`Italian`,
  "ar-SA": msg`Arabic`,
  "fil-PH": msg`Filipino`,
  "hi-IN": msg`Hindi`,
};

/** The "no speech" choice of a file's language; stored as null. */
export const NO_SPEECH = "none";
export type FileLanguageChoice = MediaLanguage | typeof NO_SPEECH;

/** The spoken language a new file starts with: the one of the interface (issue 18), English otherwise. */
export function spokenLanguageFor(interfaceLocale: string): MediaLanguage {
  const byInterface: Record<string, MediaLanguage> = { en: "en-US", "pt-BR": "pt-BR", es: "es-ES", it: "it-IT", fr: "fr-FR", de: "de-DE" };
  return byInterface[interfaceLocale] ?? "en-US";
}

export const isMediaLanguage = (value: unknown): value is MediaLanguage => (MEDIA_LANGUAGES as readonly unknown[]).includes(value);
