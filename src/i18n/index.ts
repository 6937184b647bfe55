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

/** The language asked for last: a catalog that arrives after a newer request is not applied (issue 18). */
let requested: Locale | undefined;

/**
 * Loads a catalog and switches the interface to it. The latest request wins: a sign-in switches to the
 * user's language while the app's guard loads the whole catalog, and the two loads may finish in any order.
 */
export async function activateLocale(locale: Locale): Promise<void> {
  requested = locale;
  if (i18n.locale === locale && (!wantWhole || loadedWhole.has(locale))) return;
  const loadingWhole = wantWhole;
  const { messages } = await (loadingWhole ? whole(locale) : publicParts[locale]());
  if (loadingWhole) loadedWhole.add(locale);
  if (requested !== locale) return;
  // The whole catalog became wanted while the public part loaded: load it before switching.
  if (wantWhole && !loadingWhole) return activateLocale(locale);
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}

/** The app's pages (and any message the public part lacks) need the whole catalog of the wanted language. */
export async function loadWholeCatalog(): Promise<void> {
  wantWhole = true;
  const locale = requested ?? (i18n.locale as Locale | undefined);
  if (locale) await activateLocale(locale);
}

// A safety net for a module the public part's list missed: load the rest, and the page re-renders with it.
i18n.on("missing", () => void loadWholeCatalog());

export { i18n };
