import type { ReactNode } from "react";
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from "react-aria-components";

export interface DialogProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  /** The buttons at the bottom (Cancel, Save…). */
  actions?: ReactNode;
  /** "wide" for dialogs with a picture or a track (trim, faces); both fit a 360 px screen. */
  size?: "normal" | "wide";
  /** False while something is being saved, so a click outside does not lose it. */
  isDismissable?: boolean;
}

/** A modal dialog with a title; Escape and a click outside close it, focus stays inside while open. */
export function Dialog({ isOpen, onOpenChange, title, children, actions, size = "normal", isDismissable = true }: DialogProps) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable={isDismissable} isKeyboardDismissDisabled={!isDismissable}>
      <Modal className={`modal modal-${size}`}>
        <AriaDialog className="dialog dialog-scroll">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          <div className="dialog-body">{children}</div>
          {actions && <div className="dialog-actions">{actions}</div>}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
