import { useLingui } from "@lingui/react/macro";
import { Button, Input, Label, SearchField } from "react-aria-components";

/** A labelled search field with a clear button; Escape clears it too. */
export function SearchBox({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const { t } = useLingui();
  return (
    <SearchField className="field library-search" value={value} onChange={onChange} maxLength={140}>
      <Label className="field-label">{label}</Label>
      <div className="library-search-box">
        <svg className="icon library-search-icon" viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="11" cy="11" r="6" />
          <path d="M16 16l4 4" />
        </svg>
        <Input className="field-input library-search-input" />
        {value && (
          <Button className="icon-button library-search-clear" aria-label={t`Clear search`}>
            ×
          </Button>
        )}
      </div>
    </SearchField>
  );
}
