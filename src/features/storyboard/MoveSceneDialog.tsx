import { useState } from "react";
import { Form } from "react-aria-components";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Scene } from "../../../api/scenes";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";
import { NumberField } from "../../ui/NumberField";

export interface MoveSceneDialogProps {
  scene: Scene;
  /** The card's place among the listed cards (1-based) and how many there are. */
  position: number;
  count: number;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  /** Moves the card to a 1-based place among the listed cards. */
  onMove: (position: number) => void;
}

/** The keyboard's way to reorder a long storyboard: type the place the scene should take. */
export function MoveSceneDialog({ scene, position, count, isOpen, onOpenChange, onMove }: MoveSceneDialogProps) {
  const { t } = useLingui();
  const [target, setTarget] = useState(position);
  const valid = Number.isInteger(target) && target >= 1 && target <= count;
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t`Move scene ${scene.order}`}>
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid) return;
          onOpenChange(false);
          if (target !== position) onMove(target);
        }}
      >
        <NumberField
          label={t`New position (1 to ${count})`}
          value={target}
          onChange={setTarget}
          minValue={1}
          maxValue={count}
          step={1}
          autoFocus
          errorMessage={valid ? undefined : t`Choose a position from 1 to ${count}.`}
        />
        <div className="dialog-actions">
          <Button variant="secondary" onPress={() => onOpenChange(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" isDisabled={!valid}>
            <Trans>Move</Trans>
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
