import { useState } from "react";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../../api/projects";
import type { OverlayType, Scene } from "../../../../api/scenes";
import { overlayOptions, type OverlayOptions } from "../../../../api/storyboard";
import { Button } from "../../../ui/Button";
import { ConfirmButton } from "../../../ui/ConfirmDialog";
import { Dialog } from "../../../ui/Dialog";
import { Select } from "../../../ui/Select";
import { Switch } from "../../../ui/Switch";
import { worker } from "../../../worker";
import { useSceneEdit } from "./edit";
import "./tools.css";

/** SPEC §3 Overlay positions, in the interface's words. */
export const OVERLAY_POSITIONS: readonly { id: OverlayType; label: MessageDescriptor }[] = [
  { id: "fullscrn", label: msg`Full screen` },
  { id: "autozoom", label: msg`Scale to fill` },
  { id: "pip_tl", label: msg`Picture in picture: top left` },
  { id: "pip_tr", label: msg`Picture in picture: top right` },
  { id: "pip_bl", label: msg`Picture in picture: bottom left` },
  { id: "pip_br", label: msg`Picture in picture: bottom right` },
];

/** Where a new overlay goes when the scene has no type yet (the import's default). */
const DEFAULT_POSITION: OverlayType = "pip_br";

export interface OverlayDialogProps {
  scene: Scene;
  project: Project;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}

/** SPEC §3 Overlay: where the overlay sits over this scene, its options, and removing it. */
export function OverlayDialog({ scene, isOpen, onOpenChange }: OverlayDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t`Overlay of scene ${scene.order}`}>
      <OverlayForm scene={scene} close={() => onOpenChange(false)} />
    </Dialog>
  );
}

function OverlayForm({ scene, close }: { scene: Scene; close: () => void }) {
  const { t, i18n } = useLingui();
  const { pending, run } = useSceneEdit();
  const [options, setOptions] = useState<OverlayOptions>({
    overscene_type: scene.overscene_type ?? DEFAULT_POSITION,
    overscene_fade: scene.overscene_fade,
    overscene_overflow: scene.overscene_overflow,
    overscene_bg: scene.overscene_bg,
  });
  // SPEC §4: a new position brings its background rule; the switch can flip it afterwards.
  const update = (changes: Partial<OverlayOptions>) => setOptions((current) => overlayOptions(current, changes));
  const overscene = scene.overscene;

  async function save() {
    const type = options.overscene_type ?? DEFAULT_POSITION;
    const patch = { overscene_type: type, overscene_fade: options.overscene_fade, overscene_overflow: options.overscene_overflow, overscene_bg: options.overscene_bg };
    if (await run(() => worker.setSceneAttributes(scene.id, patch))) close();
  }

  if (!overscene) {
    return (
      <>
        <p className="tool-reason" role="note">
          <Trans>This scene has no overlay. Add one from the library.</Trans>
        </p>
        <div className="dialog-actions">
          <Button variant="secondary" onPress={close} autoFocus>
            <Trans>Close</Trans>
          </Button>
        </div>
      </>
    );
  }

  return (
    <>
      <div className="overlay-preview">
        {overscene.thumbnail ? (
          <img src={overscene.thumbnail} alt={t`The overlay`} />
        ) : overscene.preview_url ? (
          <video src={overscene.preview_url} preload="metadata" muted playsInline controls aria-label={t`The overlay`} />
        ) : (
          <p className="field-description">
            <Trans>The overlay's picture is not ready yet.</Trans>
          </p>
        )}
      </div>
      <Select
        label={t`Position`}
        options={OVERLAY_POSITIONS.map((p) => ({ id: p.id, label: i18n._(p.label) }))}
        value={options.overscene_type}
        onChange={(type) => update({ overscene_type: type })}
      />
      <Switch isSelected={options.overscene_bg === 1} onChange={(on) => update({ overscene_bg: on ? 1 : 0 })} isDisabled={pending}>
        <Trans>Hide the main scene</Trans>
      </Switch>
      <Switch isSelected={options.overscene_fade === 1} onChange={(on) => update({ overscene_fade: on ? 1 : 0 })} isDisabled={pending}>
        <Trans>Fade transition</Trans>
      </Switch>
      <Switch isSelected={options.overscene_overflow === 1} onChange={(on) => update({ overscene_overflow: on ? 1 : 0 })} isDisabled={pending}>
        <Trans>Overflow to the following scenes</Trans>
      </Switch>
      <div className="dialog-actions">
        <span className="tool-action-start">
          <ConfirmButton
          label={<Trans>Remove overlay</Trans>}
          buttonVariant="ghost"
          title={t`Remove the overlay of scene ${scene.order}?`}
          confirmLabel={t`Remove overlay`}
          onConfirm={async () => {
            if (await run(() => worker.removeOverlay(scene.id))) close();
          }}
        >
          <p>
            <Trans>The scene plays without the overlay. You can add another one from the library.</Trans>
          </p>
        </ConfirmButton>
        </span>
        <Button variant="secondary" onPress={close} isDisabled={pending}>
          <Trans>Cancel</Trans>
        </Button>
        <Button onPress={() => void save()} isPending={pending}>
          <Trans>Save</Trans>
        </Button>
      </div>
    </>
  );
}
