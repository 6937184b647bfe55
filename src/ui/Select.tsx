import type { Key } from "react-aria-components";
import { Button, FieldError, Label, ListBox, ListBoxItem, Popover, Select as AriaSelect, SelectValue } from "react-aria-components";

export interface SelectProps<K extends string> {
  label: string;
  options: readonly { id: K; label: string }[];
  value: K | null;
  onChange: (value: K) => void;
  name?: string;
  errorMessage?: string;
  placeholder?: string;
  isDisabled?: boolean;
  /** Opens the list at once (a stand-in trigger was pressed while this loaded). */
  defaultOpen?: boolean;
  autoFocus?: boolean;
}

export function Select<K extends string>({ label, options, value, onChange, name, errorMessage, placeholder, isDisabled, defaultOpen, autoFocus }: SelectProps<K>) {
  return (
    <AriaSelect
      className="field"
      name={name}
      selectedKey={value}
      onSelectionChange={(key: Key | null) => key !== null && onChange(String(key) as K)}
      isInvalid={!!errorMessage}
      placeholder={placeholder}
      isDisabled={isDisabled}
      defaultOpen={defaultOpen}
      autoFocus={autoFocus}
    >
      <Label className="field-label">{label}</Label>
      <Button className="field-input select-button">
        <SelectValue />
        <span aria-hidden="true" className="select-caret">▾</span>
      </Button>
      <FieldError className="field-error">{errorMessage}</FieldError>
      <Popover className="popover">
        <ListBox className="listbox">
          {options.map((o) => (
            <ListBoxItem key={o.id} id={o.id} className="listbox-item" textValue={o.label}>
              {o.label}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
