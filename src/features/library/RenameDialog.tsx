import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { PROJECT_NAME_MAX } from "../../../api/limits";
import { Button } from "../../ui/Button";
import { TextField } from "../../ui/TextField";
import { fieldMessage } from "../errors";

export interface RenameDialogProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  name: string;
  /** Saves the new name; the dialog closes when it resolves true. */
  onRename: (name: string) => Promise<boolean>;
}

/** Renames a library item: required, at most 140 characters (SPEC §5 project name). */
export function RenameDialog({ isOpen, onOpenChange, name, onRename }: RenameDialogProps) {
  const { t, i18n } = useLingui();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const next = value.trim();
    if (!next) return setError(fieldMessage(i18n, "required"));
    if (next.length > PROJECT_NAME_MAX) return setError(fieldMessage(i18n, "too_long"));
    if (next === name) return onOpenChange(false);
    setPending(true);
    try {
      if (await onRename(next)) onOpenChange(false);
    } finally {
      setPending(false);
    }
  }

  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable={!pending}>
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title" className="dialog-title">
            <Trans>Rename “{name}”</Trans>
          </Heading>
          <form onSubmit={(event) => void submit(event)} className="dialog-body" noValidate>
            <TextField
              label={t`Name`}
              value={value}
              onChange={(v) => {
                setValue(v);
                setError(undefined);
              }}
              errorMessage={error}
              autoFocus
              isRequired
            />
            <div className="dialog-actions">
              <Button variant="secondary" onPress={() => onOpenChange(false)} isDisabled={pending}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" isPending={pending}>
                <Trans>Save</Trans>
              </Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
