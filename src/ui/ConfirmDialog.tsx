import { useState, type ReactNode } from "react";
import { Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { useLingui } from "@lingui/react/macro";
import { Button, type ButtonProps } from "./Button";

export interface ConfirmDialogProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  variant?: "danger" | "primary";
  /** Runs on confirm; the dialog waits for it (with a spinner) and then closes. */
  onConfirm: () => unknown;
}

/** Asks before something that cannot be taken back. Escape and Cancel close it without acting. */
export function ConfirmDialog({ isOpen, onOpenChange, title, children, confirmLabel, cancelLabel, variant = "danger", onConfirm }: ConfirmDialogProps) {
  const { t } = useLingui();
  const [pending, setPending] = useState(false);
  async function confirm() {
    setPending(true);
    try {
      await onConfirm();
    } finally {
      setPending(false);
      onOpenChange(false);
    }
  }
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable={!pending}>
      <Modal className="modal">
        <Dialog role="alertdialog" className="dialog">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          <div className="dialog-body">{children}</div>
          <div className="dialog-actions">
            <Button variant="secondary" onPress={() => onOpenChange(false)} isDisabled={pending} autoFocus>
              {cancelLabel ?? t`Cancel`}
            </Button>
            <Button variant={variant} onPress={() => void confirm()} isPending={pending}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

export interface ConfirmButtonProps extends Omit<ConfirmDialogProps, "isOpen" | "onOpenChange"> {
  /** The button that opens the question. */
  label: ReactNode;
  buttonVariant?: ButtonProps["variant"];
  "aria-label"?: string;
}

/** A button that asks first. */
export function ConfirmButton({ label, buttonVariant = "secondary", "aria-label": ariaLabel, ...dialog }: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={buttonVariant} onPress={() => setOpen(true)} aria-label={ariaLabel}>
        {label}
      </Button>
      <ConfirmDialog {...dialog} isOpen={open} onOpenChange={setOpen} />
    </>
  );
}
