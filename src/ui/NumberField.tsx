import { Button, FieldError, Group, Input, Label, NumberField as AriaNumberField, Text, type NumberFieldProps as AriaProps } from "react-aria-components";
import { useLingui } from "@lingui/react/macro";

export interface NumberFieldProps extends Omit<AriaProps, "children"> {
  label: string;
  description?: string;
  errorMessage?: string;
}

/** A number with − and + steppers; arrow keys step too. */
export function NumberField({ label, description, errorMessage, ...props }: NumberFieldProps) {
  const { t } = useLingui();
  return (
    <AriaNumberField {...props} isInvalid={!!errorMessage} className="field">
      <Label className="field-label">{label}</Label>
      <Group className="number-group">
        <Button slot="decrement" className="number-step" aria-label={t`Decrease`}>
          −
        </Button>
        <Input className="field-input number-input" />
        <Button slot="increment" className="number-step" aria-label={t`Increase`}>
          +
        </Button>
      </Group>
      {description && <Text slot="description" className="field-description">{description}</Text>}
      <FieldError className="field-error">{errorMessage}</FieldError>
    </AriaNumberField>
  );
}
