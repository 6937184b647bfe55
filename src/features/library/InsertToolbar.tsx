import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { OverlayType } from "../../../api/scenes";
import { Button } from "../../ui/Button";
import { Select } from "../../ui/Select";
import { canInsert, insertHint, pickedSceneCount, type InsertMode, type Selection } from "./selection";

/** SPEC §3 Overlay positions, in the interface wording. */
export const OVERLAY_LABELS: Record<OverlayType, MessageDescriptor> = {
  fullscrn: msg`Full screen`,
  autozoom: msg`Scale to fill`,
  pip_tl: msg`Picture in picture, top left`,
  pip_tr: msg`Picture in picture, top right`,
  pip_bl: msg`Picture in picture, bottom left`,
  pip_br: msg`Picture in picture, bottom right`,
};

/** Where the scenes go, as SPEC §2 words it. */
export function InsertHintText({ mode, overSceneOrder }: { mode: InsertMode; overSceneOrder?: number }) {
  const hint = insertHint(mode, overSceneOrder);
  const n = hint.kind === "start" ? 0 : hint.scene;
  switch (hint.kind) {
    case "over":
      return <Trans>Goes over scene {n}</Trans>;
    case "after":
      return <Trans>Goes after scene {n}</Trans>;
    case "start":
      return <Trans>Goes at the start</Trans>;
  }
}

export interface InsertToolbarProps {
  mode: InsertMode;
  selection: Selection;
  overSceneOrder?: number;
  overlayType: OverlayType;
  onOverlayType: (type: OverlayType) => void;
  onInsert: () => Promise<unknown>;
  onCancel: () => void;
}

/** The insert toolbar: selected count, where the scenes go, the overlay position, Insert and Cancel. */
export function InsertToolbar({ mode, selection, overSceneOrder, overlayType, onOverlayType, onInsert, onCancel }: InsertToolbarProps) {
  const { t, i18n } = useLingui();
  const [pending, setPending] = useState(false);
  const count = pickedSceneCount(selection);

  async function insert() {
    setPending(true);
    try {
      await onInsert();
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="library-toolbar" role="region" aria-label={t`Selection`}>
      <div className="library-toolbar-info">
        <strong aria-live="polite">
          <Plural value={count} _0="No scenes selected" one="# scene selected" other="# scenes selected" />
        </strong>
        <span className="muted">
          <InsertHintText mode={mode} overSceneOrder={overSceneOrder} />
        </span>
      </div>
      {mode.kind === "overlay" && (
        <div className="library-toolbar-position compact-select">
          <Select<OverlayType>
            label={t`Overlay position`}
            value={overlayType}
            onChange={onOverlayType}
            options={OverlayType.options.map((id) => ({ id, label: i18n._(OVERLAY_LABELS[id]) }))}
          />
        </div>
      )}
      <div className="library-toolbar-actions">
        <Button variant="ghost" onPress={onCancel} isDisabled={pending}>
          <Trans>Cancel</Trans>
        </Button>
        <Button onPress={() => void insert()} isDisabled={!canInsert(selection, mode)} isPending={pending}>
          <Trans>Insert</Trans>
        </Button>
      </div>
    </div>
  );
}
