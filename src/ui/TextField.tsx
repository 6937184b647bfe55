import { FieldError, Input, Label, Text, TextArea, TextField as AriaTextField, type TextFieldProps as AriaProps } from "react-aria-components";

export interface TextFieldProps extends Omit<AriaProps, "children"> {
  label: string;
  description?: string;
  errorMessage?: string;
  /** Several lines (a description). */
  multiline?: boolean;
}

/** A labelled input; an error message marks it invalid and is read out with it. */
export function TextField({ label, description, errorMessage, multiline, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} isInvalid={!!errorMessage || props.isInvalid} className="field">
      <Label className="field-label">{label}</Label>
      {multiline ? <TextArea className="field-input field-textarea" rows={4} /> : <Input className="field-input" />}
      {description && <Text slot="description" className="field-description">{description}</Text>}
      <FieldError className="field-error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
