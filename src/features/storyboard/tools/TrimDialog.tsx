import { useRef, useState } from "react";
import { Label, Slider, SliderThumb } from "react-aria-components";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../../api/projects";
import type { Scene } from "../../../../api/scenes";
import { MIN_SCENE_SECONDS, trim } from "../../../../api/storyboard";
import { Button } from "../../../ui/Button";
import { Dialog } from "../../../ui/Dialog";
import { NumberField } from "../../../ui/NumberField";
import { worker } from "../../../worker";
import { refusalMessage, useSceneEdit } from "./edit";
import { RawPreview, type RawPreviewHandle } from "./RawPreview";
import { formatSeconds, roundTime, TIME_STEP, toRawSeconds } from "./time";
import { useWaveform, WaveTrack } from "./WaveTrack";
import { MarkerHelp } from "./MarkerHelp";
import { useProjectWords } from "../useProjectWords";
import "./tools.css";

export interface TrimDialogProps {
  scene: Scene;
  project: Project;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}

/** SPEC §2 Scene card "trim": two markers on the scene's footage that cannot pass each other. */
export function TrimDialog({ scene, project, isOpen, onOpenChange }: TrimDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t`Trim scene ${scene.order}`} size="wide">
      <TrimForm scene={scene} project={project} close={() => onOpenChange(false)} />
    </Dialog>
  );
}

type Marker = "start" | "end";

function TrimForm({ scene, project, close }: { scene: Scene; project: Project; close: () => void }) {
  const { t, i18n } = useLingui();
  const { pending, run } = useSceneEdit();
  const [range, setRange] = useState({ start: scene.trim_start, end: scene.trim_end });
  const [error, setError] = useState<{ marker: Marker; message: string } | null>(null);
  const span = Math.max(scene.end - scene.start, MIN_SCENE_SECONDS);
  const percent = (seconds: number) => ((seconds - scene.start) / span) * 100;
  const isDefault = range.start === scene.trim_start_default && range.end === scene.trim_end_default;
  const changed = range.start !== scene.trim_start || range.end !== scene.trim_end;
  const format = (seconds: number) => formatSeconds(seconds, i18n.locale);
  const preview = useRef<RawPreviewHandle>(null);
  const { waveform, failed } = useWaveform(scene.media_file_id);
  const words = useProjectWords(project.id).byMedia.get(scene.media_file_id ?? -1) ?? [];

  /** A marker dragged on the waveform (already snapped) or moved by Shift + arrows: kept inside the scene and a frame from the other. */
  function moved(index: number, time: number) {
    setError(null);
    setRange((r) =>
      index === 0
        ? { start: roundTime(Math.max(scene.start, Math.min(time, r.end - MIN_SCENE_SECONDS))), end: r.end }
        : { start: r.start, end: roundTime(Math.min(scene.end, Math.max(time, r.start + MIN_SCENE_SECONDS))) },
    );
  }

  /** A typed marker goes through the rule; a refused one keeps the old value and says why (nothing is sent). */
  function typed(marker: Marker, value: number) {
    const next = marker === "start" ? { ...range, start: value } : { ...range, end: value };
    const rule = trim(scene, next.start, next.end);
    if (!rule.ok) {
      setError({ marker, message: refusalMessage(i18n, rule.refusal) });
      return;
    }
    setError(null);
    setRange({ start: rule.value.trim_start, end: rule.value.trim_end });
  }

  /** The slider keeps its thumbs at least one frame apart: the moving thumb stops at the other. */
  function slid(values: number[]) {
    const [start = range.start, end = range.end] = values;
    setError(null);
    if (start !== range.start) setRange({ start: roundTime(Math.min(start, range.end - MIN_SCENE_SECONDS)), end: range.end });
    else if (end !== range.end) setRange({ start: range.start, end: roundTime(Math.max(end, range.start + MIN_SCENE_SECONDS)) });
    // A marker moved by the keyboard is heard where it goes, as a dragged one is.
    if (start !== range.start || end !== range.end) preview.current?.snippet(toRawSeconds(scene, start !== range.start ? start : end));
  }

  async function save() {
    const rule = trim(scene, range.start, range.end);
    if (!rule.ok) return setError({ marker: "end", message: refusalMessage(i18n, rule.refusal) });
    if (await run(() => worker.trimScene(scene.id, rule.value.trim_start, rule.value.trim_end))) close();
  }

  return (
    <>
      <RawPreview
        ref={preview}
        src={project.export_raw_url}
        label={t`Preview of the trimmed scene`}
        frameAt={toRawSeconds(scene, range.start)}
        playRange={[toRawSeconds(scene, range.start), toRawSeconds(scene, range.end)]}
      />
      <Slider
        className="trim-slider"
        value={[range.start, range.end]}
        minValue={scene.start}
        maxValue={scene.end}
        step={TIME_STEP}
        onChange={slid}
        isDisabled={pending}
        formatOptions={{ style: "unit", unit: "second", maximumFractionDigits: 2 }}
      >
        <div className="trim-slider-head">
          <Label className="field-label">
            <Trans>Trim markers</Trans>
          </Label>
          <span className="field-description">
            <Trans>Length: {format(range.end - range.start)}</Trans>
          </span>
        </div>
        <WaveTrack
          waveform={waveform}
          waveformFailed={failed}
          words={words}
          from={scene.start}
          to={scene.end}
          markers={[range.start, range.end]}
          onMove={moved}
          onScrub={(time) => preview.current?.snippet(toRawSeconds(scene, time))}
          isDisabled={pending}
        >
          <div
            className="trim-default"
            style={{ left: `${percent(scene.trim_start_default)}%`, width: `${percent(scene.trim_end_default) - percent(scene.trim_start_default)}%` }}
            title={t`Default: ${format(scene.trim_start_default)} – ${format(scene.trim_end_default)}`}
          />
          <div className="trim-kept" style={{ left: `${percent(range.start)}%`, width: `${percent(range.end) - percent(range.start)}%` }} />
          <SliderThumb index={0} className="trim-thumb" aria-label={t`Start marker`} />
          <SliderThumb index={1} className="trim-thumb" aria-label={t`End marker`} />
        </WaveTrack>
        <MarkerHelp />
        <p className="field-description trim-legend">
          <span className="trim-legend-default" aria-hidden="true" />
          <Trans>
            Default cut: {format(scene.trim_start_default)} – {format(scene.trim_end_default)}
          </Trans>
        </p>
      </Slider>
      <div className="tool-row">
        <NumberField
          label={t`Start (seconds)`}
          value={range.start}
          step={TIME_STEP}
          formatOptions={{ maximumFractionDigits: 2 }}
          onChange={(value) => typed("start", value)}
          errorMessage={error?.marker === "start" ? error.message : undefined}
          isDisabled={pending}
        />
        <NumberField
          label={t`End (seconds)`}
          value={range.end}
          step={TIME_STEP}
          formatOptions={{ maximumFractionDigits: 2 }}
          onChange={(value) => typed("end", value)}
          errorMessage={error?.marker === "end" ? error.message : undefined}
          isDisabled={pending}
        />
      </div>
      <div className="dialog-actions">
        <Button
          variant="ghost"
          className="tool-action-start"
          onPress={() => {
            setError(null);
            setRange({ start: scene.trim_start_default, end: scene.trim_end_default });
          }}
          isDisabled={isDefault || pending}
        >
          <Trans>Back to default</Trans>
        </Button>
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
