import { i18n } from "@lingui/core";
import type { Locale } from "../../api/locales";

/** Loads a catalog and switches the interface to it. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (i18n.locale === locale) return;
  const { messages } = await import(`../../locales/${locale}/messages.po`);
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}

export { i18n };
