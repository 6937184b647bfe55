import { memo, type ReactNode } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Scene } from "../../../api/scenes";
import { formatDuration } from "../../lib/format";
import { Button } from "../../ui/Button";
import { Checkbox } from "../../ui/Checkbox";
import { Icon } from "./icons";
import { sceneLength } from "./model";
import { SceneMenu, type SceneAction } from "./SceneMenu";
import { hasOverlay, OverlayPicture, OverlayStrip } from "./OverlayLayer";

export type StoryboardMode = "view" | "drag" | "select";

export interface SceneCardProps {
  scene: Scene;
  mode: StoryboardMode;
  /** A busy project: the card can be looked at and played, not edited. */
  readOnly: boolean;
  selected: boolean;
  /** The project's videos are muted: the volume tool is unavailable (SPEC §5 Settings). */
  muted: boolean;
  online: boolean;
  /** This scene has edits waiting on this device to be sent (the outbox). */
  pending?: boolean;
  canPlay: boolean;
  canMoveEarlier: boolean;
  canMoveLater: boolean;
  onAction: (action: SceneAction, scene: Scene) => void;
  onSelectChange: (sceneId: number, selected: boolean) => void;
  /** The inline text editor, on the one card whose text is being edited. */
  textEditor?: ReactNode;
}

/**
 * One scene of the storyboard (SPEC §2 Scene card). Cheap to mount and memoised, since a long
 * storyboard mounts and unmounts cards as it scrolls: every edit goes up through `onAction`, and the
 * tools open once at the storyboard's level.
 */
export const SceneCard = memo(function SceneCard(props: SceneCardProps) {
  const { scene, mode, readOnly, selected, pending, canPlay, onAction, onSelectChange, textEditor } = props;
  const { t } = useLingui();
  const number = scene.order;
  // SPEC §2 Scene card: a scene with an overscene shows as the overlay-scene variant.
  const overlay = hasOverlay(scene) ? scene : null;
  const removed = scene.visibility === 0;
  const notUpdated = !removed && !scene.thumbnail;
  const firstLines = scene.text.slice(0, 2).map((line) => line.text);

  return (
    <article
      className="scene-card"
      aria-label={t`Scene ${number}`}
      data-variant={overlay ? "overlay" : undefined}
      data-mode={mode}
      data-removed={removed || undefined}
      data-selected={selected || undefined}
      data-scene-id={scene.id}
      data-pending={pending || undefined}
    >
      <div className="scene-thumb" data-drag-handle={mode === "drag" || undefined} onClick={mode === "select" ? () => onSelectChange(scene.id, !selected) : undefined}>
        {scene.thumbnail ? (
          <img src={scene.thumbnail} alt="" loading="lazy" decoding="async" draggable={false} />
        ) : (
          <span className="scene-thumb-placeholder" aria-hidden="true" />
        )}
        <span className="scene-badge scene-number" aria-hidden="true">
          {number}
        </span>
        {pending && (
          <span className="scene-badge scene-pending">
            <Trans>Waiting to sync</Trans>
          </span>
        )}
        {scene.type !== "default" && (
          <span className="scene-badge scene-type">{scene.type === "intro" ? <Trans>Intro</Trans> : <Trans>Outro</Trans>}</span>
        )}
        <span className="scene-badge scene-duration">
          <span className="visually-hidden">
            <Trans>Duration</Trans>{" "}
          </span>
          {formatDuration(sceneLength(scene))}
        </span>
        {overlay && <OverlayPicture scene={overlay} />}
        {mode === "drag" && (
          <span className="scene-grip" aria-hidden="true">
            <Icon name="grip" />
          </span>
        )}
        {removed && (
          <div className="scene-state scene-removed">
            <strong>
              <Trans>Removed</Trans>
            </strong>
          </div>
        )}
        {notUpdated && (
          <div className="scene-state scene-not-updated">
            <strong>
              <Trans>Not updated</Trans>
            </strong>
            <span>
              <Trans>The picture updates after the next render.</Trans>
            </span>
          </div>
        )}
      </div>

      {textEditor ? (
        <div className="scene-text-editor">{textEditor}</div>
      ) : (
        <p className="scene-text" title={firstLines.join("\n") || undefined}>
          {firstLines.length > 0 ? firstLines.join(" · ") : <span className="muted">{t`No text`}</span>}
        </p>
      )}

      {overlay && <OverlayStrip scene={overlay} readOnly={readOnly || mode === "select"} onAction={onAction} />}

      <div className="scene-actions">
        {mode === "select" && (
          <Checkbox isSelected={selected} onChange={(value) => onSelectChange(scene.id, value)} aria-label={t`Select scene ${number}`}>
            <Trans>Select</Trans>
          </Checkbox>
        )}
        <Button variant="ghost" className="scene-action" onPress={() => onAction("play", scene)} isDisabled={!canPlay} aria-label={t`Play scene ${number}`}>
          <Icon name="play" />
          <span aria-hidden="true">
            <Trans>Play</Trans>
          </span>
        </Button>
        {mode !== "select" && (
          <>
            {!readOnly && (
              <>
                <Button variant="ghost" className="scene-action" onPress={() => onAction("editText", scene)} aria-label={t`Edit text of scene ${number}`}>
                  <Icon name="text" />
                  <span aria-hidden="true">
                    <Trans>Text</Trans>
                  </span>
                </Button>
                {removed ? (
                  <Button variant="ghost" className="scene-action" onPress={() => onAction("show", scene)} aria-label={t`Restore scene ${number}`}>
                    <Icon name="show" />
                    <span aria-hidden="true">
                      <Trans>Restore</Trans>
                    </span>
                  </Button>
                ) : (
                  <Button variant="ghost" className="scene-action" onPress={() => onAction("hide", scene)} aria-label={t`Remove scene ${number}`}>
                    <Icon name="hide" />
                    <span aria-hidden="true">
                      <Trans>Remove</Trans>
                    </span>
                  </Button>
                )}
              </>
            )}
            <SceneMenu {...props} />
          </>
        )}
      </div>
    </article>
  );
});
