import { Button, FieldError, Group, I18nProvider, Input, Label, NumberField as AriaNumberField, Text, type NumberFieldProps as AriaProps } from "react-aria-components";
import { useLingui } from "@lingui/react/macro";

export interface NumberFieldProps extends Omit<AriaProps, "children"> {
  label: string;
  description?: string;
  errorMessage?: string;
}

/**
 * A number with − and + steppers; arrow keys step too. It reads and writes numbers the interface
 * language's way ("1,5" in German, "1.5" in English), and a field that takes fractions asks phones
 * for a keypad with a decimal separator (issue 18).
 */
export function NumberField({ label, description, errorMessage, ...props }: NumberFieldProps) {
  const { t, i18n } = useLingui();
  const whole = props.formatOptions?.maximumFractionDigits === 0;
  return (
    <I18nProvider locale={i18n.locale}>
      <AriaNumberField {...props} isInvalid={!!errorMessage} className="field">
        <Label className="field-label">{label}</Label>
        <Group className="number-group">
          <Button slot="decrement" className="number-step" aria-label={t`Decrease`}>
            −
          </Button>
          <Input className="field-input number-input" inputMode={whole ? "numeric" : "decimal"} />
          <Button slot="increment" className="number-step" aria-label={t`Increase`}>
            +
          </Button>
        </Group>
        {description && <Text slot="description" className="field-description">{description}</Text>}
        <FieldError className="field-error">{errorMessage}</FieldError>
      </AriaNumberField>
    </I18nProvider>
  );
}
