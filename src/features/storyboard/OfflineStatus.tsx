import { useLiveQuery } from "dexie-react-hooks";
import { msg } from "@lingui/core/macro";
import { Plural, Trans, useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { db, type EditKind, type FailedEditRow } from "../../db";
import { Button } from "../../ui/Button";
import { worker } from "../../worker";
import { failureMessage } from "../errors";

/** The element that says why structural actions are disabled; their controls point at it. */
export const OFFLINE_REASON_ID = "storyboard-offline-reason";

const NO_FAILURES: FailedEditRow[] = [];

/** A refused edit, named as the person made it (the scene number as it was then). */
const FAILED: Record<EditKind, (scene: number | string) => MessageDescriptor> = {
  trim: (scene) => msg`Trim of scene ${scene} was not saved:`,
  text: (scene) => msg`The text lines of scene ${scene} were not saved:`,
  removeText: (scene) => msg`Removing the text of scene ${scene} was not saved:`,
  hide: (scene) => msg`Removing scene ${scene} was not saved:`,
  show: (scene) => msg`Restoring scene ${scene} was not saved:`,
  type: (scene) => msg`The type change of scene ${scene} was not saved:`,
  volume: (scene) => msg`The volume of scene ${scene} was not saved:`,
  faces: (scene) => msg`The face selection of scene ${scene} was not saved:`,
  framing: (scene) => msg`The framing of scene ${scene} was not saved:`,
  overlay: (scene) => msg`The overlay options of scene ${scene} were not saved:`,
  removeOverlay: (scene) => msg`Removing the overlay of scene ${scene} was not saved:`,
  attributes: (scene) => msg`A change to scene ${scene} was not saved:`,
  translation: (scene) => msg`A translated subtitle line of scene ${scene} was not saved:`,
  // Issue 15: a song pick names no scene.
  music: () => msg`The song choice was not saved:`,
};

export interface OfflineStatusProps {
  projectId: number;
  online: boolean;
  /** Edits of this project still in the outbox. */
  waiting: number;
}

/**
 * ARCHITECTURE "Offline edits", on the storyboard: that the device is offline and what that means,
 * how many edits wait to be sent, and each queued edit the server refused, with why (dismissible).
 */
export function OfflineStatus({ projectId, online, waiting }: OfflineStatusProps) {
  const { t, i18n } = useLingui();
  const failed = useLiveQuery(() => db.failedEdits.where("projectId").equals(projectId).sortBy("at"), [projectId], NO_FAILURES);

  return (
    <>
      {/* Fixed over the page and let through to what is under it: appearing and going (a flaky network) moves nothing. */}
      {(!online || waiting > 0) && (
        <div className="sync-status" data-online={online || undefined} role="status" id={online ? undefined : OFFLINE_REASON_ID}>
          <p className="sync-status-line">
            <span className="sync-status-dot" aria-hidden="true" />
            {!online && (
              <strong>
                <Trans>You are offline.</Trans>
              </strong>
            )}
            {waiting > 0 && (
              <span className="sync-status-count">
                <Plural value={waiting} one="# edit waiting" other="# edits waiting" />
              </span>
            )}
            {online && (
              <span>
                <Trans>Sending…</Trans>
              </span>
            )}
          </p>
          {/* On a phone only the line above shows; the menus say "Needs a connection" where it matters. */}
          {!online && (
            <p className="sync-status-detail">
              <Trans>
                Scene changes are saved on this device and sent when you are back online. Splitting, merging, duplicating, moving and adding scenes, overlays and
                clips projects need a connection.
              </Trans>
            </p>
          )}
        </div>
      )}
      {failed.map((f) => (
        <div key={f.id} className="notice notice-danger storyboard-failed-edit" role="alert">
          <p>
            <strong>{i18n._(FAILED[f.kind](f.sceneOrder ?? "?"))}</strong>{" "}
            {f.kind !== "music" && f.failure.kind === "body" && f.failure.status === 404 ? <Trans>The scene no longer exists.</Trans> : failureMessage(i18n, f.failure)}{" "}
            {f.kind !== "music" && <Trans>The storyboard shows what the server has.</Trans>}
          </p>
          <Button variant="ghost" className="btn-small" onPress={() => void worker.dismissFailedEdit(f.id!)} aria-label={t`Dismiss this message`}>
            <Trans>Dismiss</Trans>
          </Button>
        </div>
      ))}
    </>
  );
}
