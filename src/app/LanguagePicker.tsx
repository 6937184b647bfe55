import { useLingui } from "@lingui/react/macro";
import { LOCALES, type Locale } from "../../api/locales";
import { LOCALE_NAMES } from "../i18n/locale";
import { Select } from "../ui/Select";
import { setAnonymousLocale, useAnonymousLocale } from "./hooks";

/** For visitors who are not signed in; the choice lives in memory only. */
export function AnonymousLanguagePicker() {
  const { t } = useLingui();
  const locale = useAnonymousLocale();
  return (
    <div className="compact-select">
      <Select<Locale>
        label={t`Language`}
        value={locale}
        onChange={setAnonymousLocale}
        options={LOCALES.map((id) => ({ id, label: LOCALE_NAMES[id] }))}
      />
    </div>
  );
}
