import { useLiveQuery } from "dexie-react-hooks";
import { useSyncExternalStore } from "react";
import { db, type UserRow } from "../db";
import type { PublicConfig } from "../../api/config";
import type { Locale } from "../../api/language-codes";
import { defaultLocale } from "../i18n/locale";

/** The signed-in user from the mirror: undefined while loading, null when signed out. */
export const useCurrentUser = (): UserRow | null | undefined => useLiveQuery(() => db.currentUser(), [], undefined);

export const useConfig = (): PublicConfig | null | undefined => useLiveQuery(() => db.config(), [], undefined);

/** An anonymous visitor's language: memory only (SPEC §1). */
let anonymousLocale: Locale = defaultLocale(typeof navigator === "undefined" ? [] : navigator.languages ?? [navigator.language]);
const listeners = new Set<() => void>();
export function setAnonymousLocale(locale: Locale) {
  anonymousLocale = locale;
  listeners.forEach((l) => l());
}
export const getAnonymousLocale = () => anonymousLocale;
export const useAnonymousLocale = () =>
  useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    () => anonymousLocale,
  );
