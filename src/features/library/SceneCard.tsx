import { useLingui } from "@lingui/react/macro";
import { Button as AriaButton } from "react-aria-components";
import type { Scene } from "../../../api/scenes";
import { formatDuration } from "../../lib/format";
import { Checkbox } from "../../ui/Checkbox";
import { ProjectThumbnail } from "../projects/ProjectThumbnail";

/** Text lines shown on a card (SPEC §2: up to two). */
const CARD_LINES = 2;

export interface SceneCardProps {
  scene: Scene;
  onPreview: (scene: Scene) => void;
  /** Insert mode, fully processed item: the scene's checkbox. */
  pick?: { isPicked: boolean; onToggle: () => void };
}

/** A scene of a library item: thumbnail, order number, up to two text lines, a play icon for the preview. */
export function SceneCard({ scene, onPreview, pick }: SceneCardProps) {
  const { t } = useLingui();
  const lines = scene.text.slice(0, CARD_LINES);
  const order = scene.order;
  return (
    <li className="library-scene" data-picked={pick?.isPicked || undefined}>
      <div className="library-scene-thumb">
        <ProjectThumbnail src={scene.thumbnail} />
        <span className="library-scene-order" aria-hidden="true">
          {order}
        </span>
        <span className="library-scene-length">{formatDuration(scene.trim_end - scene.trim_start)}</span>
        <AriaButton className="library-scene-play" aria-label={t`Preview scene ${order}`} onPress={() => onPreview(scene)}>
          <svg className="icon" viewBox="0 0 24 24" aria-hidden="true">
            <polygon points="8 5 19 12 8 19" />
          </svg>
        </AriaButton>
      </div>
      {lines.length > 0 && (
        <p className="library-scene-text">
          {lines.map((line, i) => (
            <span key={i}>{line.text}</span>
          ))}
        </p>
      )}
      {pick ? (
        <Checkbox isSelected={pick.isPicked} onChange={pick.onToggle} aria-label={t`Select scene ${order}`}>
          {t`Scene ${order}`}
        </Checkbox>
      ) : (
        <span className="library-scene-name">{t`Scene ${order}`}</span>
      )}
    </li>
  );
}
