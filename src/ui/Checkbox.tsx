import type { ReactNode } from "react";
import { Checkbox as AriaCheckbox, type CheckboxProps as AriaProps } from "react-aria-components";

export interface CheckboxProps extends Omit<AriaProps, "children"> {
  children: ReactNode;
  errorMessage?: string;
}

export function Checkbox({ children, errorMessage, ...props }: CheckboxProps) {
  const errorId = errorMessage ? `${props.name ?? "checkbox"}-error` : undefined;
  return (
    <div className="field">
      <AriaCheckbox {...props} isInvalid={!!errorMessage} aria-describedby={errorId} className="checkbox">
        <span className="checkbox-box" aria-hidden="true">
          <svg viewBox="0 0 18 18">
            <polyline points="2 9 7 14 16 4" />
          </svg>
        </span>
        <span>{children}</span>
      </AriaCheckbox>
      {errorMessage && (
        <span id={errorId} className="field-error">
          {errorMessage}
        </span>
      )}
    </div>
  );
}
