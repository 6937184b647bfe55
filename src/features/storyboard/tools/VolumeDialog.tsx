import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../../api/projects";
import type { Scene } from "../../../../api/scenes";
import { Button } from "../../../ui/Button";
import { Dialog } from "../../../ui/Dialog";
import { RadioGroup } from "../../../ui/RadioGroup";
import { worker } from "../../../worker";
import { useSceneEdit } from "./edit";
import { FOOTAGE_LEVELS, MUSIC_LEVELS, volumeUnavailable } from "./levels";
import "./tools.css";

export interface VolumeDialogProps {
  scene: Scene;
  project: Project;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}

/** SPEC §2 Scene card "volume": this scene's footage and music levels. */
export function VolumeDialog({ scene, project, isOpen, onOpenChange }: VolumeDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t`Volume of scene ${scene.order}`}>
      <VolumeForm scene={scene} project={project} close={() => onOpenChange(false)} />
    </Dialog>
  );
}

function VolumeForm({ scene, project, close }: { scene: Scene; project: Project; close: () => void }) {
  const { t, i18n } = useLingui();
  const { pending, run } = useSceneEdit();
  const [mediaAudio, setMediaAudio] = useState(scene.mediaAudio);
  const [musicType, setMusicType] = useState(scene.musicType);
  const unavailable = volumeUnavailable(project);
  const changed = mediaAudio !== scene.mediaAudio || musicType !== scene.musicType;

  async function save() {
    if (await run(() => worker.setSceneAttributes(scene.id, { mediaAudio, musicType }))) close();
  }

  if (unavailable) {
    return (
      <>
        <p className="tool-reason" role="note">
          <Trans>The volume tool is unavailable because this project's footage is muted. Unmute it in the Options tab to use this tool.</Trans>
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
      <div className="volume-levels">
        <RadioGroup label={t`Footage volume`} options={FOOTAGE_LEVELS.map((l) => ({ id: l.id, label: i18n._(l.label) }))} value={mediaAudio} onChange={setMediaAudio} />
        <RadioGroup label={t`Music volume`} options={MUSIC_LEVELS.map((l) => ({ id: l.id, label: i18n._(l.label) }))} value={musicType} onChange={setMusicType} />
      </div>
      <div className="dialog-actions">
        <Button variant="secondary" onPress={close} isDisabled={pending}>
          <Trans>Cancel</Trans>
        </Button>
        <Button onPress={() => void save()} isDisabled={!changed} isPending={pending}>
          <Trans>Save</Trans>
        </Button>
      </div>
    </>
  );
}
