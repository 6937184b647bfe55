import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import type { Scene } from "../../../api/scenes";
import { Button } from "../../ui/Button";
import { Player } from "../../ui/Player";

export interface ScenePreviewProps {
  scene: Scene;
  itemName: string;
  /** The item's raw preview; the scene is the stretch trim_start_raw…trim_end_raw of it. */
  previewUrl: string | null;
  onClose: () => void;
}

/**
 * SPEC §2 Media library: the preview starts at trim_start_raw and pauses at trim_end_raw. Playing
 * again from the end starts the scene over.
 */
export function ScenePreview({ scene, itemName, previewUrl, onClose }: ScenePreviewProps) {
  const { t } = useLingui();
  // A state, not a ref: the modal mounts its content a moment later, and the effect must run then.
  const [frame, setFrame] = useState<HTMLDivElement | null>(null);
  const start = scene.trim_start_raw;
  const end = scene.trim_end_raw;

  useEffect(() => {
    const video = frame?.querySelector("video");
    if (!video) return;
    const toStart = () => {
      video.currentTime = start;
    };
    const ready = () => {
      toStart();
      void video.play().catch(() => undefined);
    };
    const stopAtEnd = () => {
      if (video.currentTime >= end) {
        video.pause();
        video.currentTime = end;
      }
    };
    const replay = () => {
      if (video.currentTime >= end - 0.05 || video.currentTime < start) toStart();
    };
    if (video.readyState >= 1) ready();
    else video.addEventListener("loadedmetadata", ready, { once: true });
    video.addEventListener("timeupdate", stopAtEnd);
    video.addEventListener("play", replay);
    return () => {
      video.removeEventListener("loadedmetadata", ready);
      video.removeEventListener("timeupdate", stopAtEnd);
      video.removeEventListener("play", replay);
    };
  }, [frame, start, end, previewUrl]);

  const title = t`Scene ${scene.order} of ${itemName}`;
  return (
    <ModalOverlay className="modal-overlay" isOpen isDismissable onOpenChange={(open) => !open && onClose()}>
      <Modal className="modal library-preview-modal">
        <Dialog className="dialog">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          <div ref={setFrame}>
            {previewUrl ? (
              // The media fragment starts and stops the stretch even before the listeners above attach.
              <Player src={`${previewUrl}#t=${start},${end}`} label={title} poster={scene.thumbnail ?? undefined} />
            ) : (
              <p className="empty-state">
                <Trans>The preview of this file is not ready yet.</Trans>
              </p>
            )}
          </div>
          {scene.text.length > 0 && <p className="library-preview-text">{scene.text.map((line) => line.text).join(" ")}</p>}
          <div className="dialog-actions">
            <Button variant="secondary" onPress={onClose} autoFocus>
              <Trans>Close</Trans>
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
