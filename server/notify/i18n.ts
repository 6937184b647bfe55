import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setupI18n, type I18n } from "@lingui/core";
import { LOCALES, type Locale } from "../../api/locales";

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../locales");

/**
 * Server-side Lingui for what the server writes to people (emails). Catalogs are the app's,
 * compiled to JSON by `lingui compile --namespace json` (npm start and npm test run it).
 */
export function loadServerI18n(dir = localesDir): (locale: string) => I18n {
  const messages: Record<string, Record<string, unknown>> = {};
  for (const locale of LOCALES) {
    const file = path.join(dir, locale, "messages.json");
    messages[locale] = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")).messages ?? {}) : {};
  }
  const instances = new Map<Locale, I18n>();
  for (const locale of LOCALES) {
    const i18n = setupI18n({ locale, messages: { [locale]: messages[locale] as never } });
    instances.set(locale, i18n);
  }
  return (locale) => instances.get(locale as Locale) ?? instances.get("en")!;
}
