import { msg } from "@lingui/core/macro";
import type { I18n, MessageDescriptor } from "@lingui/core";
import { SUBTITLE_LANGUAGES, type SubtitleLanguage } from "../../../api/language-codes";

/** Subtitle languages of SPEC §9 by name, in the interface language. */
export const SUBTITLE_LANGUAGE_NAMES: Record<SubtitleLanguage, MessageDescriptor> = {
  "ar-SA": msg`Arabic`,
  "de-DE": msg`German`,
  "en-US": msg`English (US)`,
  "es-ES": msg`Spanish`,
  "fa-IR": msg`Persian`,
  "fil-PH": msg`Filipino`,
  "fr-FR": msg`French`,
  "hi-IN": msg`Hindi`,
  "it-IT": msg`Italian`,
  "ja-JP": msg`Japanese`,
  "ko-KR": msg`Korean`,
  "nl-NL": msg`Dutch`,
  "pt-BR": msg`Portuguese (Brazil)`,
};

export const isSubtitleLanguage = (value: unknown): value is SubtitleLanguage => (SUBTITLE_LANGUAGES as readonly unknown[]).includes(value);

/** A set's or option's language by name; a code this app does not know stays a code. */
export const languageName = (i18n: I18n, locale: string) => (isSubtitleLanguage(locale) ? i18n._(SUBTITLE_LANGUAGE_NAMES[locale]) : locale);

/** A line's times as a timecode: "00:04.2", or "1:02:03.4" past an hour (tenths, rounded down so a line never seems to start late). */
export function formatTimecode(seconds: number): string {
  const tenths = Math.max(0, Math.floor(seconds * 10 + 1e-6));
  const s = Math.floor(tenths / 10);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = `${String(s % 60).padStart(2, "0")}.${tenths % 10}`;
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${String(minutes).padStart(2, "0")}:${rest}`;
}
