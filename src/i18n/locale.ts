import { LOCALES, type Locale } from "../../api/language-codes";

export const isLocale = (value: unknown): value is Locale => typeof value === "string" && (LOCALES as readonly string[]).includes(value);

/** SPEC §1: pt-BR when the browser's language is pt-BR, otherwise English. */
export function defaultLocale(browserLanguages: readonly string[]): Locale {
  const first = browserLanguages[0]?.toLowerCase();
  return first === "pt-br" ? "pt-BR" : "en";
}

/** Each language named in itself, for the language pickers. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  "pt-BR": "Português (Brasil)",
  es: "Español",
  it: "Italiano",
  fr: "Français",
  de: "Deutsch",
};
