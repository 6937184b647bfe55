import { I18nProvider } from "@lingui/react";
import { useEffect, useState, type ReactNode } from "react";
import { activateLocale, i18n } from "../i18n";
import { useAnonymousLocale, useCurrentUser } from "./hooks";

/** Speaks the signed-in user's saved language, or the visitor's choice held in memory. */
export function LocaleProvider({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const anonymous = useAnonymousLocale();
  const [, setActive] = useState(i18n.locale);
  // While the mirror is still loading, keep the language main.tsx activated.
  const wanted = user === undefined ? i18n.locale : (user?.locale ?? anonymous);

  useEffect(() => {
    if (wanted && wanted !== i18n.locale) void activateLocale(wanted as never).then(() => setActive(wanted));
  }, [wanted]);

  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}
