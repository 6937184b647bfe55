import { Toolbar } from "react-aria-components";
import { Trans, useLingui } from "@lingui/react/macro";
import { formatDuration } from "../../lib/format";
import { Button } from "../../ui/Button";

export interface SelectionToolbarProps {
  count: number;
  /** Total length of the selected scenes, in seconds. */
  length: number;
  onCreateClips: () => void;
  onClear: () => void;
  /** Offline, the clips project cannot be made (it needs the server). */
  online?: boolean;
}

/** SPEC §2 Selection toolbar: how many scenes are selected, their total length, and the clips-project button. */
export function SelectionToolbar({ count, length, onCreateClips, onClear, online = true }: SelectionToolbarProps) {
  const { t } = useLingui();
  const total = formatDuration(length);
  return (
    <Toolbar className="selection-toolbar" aria-label={t`Selected scenes`}>
      <p className="selection-summary" aria-live="polite">
        {count === 1 ? <Trans>1 scene selected</Trans> : <Trans>{count} scenes selected</Trans>}
        <span className="selection-length">
          <Trans>Length {total}</Trans>
        </span>
      </p>
      <div className="selection-actions">
        <Button variant="ghost" onPress={onClear} isDisabled={count === 0} aria-label={t`Clear selection`}>
          <Trans>Clear</Trans>
        </Button>
        <Button onPress={onCreateClips} isDisabled={!online} aria-describedby={online ? undefined : "selection-offline-note"}>
          <Trans>Create clips project</Trans>
        </Button>
        {!online && (
          <span id="selection-offline-note" className="field-description">
            <Trans>Needs a connection.</Trans>
          </span>
        )}
      </div>
    </Toolbar>
  );
}
