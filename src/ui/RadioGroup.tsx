import { FieldError, Label, Radio, RadioGroup as AriaRadioGroup } from "react-aria-components";

export interface RadioGroupProps<K extends string> {
  label: string;
  options: readonly { id: K; label: string; description?: string }[];
  value: K | null;
  onChange: (value: K) => void;
  name?: string;
  errorMessage?: string;
  isRequired?: boolean;
}

/** One choice among a few, shown as cards side by side (stacked on narrow screens). */
export function RadioGroup<K extends string>({ label, options, value, onChange, name, errorMessage, isRequired }: RadioGroupProps<K>) {
  return (
    <AriaRadioGroup
      className="field radio-group"
      name={name}
      value={value}
      onChange={(v) => onChange(v as K)}
      isInvalid={!!errorMessage}
      isRequired={isRequired}
      validationBehavior="aria"
    >
      <Label className="field-label">{label}</Label>
      <div className="radio-options">
        {options.map((o) => (
          <Radio key={o.id} value={o.id} className="radio">
            <span className="radio-dot" aria-hidden="true" />
            <span className="radio-text">
              <span>{o.label}</span>
              {o.description && <span className="field-description">{o.description}</span>}
            </span>
          </Radio>
        ))}
      </div>
      <FieldError className="field-error">{errorMessage}</FieldError>
    </AriaRadioGroup>
  );
}
