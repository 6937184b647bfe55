import { Trans, useLingui } from "@lingui/react/macro";
import type { Scene } from "../../../api/scenes";
import { formatDuration } from "../../lib/format";
import { Button } from "../../ui/Button";
import { Icon } from "./icons";
import type { SceneAction } from "./SceneMenu";
import { OVERLAY_POSITIONS } from "./tools/OverlayDialog";

type WithOverlay = Scene & { overscene: NonNullable<Scene["overscene"]> };

export const hasOverlay = (scene: Scene): scene is WithOverlay => scene.overscene !== null;

/** The overlay's own length on screen: its trimmed span. */
const overlayLength = (scene: WithOverlay) => Math.max(0, scene.overscene.trim_end - scene.overscene.trim_start);

/**
 * The overlay-scene card's picture (SPEC §2 Scene card, variant for an overscene): the overlay drawn over the main
 * scene where the render puts it — a corner for picture in picture, the whole frame for full screen and scale to
 * fill — with the main scene dimmed when the overlay hides it.
 */
export function OverlayPicture({ scene }: { scene: WithOverlay }) {
  const type = scene.overscene_type ?? "pip_br";
  return (
    <span className="scene-overlay-picture" data-position={type} data-hides-main={scene.overscene_bg === 1 || undefined} aria-hidden="true">
      {scene.overscene.thumbnail ? <img src={scene.overscene.thumbnail} alt="" loading="lazy" decoding="async" draggable={false} /> : <Icon name="layers" />}
    </span>
  );
}

/** Under the picture: where the overlay sits, its options and length, and the way to its settings. */
export function OverlayStrip({ scene, readOnly, onAction }: { scene: WithOverlay; readOnly: boolean; onAction: (action: SceneAction, scene: Scene) => void }) {
  const { t, i18n } = useLingui();
  const position = OVERLAY_POSITIONS.find((p) => p.id === scene.overscene_type);
  const where = position ? i18n._(position.label) : t`Overlay`;
  const options = [
    scene.overscene_bg === 1 ? t`Main scene hidden` : null,
    scene.overscene_fade === 1 ? t`Fades in and out` : null,
    scene.overscene_overflow === 1 ? t`Runs over the next scenes` : null,
  ].filter((o): o is string => o !== null);
  return (
    <div className="scene-overlay-strip" role="group" aria-label={t`Overlay of scene ${scene.order}`}>
      <span className="scene-overlay-where">
        <span className="visually-hidden">
          <Trans>Overlay:</Trans>{" "}
        </span>
        {where}
        <span className="scene-overlay-length">
          {" · "}
          <span className="visually-hidden">
            <Trans>Overlay length</Trans>{" "}
          </span>
          {formatDuration(overlayLength(scene))}
        </span>
      </span>
      {options.length > 0 && (
        <ul className="scene-overlay-options">
          {options.map((o) => (
            <li key={o}>{o}</li>
          ))}
        </ul>
      )}
      {!readOnly && (
        <Button variant="ghost" className="scene-action scene-overlay-edit" onPress={() => onAction("overlay", scene)} aria-label={t`Overlay options of scene ${scene.order}`}>
          <Icon name="layers" />
          <span aria-hidden="true">
            <Trans>Overlay</Trans>
          </span>
        </Button>
      )}
    </div>
  );
}
