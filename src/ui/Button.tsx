import { useEffect } from "react";
import { Button as AriaButton, ProgressBar, type ButtonProps as AriaButtonProps } from "react-aria-components";
import { useLingui } from "@lingui/react/macro";
import { keepAnnouncementsNamed } from "./announcements";

export interface ButtonProps extends AriaButtonProps {
  variant?: "primary" | "secondary" | "ghost" | "danger";
}

/** The one button. `isPending` shows a spinner and keeps the button's size and label for screen readers. */
export function Button({ variant = "primary", className, children, ...props }: ButtonProps) {
  const { t } = useLingui();
  // React Aria announces a focused button's pending state when it changes (its effect runs before this one).
  useEffect(() => {
    if (props.isPending !== undefined) keepAnnouncementsNamed();
  }, [props.isPending]);
  return (
    <AriaButton {...props} className={`btn btn-${variant} ${typeof className === "string" ? className : ""}`}>
      {(renderProps) => (
        <>
          {typeof children === "function" ? children(renderProps) : children}
          {renderProps.isPending && (
            <ProgressBar aria-label={t`Working…`} isIndeterminate className="btn-spinner">
              <Spinner />
            </ProgressBar>
          )}
        </>
      )}
    </AriaButton>
  );
}

export function Spinner({ label }: { label?: string }) {
  return <span className="spinner" role={label ? "status" : undefined} aria-label={label} />;
}
