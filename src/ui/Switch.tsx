import type { ReactNode } from "react";
import { Switch as AriaSwitch, type SwitchProps as AriaSwitchProps } from "react-aria-components";

export interface SwitchProps extends Omit<AriaSwitchProps, "children"> {
  children: ReactNode;
  description?: string;
}

/** An on/off setting with its label (and an optional line explaining it). */
export function Switch({ children, description, ...props }: SwitchProps) {
  return (
    <AriaSwitch {...props} className="switch">
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span className="switch-text">
        <span>{children}</span>
        {description && <span className="field-description">{description}</span>}
      </span>
    </AriaSwitch>
  );
}
