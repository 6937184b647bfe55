import { msg } from "@lingui/core/macro";
import type { I18n } from "@lingui/core";
import type { SubtitleSet, TranslationUnavailableReason } from "../../../api/subtitles";
import { errorCodeMessage } from "../errors";

/** Why a language cannot be had here, and what the server's operator adds (issue 14: never a silent failure). */
export function unavailableMessage(i18n: I18n, reason: TranslationUnavailableReason | null, language: string): string {
  switch (reason) {
    case "no_engine_for_language":
      return i18n._(msg`No translation engine on this server translates into ${language}. The server's operator can connect a LibreTranslate-compatible translation service.`);
    case "engine_not_installed":
      return i18n._(msg`The translation engine for ${language} is not installed on this server. The server's operator can install it (the Apertium language pair) or connect a translation service.`);
    case "no_source_lines":
      return i18n._(msg`There are no subtitle lines to translate yet.`);
    case "translation_failed":
    case null:
      return i18n._(msg`The translation into ${language} failed on the server. Translate again; if it fails again, the server's operator can check the translation engine.`);
  }
}

/** The short word in the language picker beside an unavailable language. */
export function unavailableShort(i18n: I18n, reason: TranslationUnavailableReason | null): string {
  switch (reason) {
    case "no_engine_for_language":
      return i18n._(msg`Unavailable: no translation engine for it on this server`);
    case "engine_not_installed":
      return i18n._(msg`Unavailable: its translation engine is not installed`);
    case "no_source_lines":
      return i18n._(msg`Unavailable: no subtitle lines to translate`);
    case "translation_failed":
    case null:
      return i18n._(msg`Unavailable: the translation engine failed`);
  }
}

/** Why a translated set failed: the service's own answer when the server named it, otherwise the reason. */
export function failedSetMessage(i18n: I18n, set: Pick<SubtitleSet, "reason" | "error">, language: string): string {
  return set.error ? errorCodeMessage(i18n, set.error) : unavailableMessage(i18n, set.reason, language);
}
