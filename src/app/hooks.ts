import { useEffect, useState, useSyncExternalStore } from "react";
import type { CutroomDb, UserRow } from "../db";
import { mirrorAbsent, pageConfig, whenMirror } from "../db/mirror";
import type { PublicConfig } from "../../api/config";
import type { Locale } from "../../api/language-codes";
import { defaultLocale } from "../i18n/locale";

/**
 * A live query on the mirror, as dexie-react-hooks' useLiveQuery (undefined until the first answer), with
 * no Dexie in the bundle that calls it: while this browser holds no mirror (a visitor's first visit, issue
 * 18) the answer is `absent`, and the query starts once the sync worker has made the mirror.
 */
function useMirrorQuery<T>(query: (db: CutroomDb) => Promise<T>, absent: () => T): T | undefined {
  const [value, setValue] = useState<T | undefined>(() => (mirrorAbsent() ? absent() : undefined));
  useEffect(() => {
    let subscription: { unsubscribe(): void } | undefined;
    const stop = whenMirror(({ db, liveQuery }) => {
      subscription = liveQuery(() => query(db)).subscribe({ next: setValue });
    });
    return () => {
      stop();
      subscription?.unsubscribe();
    };
    // The two queries below never change.
  }, []);
  return value;
}

/** The signed-in user from the mirror: undefined while loading, null when signed out. */
export const useCurrentUser = (): UserRow | null | undefined => useMirrorQuery((db) => db.currentUser(), () => null);

export const useConfig = (): PublicConfig | null | undefined => useMirrorQuery((db) => db.config(), pageConfig);

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
