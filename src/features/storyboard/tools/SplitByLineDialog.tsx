import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../../api/projects";
import type { Scene } from "../../../../api/scenes";
import { splitByLine } from "../../../../api/storyboard";
import { Button } from "../../../ui/Button";
import { Dialog } from "../../../ui/Dialog";
import { RadioGroup } from "../../../ui/RadioGroup";
import { worker } from "../../../worker";
import { track } from "../../../lib/analytics";
import { refusalMessage, useSceneEdit } from "./edit";
import { RawPreview } from "./RawPreview";
import { toRawSeconds } from "./time";
import { useWaveform, WaveStrip } from "./WaveTrack";
import { useProjectWords } from "../useProjectWords";
import "./tools.css";

export interface SplitByLineDialogProps {
  scene: Scene;
  project: Project;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}

/** SPEC §5: the scissors are offered only for a scene with more than one text line. */
export const canSplitByLine = (scene: Pick<Scene, "text">) => scene.text.length > 1;

/** SPEC §2 Scene card "scissors": cut the scene before one of its text lines. */
export function SplitByLineDialog({ scene, project, isOpen, onOpenChange }: SplitByLineDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t`Split scene ${scene.order} by text line`}>
      <SplitByLineForm scene={scene} project={project} close={() => onOpenChange(false)} />
    </Dialog>
  );
}

function SplitByLineForm({ scene, project, close }: { scene: Scene; project: Project; close: () => void }) {
  const { t, i18n } = useLingui();
  const { pending, run } = useSceneEdit();
  const [line, setLine] = useState("2");
  const rule = splitByLine(scene, Number(line));
  // Cuts go between lines: before line 2 … before line n.
  const splittable = canSplitByLine(scene);
  // Issue 14: where the cut falls, on the scene's waveform with its words, and a way to hear it.
  const cut = rule.ok ? rule.value[0].trim_end : null;
  const { waveform } = useWaveform(splittable ? scene.media_file_id : null);
  const words = useProjectWords(project.id).byMedia.get(scene.media_file_id ?? -1) ?? [];
  const options = scene.text.slice(1).map((l, i) => ({ id: String(i + 2), label: t`Before line ${i + 2}`, description: `“${l.text}”` }));

  async function split() {
    if (rule.ok && (await run(() => worker.splitSceneByLine(scene.id, Number(line))))) {
      track("Project Scene Split", { split: "line" });
      close();
    }
  }

  return (
    <>
      {splittable ? (
        <>
          {cut !== null && (
            <RawPreview
              src={project.export_raw_url}
              label={t`Frame at the cut`}
              frameAt={toRawSeconds(scene, cut)}
              playRange={[toRawSeconds(scene, cut), toRawSeconds(scene, scene.trim_end)]}
              playLabel={t`Play from the cut`}
            />
          )}
          <WaveStrip waveform={waveform} words={words} from={scene.trim_start} to={scene.trim_end} cut={cut} />
          <ol className="split-lines" aria-label={t`Text lines of the scene`}>
            {scene.text.map((l, i) => (
              <li key={i} data-cut={String(i + 1) === line || undefined}>
                {l.text}
              </li>
            ))}
          </ol>
          <RadioGroup label={t`Where to cut`} options={options} value={line} onChange={setLine} />
        </>
      ) : (
        <p className="tool-reason" role="note">
          {refusalMessage(i18n, "split_needs_two_lines")}
        </p>
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onPress={close} isDisabled={pending}>
          <Trans>Cancel</Trans>
        </Button>
        {canSplitByLine(scene) && (
          <Button onPress={() => void split()} isDisabled={!rule.ok} isPending={pending}>
            <Trans>Split</Trans>
          </Button>
        )}
      </div>
    </>
  );
}
