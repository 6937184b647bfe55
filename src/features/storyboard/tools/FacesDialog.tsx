import { useEffect, useId, useRef, useState, type PointerEvent } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../../api/projects";
import type { DetectedFace, FaceBox, Scene } from "../../../../api/scenes";
import { Button } from "../../../ui/Button";
import { Checkbox } from "../../../ui/Checkbox";
import { Dialog } from "../../../ui/Dialog";
import { RadioGroup } from "../../../ui/RadioGroup";
import { Switch } from "../../../ui/Switch";
import { worker } from "../../../worker";
import { useSceneEdit } from "./edit";
import { boxAfterKey, boxFromDrag, centredBox, focusOfBoxes, isBigEnough, keptPart, MAX_FACES, toFraction, type Point } from "./faces";
import { toRawSeconds } from "./time";
import "./tools.css";

export interface FacesDialogProps {
  scene: Scene;
  project: Project;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}

/** SPEC §2 Scene card "select faces" and §3 Framing: faces to keep in the picture, punch-in and crop. */
export function FacesDialog({ scene, project, isOpen, onOpenChange }: FacesDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t`Faces and framing of scene ${scene.order}`} size="wide">
      <FacesForm scene={scene} project={project} close={() => onOpenChange(false)} />
    </Dialog>
  );
}

type PunchIn = Scene["punch_in"];
/** The frame's shape until the picture has loaded, and its greatest height (a share of the screen's). */
const DEFAULT_RATIO = 16 / 9;
const FRAME_MAX_VH = 50;

function FacesForm({ scene, project, close }: { scene: Scene; project: Project; close: () => void }) {
  const { t } = useLingui();
  const { pending, run } = useSceneEdit();
  const [faces, setFaces] = useState<FaceBox[]>(() => scene.selected_faces.map((f) => ({ ...f, BoundingBox: { ...f.BoundingBox } })));
  const [punchIn, setPunchIn] = useState<PunchIn>(scene.punch_in);
  const [crop, setCrop] = useState(scene.crop);
  const [drag, setDrag] = useState<{ from: Point; to: Point } | null>(null);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const layer = useRef<HTMLDivElement>(null);
  const boxes = useRef<(HTMLButtonElement | null)[]>([]);
  const hintId = useId();
  const [ratio, setRatio] = useState(DEFAULT_RATIO);
  const measured = (width: number, height: number) => width > 0 && height > 0 && setRatio(width / height);
  const full = faces.length >= MAX_FACES;

  useEffect(() => {
    if (focusIndex === null) return;
    boxes.current[focusIndex]?.focus();
    setFocusIndex(null);
  }, [focusIndex]);

  const add = (box: FaceBox["BoundingBox"]) => setFaces((all) => (all.length >= MAX_FACES ? all : [...all, { BoundingBox: box, visibility: 1 }]));
  // Issue 17: the faces the server found; picking one adds its box with its track (the framing follows it as it moves).
  const detected = scene.faces ?? [];
  const pickedIndex = (face: DetectedFace) => faces.findIndex((f) => f.track === face.track);
  const togglePick = (face: DetectedFace) =>
    setFaces((all) => {
      const at = all.findIndex((f) => f.track === face.track);
      if (at >= 0) return all.filter((_, i) => i !== at);
      return all.length >= MAX_FACES ? all : [...all, { BoundingBox: { ...face.BoundingBox }, visibility: 1, track: face.track }];
    });
  // What the render keeps of the picture: the shown faces, else the largest face found, else the middle.
  const shownBoxes = faces.filter((f) => f.visibility === 1).map((f) => f.BoundingBox);
  const focus = focusOfBoxes(shownBoxes.length ? shownBoxes : detected[0] ? [detected[0].BoundingBox] : []) ?? { x: 0.5, y: 0.5 };
  const kept = keptPart(ratio, project.aspect, crop || project.autocrop === 1, punchIn === 2, focus);
  const change = (index: number, face: Partial<FaceBox>) => setFaces((all) => all.map((f, i) => (i === index ? { ...f, ...face } : f)));
  const remove = (index: number) => setFaces((all) => all.filter((_, i) => i !== index));
  const point = (event: PointerEvent) => toFraction(layer.current!.getBoundingClientRect(), event.clientX, event.clientY);

  function startDrawing(event: PointerEvent<HTMLDivElement>) {
    if (event.target !== layer.current || full || pending) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const from = point(event);
    setDrag({ from, to: from });
  }

  function stopDrawing() {
    if (!drag) return;
    const box = boxFromDrag(drag.from, drag.to);
    setDrag(null);
    if (isBigEnough(box)) add(box);
  }

  async function save() {
    const ok = await run(() => worker.setSceneAttributes(scene.id, { selected_faces: faces, punch_in: punchIn, crop }));
    if (ok) close();
  }

  const drawing = drag && boxFromDrag(drag.from, drag.to);
  const style = (b: FaceBox["BoundingBox"]) => ({ left: `${b.Left * 100}%`, top: `${b.Top * 100}%`, width: `${b.Width * 100}%`, height: `${b.Height * 100}%` });
  const middle = toRawSeconds(scene, (scene.trim_start + scene.trim_end) / 2);

  return (
    <>
      {/* The frame keeps the picture's shape, so boxes in fractions of it land on the picture. */}
      <div className="faces-frame" style={{ aspectRatio: ratio, width: `min(100%, calc(${FRAME_MAX_VH}vh * ${ratio}))` }}>
        {scene.thumbnail ? (
          <img
            className="faces-media"
            src={scene.thumbnail}
            alt={t`Frame of scene ${scene.order}`}
            onLoad={(event) => measured(event.currentTarget.naturalWidth, event.currentTarget.naturalHeight)}
          />
        ) : project.export_raw_url ? (
          <FrameVideo src={project.export_raw_url} at={middle} label={t`Frame of scene ${scene.order}`} onSize={measured} />
        ) : null}
        <div
          ref={layer}
          className="faces-layer"
          data-full={full || undefined}
          onPointerDown={startDrawing}
          onPointerMove={(event) => drag && setDrag({ from: drag.from, to: point(event) })}
          onPointerUp={stopDrawing}
          onPointerCancel={() => setDrag(null)}
        >
          {faces.map((face, index) => (
            <button
              key={index}
              ref={(element) => {
                boxes.current[index] = element;
              }}
              type="button"
              className="face-box"
              style={style(face.BoundingBox)}
              aria-pressed={face.visibility === 1}
              aria-label={t`Face ${index + 1}`}
              aria-describedby={hintId}
              disabled={pending}
              onPointerDown={(event) => event.stopPropagation()}
              onClick={() => change(index, { visibility: face.visibility === 1 ? 0 : 1 })}
              onKeyDown={(event) => {
                if (event.key === "Delete" || event.key === "Backspace") {
                  event.preventDefault();
                  remove(index);
                  // Keep the keyboard on a box: the one before, or the new first one.
                  if (faces.length > 1) setFocusIndex(Math.max(0, index - 1));
                  return;
                }
                const moved = boxAfterKey(face.BoundingBox, event.key, event.shiftKey);
                if (!moved) return;
                event.preventDefault();
                change(index, { BoundingBox: moved });
              }}
            >
              <span aria-hidden="true">{index + 1}</span>
            </button>
          ))}
          {drawing && <div className="face-box face-box-drawing" style={style(drawing)} aria-hidden="true" />}
          {kept && <div className="faces-kept" data-testid="faces-kept" style={style(kept)} aria-hidden="true" />}
        </div>
      </div>
      {kept && (
        <p className="field-description">
          <Trans>The outline shows the part of the picture the render keeps.</Trans>
        </p>
      )}
      {detected.length > 0 && (
        <div className="faces-found" role="group" aria-label={t`Faces found in this scene`}>
          <p className="field-description">
            <Trans>Faces found in this scene: pick the ones to keep in the picture. Draw a box for any face that was missed.</Trans>
          </p>
          <div className="faces-found-list">
            {detected.map((face, index) => (
              <button
                key={face.track}
                type="button"
                className="face-found"
                aria-pressed={pickedIndex(face) >= 0}
                aria-label={t`Found face ${index + 1}`}
                disabled={pending || (pickedIndex(face) < 0 && full)}
                onClick={() => togglePick(face)}
              >
                {face.thumbnail ? <img src={face.thumbnail} alt="" /> : <span aria-hidden="true">{index + 1}</span>}
              </button>
            ))}
          </div>
        </div>
      )}
      <p id={hintId} className="field-description">
        <Trans>
          Drag on the picture to draw a box around a face; press a box to use or ignore it. With the keyboard, add a box, then move it with the arrow keys, resize it
          with Shift and the arrow keys, and delete it with Delete.
        </Trans>
      </p>
      <div className="faces-list">
        {faces.length === 0 && (
          <p className="field-description">
            <Trans>No faces picked: the framing follows the speaker automatically.</Trans>
          </p>
        )}
        {faces.map((face, index) => (
          <div className="faces-list-row" key={index}>
            <Checkbox isSelected={face.visibility === 1} onChange={(on) => change(index, { visibility: on ? 1 : 0 })} isDisabled={pending}>
              <Trans>Use face {index + 1}</Trans>
            </Checkbox>
            <Button variant="ghost" className="btn-small" aria-label={t`Delete face ${index + 1}`} onPress={() => remove(index)} isDisabled={pending}>
              <Trans>Delete</Trans>
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          className="btn-small"
          onPress={() => {
            add(centredBox());
            setFocusIndex(faces.length);
          }}
          isDisabled={full || pending}
        >
          <Trans>Add a box</Trans>
        </Button>
      </div>
      <RadioGroup<"0" | "1" | "2">
        label={t`Punch-in`}
        options={[
          { id: "1", label: t`Automatic` },
          { id: "2", label: t`Always punch in` },
          { id: "0", label: t`Never punch in` },
        ]}
        value={String(punchIn) as "0" | "1" | "2"}
        onChange={(v) => setPunchIn(Number(v) as PunchIn)}
      />
      <Switch isSelected={crop} onChange={setCrop} isDisabled={pending} description={t`Keeps the picked faces in the picture when the size changes.`}>
        <Trans>Crop this scene</Trans>
      </Switch>
      <div className="dialog-actions">
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

/** A still of the raw preview at one second, for scenes without a thumbnail. */
function FrameVideo({ src, at, label, onSize }: { src: string; at: number; label: string; onSize: (width: number, height: number) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const seek = () => {
      element.currentTime = at;
    };
    if (element.readyState >= 1) seek();
    else element.addEventListener("loadedmetadata", seek, { once: true });
    return () => element.removeEventListener("loadedmetadata", seek);
  }, [at, src]);
  return (
    <video
      ref={video}
      className="faces-media"
      src={src}
      preload="metadata"
      muted
      playsInline
      aria-label={label}
      onLoadedMetadata={(event) => onSize(event.currentTarget.videoWidth, event.currentTarget.videoHeight)}
    />
  );
}
