import { useRef, useState } from "react";
import { Label, Slider, SliderThumb } from "react-aria-components";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../../api/projects";
import type { Scene } from "../../../../api/scenes";
import { splitByPosition } from "../../../../api/storyboard";
import { Button } from "../../../ui/Button";
import { Dialog } from "../../../ui/Dialog";
import { NumberField } from "../../../ui/NumberField";
import { worker } from "../../../worker";
import { track } from "../../../lib/analytics";
import { refusalMessage, useSceneEdit } from "./edit";
import { RawPreview, type RawPreviewHandle } from "./RawPreview";
import { formatSeconds, roundTime, TIME_STEP, toRawSeconds } from "./time";
import { useWaveform, WaveTrack } from "./WaveTrack";
import { MarkerHelp } from "./MarkerHelp";
import { useProjectWords } from "../useProjectWords";
import "./tools.css";

export interface SplitDialogProps {
  scene: Scene;
  project: Project;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}

/** SPEC §5: split by position is only for scenes without text. A2 can grey the button out with it. */
export const canSplitByPosition = (scene: Pick<Scene, "text">) => scene.text.length === 0;

/** SPEC §2 Scene card "split": cut the scene in two at a point, with the frame at that point. */
export function SplitDialog({ scene, project, isOpen, onOpenChange }: SplitDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t`Split scene ${scene.order}`} size="wide">
      <SplitForm scene={scene} project={project} close={() => onOpenChange(false)} />
    </Dialog>
  );
}

function SplitForm({ scene, project, close }: { scene: Scene; project: Project; close: () => void }) {
  const { t, i18n } = useLingui();
  const { pending, run } = useSceneEdit();
  const length = roundTime(scene.trim_end - scene.trim_start);
  const [position, setPosition] = useState(roundTime(length / 2));
  const rule = splitByPosition(scene, position);
  const hasText = !canSplitByPosition(scene);
  const refusal = rule.ok ? null : refusalMessage(i18n, rule.refusal);
  const preview = useRef<RawPreviewHandle>(null);
  const { waveform, failed } = useWaveform(hasText ? null : scene.media_file_id);
  const words = useProjectWords(project.id).byMedia.get(scene.media_file_id ?? -1) ?? [];
  /** The split point dragged on the waveform (already snapped) or moved by Shift + arrows, in media seconds. */
  const moved = (_index: number, time: number) => setPosition(roundTime(Math.min(Math.max(time - scene.trim_start, 0), length)));

  async function split() {
    if (rule.ok && (await run(() => worker.splitSceneByPosition(scene.id, position)))) {
      track("Project Scene Split", { split: "position" });
      close();
    }
  }

  return (
    <>
      {hasText ? (
        <p className="tool-reason" role="note">
          {refusal}
        </p>
      ) : (
        <>
          <RawPreview
            ref={preview}
            src={project.export_raw_url}
            label={t`Frame at the split point`}
            frameAt={toRawSeconds(scene, scene.trim_start + position)}
            playRange={[toRawSeconds(scene, scene.trim_start + position), toRawSeconds(scene, scene.trim_end)]}
            playLabel={t`Play from the split point`}
          />
          <Slider
            className="trim-slider"
            value={position}
            minValue={0}
            maxValue={length}
            step={TIME_STEP}
            onChange={(v) => {
              setPosition(roundTime(v));
              preview.current?.snippet(toRawSeconds(scene, scene.trim_start + v));
            }}
            isDisabled={pending}
            formatOptions={{ style: "unit", unit: "second", maximumFractionDigits: 2 }}
          >
            <div className="trim-slider-head">
              <Label className="field-label">
                <Trans>Split point</Trans>
              </Label>
              <span className="field-description">
                <Trans>Scene length: {formatSeconds(length, i18n.locale)}</Trans>
              </span>
            </div>
            <WaveTrack
              waveform={waveform}
              waveformFailed={failed}
              words={words}
              from={scene.trim_start}
              to={scene.trim_start + length}
              markers={[scene.trim_start + position]}
              onMove={moved}
              onScrub={(time) => preview.current?.snippet(toRawSeconds(scene, time))}
              isDisabled={pending}
            >
              <div className="trim-kept" style={{ left: 0, width: `${length > 0 ? (position / length) * 100 : 0}%` }} />
              <SliderThumb className="trim-thumb" aria-label={t`Split point`} />
            </WaveTrack>
            <MarkerHelp />
          </Slider>
          <NumberField
            label={t`Split at (seconds from the scene start)`}
            value={position}
            minValue={0}
            maxValue={length}
            step={TIME_STEP}
            formatOptions={{ maximumFractionDigits: 2 }}
            onChange={(v) => setPosition(Number.isFinite(v) ? roundTime(v) : 0)}
            errorMessage={refusal ?? undefined}
            isDisabled={pending}
          />
        </>
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onPress={close} isDisabled={pending}>
          <Trans>Cancel</Trans>
        </Button>
        <Button onPress={() => void split()} isDisabled={!rule.ok} isPending={pending}>
          <Trans>Split</Trans>
        </Button>
      </div>
    </>
  );
}
