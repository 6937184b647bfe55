import { FieldError, Input, Label, Text, TextField as AriaTextField, type TextFieldProps as AriaProps } from "react-aria-components";

export interface TextFieldProps extends Omit<AriaProps, "children"> {
  label: string;
  description?: string;
  errorMessage?: string;
}

/** A labelled input; an error message marks it invalid and is read out with it. */
export function TextField({ label, description, errorMessage, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} isInvalid={!!errorMessage || props.isInvalid} className="field">
      <Label className="field-label">{label}</Label>
      <Input className="field-input" />
      {description && <Text slot="description" className="field-description">{description}</Text>}
      <FieldError className="field-error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
