import { Trans, useLingui } from "@lingui/react/macro";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";

/** SPEC §2 Storyboard help modal: what the cards show and what each action does. */
export function HelpDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={t`How the storyboard works`}
      actions={
        <Button onPress={() => onOpenChange(false)}>
          <Trans>Got it</Trans>
        </Button>
      }
    >
      <div className="storyboard-help">
        <p>
          <Trans>Each card is a scene of your video, in the order it plays. The number is its place, the time is its length.</Trans>
        </p>
        <ul>
          <li>
            <Trans><strong>Removed</strong>: the scene is left out of the video. Restore brings it back.</Trans>
          </li>
          <li>
            <Trans><strong>Not updated</strong>: the scene changed; its picture updates after the next render.</Trans>
          </li>
          <li>
            <Trans><strong>Intro</strong> and <strong>Outro</strong>: the scene opens or closes the video.</Trans>
          </li>
        </ul>
        <h3>
          <Trans>Actions</Trans>
        </h3>
        <ul>
          <li>
            <Trans><strong>Play</strong> plays the scene in the reference player; <strong>Play from here</strong> plays on to the end.</Trans>
          </li>
          <li>
            <Trans><strong>Text</strong> edits the subtitle lines in place, 35 characters per line.</Trans>
          </li>
          <li>
            <Trans><strong>Remove</strong> leaves the scene out; nothing is deleted.</Trans>
          </li>
          <li>
            <Trans><strong>More</strong>: change type, trim, split (scenes without text), split by text line, volume, select faces, overlay, duplicate and move.</Trans>
          </li>
          <li>
            <Trans><strong>Add</strong> inserts scenes from your library at that point; <strong>Merge with next</strong> joins two scenes that follow each other in the same file.</Trans>
          </li>
          <li>
            <Trans><strong>Transcript</strong> lists the words spoken in the shown scenes: select words and press Delete to cut them (the cut becomes a removed part of its scene); select a cut and press Restore to bring it back.</Trans>
          </li>
        </ul>
        <h3>
          <Trans>Switches</Trans>
        </h3>
        <ul>
          <li>
            <Trans><strong>Hide removed scenes</strong> keeps removed cards out of the list.</Trans>
          </li>
          <li>
            <Trans><strong>Drag to reorder</strong>: drag a card to its new place (with a finger, drag its picture). Near the top or bottom of the screen the list scrolls.</Trans>
          </li>
          <li>
            <Trans><strong>Select</strong>: tick scenes to make a new clips project from them.</Trans>
          </li>
        </ul>
        <p>
          <Trans>Your edits are saved at once. Render the project to see them in the video.</Trans>
        </p>
      </div>
    </Dialog>
  );
}
