import { Trans } from "@lingui/react/macro";

/** How the trim and split markers move (issue 14): snapping and how to turn it off, and the keys. */
export function MarkerHelp() {
  return (
    <p className="field-description marker-help">
      <Trans>
        Drag a marker along the waveform to hear the sound there: it snaps to the edges of words and silences. Hold Alt or Shift while dragging to place it
        freely. Keyboard: the arrow keys move the focused marker by 0.01 s, Shift with an arrow key by 0.25 s, Page Up and Page Down by a tenth of the
        track.
      </Trans>
    </p>
  );
}
