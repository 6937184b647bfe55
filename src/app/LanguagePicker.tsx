import { useLingui } from "@lingui/react/macro";
import { useId, useState, type KeyboardEvent } from "react";
import { LOCALES, type Locale } from "../../api/language-codes";
import { LOCALE_NAMES } from "../i18n/locale";
import type { SelectProps } from "../ui/Select";
import { setAnonymousLocale, useAnonymousLocale } from "./hooks";

type SelectComponent = (props: SelectProps<Locale>) => React.ReactNode;

// The list box, its popover and their focus handling (~45 KB compressed) load when the visitor reaches
// for the picker (hover, focus, press), not with the sign-in page (issue 18); until the visitor opens it a
// trigger with the same look, name and keys stands in.
let loading: Promise<SelectComponent> | undefined;
const loadSelect = () => (loading ??= import("../ui/Select").then((m) => m.Select as SelectComponent));

/** For visitors who are not signed in; the choice lives in memory only. */
export function AnonymousLanguagePicker() {
  const { t } = useLingui();
  const locale = useAnonymousLocale();
  const [Select, setSelect] = useState<SelectComponent | null>(null);
  const label = t`Language`;
  const open = () => void loadSelect().then((component) => setSelect(() => component));
  return (
    <div className="compact-select">
      {Select ? (
        <Select
          label={label}
          value={locale}
          onChange={setAnonymousLocale}
          options={LOCALES.map((id) => ({ id, label: LOCALE_NAMES[id] }))}
          defaultOpen
          autoFocus
        />
      ) : (
        <StandIn label={label} value={LOCALE_NAMES[locale]} onPreload={() => void loadSelect()} onOpen={open} />
      )}
    </div>
  );
}

/** The select's closed trigger with the same markup, name and keys; pressing it opens the real one. */
function StandIn({ label, value, onPreload, onOpen }: { label: string; value: string; onPreload: () => void; onOpen: () => void }) {
  const id = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    if (["ArrowDown", "ArrowUp", "Enter", " "].includes(event.key)) {
      event.preventDefault();
      onOpen();
    }
  };
  return (
    <div className="field">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <button
        type="button"
        className="field-input select-button"
        aria-haspopup="listbox"
        aria-expanded="false"
        aria-labelledby={`${id}-value ${id}-label`}
        onPointerEnter={onPreload}
        onFocus={onPreload}
        onClick={onOpen}
        onKeyDown={onKeyDown}
      >
        <span id={`${id}-value`}>{value}</span>
        <span aria-hidden="true" className="select-caret">
          ▾
        </span>
      </button>
    </div>
  );
}
