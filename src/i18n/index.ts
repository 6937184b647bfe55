import { i18n } from "@lingui/core";
import type { Messages } from "@lingui/core";
import type { Locale } from "../../api/language-codes";

// Issue 18: a visitor's pages load the public part of a catalog (scripts/public-catalog.ts), the app the
// whole one. Literal imports, so the bundler makes one chunk per locale and part.
const publicParts: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import("../../locales/en/messages.po?public"),
  "pt-BR": () => import("../../locales/pt-BR/messages.po?public"),
  es: () => import("../../locales/es/messages.po?public"),
  it: () => import("../../locales/it/messages.po?public"),
  fr: () => import("../../locales/fr/messages.po?public"),
  de: () => import("../../locales/de/messages.po?public"),
};
const whole = (locale: Locale): Promise<{ messages: Messages }> => import(`../../locales/${locale}/messages.po`);

/** Whether the whole catalog is wanted: once someone signs in or a page needs a message the public part lacks. */
let wantWhole = false;
const loadedWhole = new Set<string>();

/** Loads a catalog and switches the interface to it. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (i18n.locale === locale && (!wantWhole || loadedWhole.has(locale))) return;
  const { messages } = await (wantWhole ? whole(locale) : publicParts[locale]());
  if (wantWhole) loadedWhole.add(locale);
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}

/** The app's pages (and any message the public part lacks) need the whole catalog of the active language. */
export async function loadWholeCatalog(): Promise<void> {
  wantWhole = true;
  if (i18n.locale) await activateLocale(i18n.locale as Locale);
}

// A safety net for a module the public part's list missed: load the rest, and the page re-renders with it.
i18n.on("missing", () => void loadWholeCatalog());

export { i18n };
