import { Trans, useLingui } from "@lingui/react/macro";
import { formatDuration } from "../../lib/format";
import { Button } from "../../ui/Button";
import { Switch } from "../../ui/Switch";
import { Icon } from "./icons";
import type { StoryboardMode } from "./SceneCard";

export interface StoryboardToolbarProps {
  hideRemoved: boolean;
  onHideRemovedChange: (value: boolean) => void;
  mode: StoryboardMode;
  onModeChange: (mode: StoryboardMode) => void;
  /** Busy projects cannot be reordered. */
  canDrag: boolean;
  /** A finished (Render Ready) project offers no selection: it only leads to a clips project. */
  canSelect?: boolean;
  /** Why dragging is off, when it is for want of a connection. */
  dragNote?: string;
  /** Project length in seconds (visible scenes). */
  length: number;
  onHelp: () => void;
}

/**
 * SPEC §2 Storyboard toggles: hide removed scenes, drag to reorder, select (drag and select exclude
 * each other: turning one on turns the other off), the project length and the help button.
 */
export function StoryboardToolbar({ hideRemoved, onHideRemovedChange, mode, onModeChange, canDrag, canSelect = true, dragNote, length, onHelp }: StoryboardToolbarProps) {
  const { t } = useLingui();
  const total = formatDuration(length);
  return (
    <div className="storyboard-toolbar">
      <div className="storyboard-switches" role="group" aria-label={t`Storyboard view`}>
        <Switch isSelected={hideRemoved} onChange={onHideRemovedChange}>
          <Trans>Hide removed scenes</Trans>
        </Switch>
        <Switch isSelected={mode === "drag"} onChange={(on) => onModeChange(on ? "drag" : "view")} isDisabled={!canDrag} description={dragNote}>
          <Trans>Drag to reorder</Trans>
        </Switch>
        <Switch isSelected={mode === "select"} onChange={(on) => onModeChange(on ? "select" : "view")} isDisabled={!canSelect}>
          <Trans>Select</Trans>
        </Switch>
      </div>
      <div className="storyboard-summary">
        <p className="storyboard-length">
          <Trans>
            Project length <strong>{total}</strong>
          </Trans>
        </p>
        <Button variant="ghost" className="storyboard-help-button" onPress={onHelp} aria-label={t`Storyboard help`}>
          <Icon name="help" />
          <span aria-hidden="true">
            <Trans>Help</Trans>
          </span>
        </Button>
      </div>
    </div>
  );
}
