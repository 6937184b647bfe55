import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useContext, useEffect, useId, useState } from "react";
import type { Project } from "../../../api/projects";
import { PROGRESS_DONE } from "../../lib/constants";
import { formatPercent } from "../../lib/format";
import { Button } from "../../ui/Button";
import { Player } from "../../ui/Player";
import { ProgressBar } from "../../ui/ProgressBar";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { ReferencePlayerContext } from "./reference-player";

/** The raw preview can play once it is rendered and has a URL. */
export const hasRawPreview = (project: Pick<Project, "raw_preview_render" | "export_raw_url">) => project.raw_preview_render === 1 && !!project.export_raw_url;

/**
 * SPEC §2 Storyboard: the reference player of the project's raw preview, open by default on narrow
 * screens and a collapsible panel on wide ones. Without a raw preview it offers to render one; that button
 * waits until any raw render under way has finished (working_progress_raw 100).
 */
export function ReferencePlayer({ project, defaultOpen }: { project: Project; defaultOpen: boolean }) {
  const { t, i18n } = useLingui();
  const controller = useContext(ReferencePlayerContext);
  const [open, setOpen] = useState(defaultOpen);
  const [requested, setRequested] = useState(false);
  const [pending, setPending] = useState(false);
  const bodyId = useId();
  const ready = hasRawPreview(project);

  useEffect(() => controller?.setAvailable(ready), [controller, ready]);
  useEffect(() => {
    if (!controller) return;
    controller.onOpenRequest = () => setOpen(true);
    return () => {
      controller.onOpenRequest = null;
      controller.setAvailable(false);
    };
  }, [controller]);
  useEffect(() => setOpen(defaultOpen), [defaultOpen]);
  // A new raw preview arrived: the request is answered.
  useEffect(() => {
    if (ready) setRequested(false);
  }, [ready]);
  const attach = useCallback((video: HTMLVideoElement | null) => controller?.attach(video), [controller]);

  async function renderRaw() {
    setPending(true);
    const result = await worker.renderRaw(project.id);
    setPending(false);
    if (result.ok) setRequested(true);
    else toast({ variant: "danger", title: t`Could not start the raw preview`, description: failureMessage(i18n, result.failure) });
  }

  const rawProgress = project.working_progress_raw;
  const rendering = rawProgress < PROGRESS_DONE;

  return (
    <section className="reference-player" data-open={open || undefined} aria-label={t`Reference player`}>
      <div className="reference-player-head">
        <h2 className="reference-player-title">
          <Trans>Reference player</Trans>
        </h2>
        <Button variant="ghost" className="btn-small" aria-expanded={open} aria-controls={bodyId} onPress={() => setOpen((o) => !o)}>
          {open ? <Trans>Hide</Trans> : <Trans>Show</Trans>}
        </Button>
      </div>
      {open && (
        <div id={bodyId} className="reference-player-body">
          {ready ? (
            <Player src={project.export_raw_url!} label={t`Raw footage of ${project.name}`} poster={project.thumbnailPath ?? undefined} videoRef={attach} />
          ) : (
            <div className="reference-player-empty">
              <p className="muted">
                {requested ? (
                  <Trans>The raw preview is being made. It appears here when it is ready.</Trans>
                ) : (
                  <Trans>Make a raw preview of your footage to play scenes here.</Trans>
                )}
              </p>
              {rendering && <ProgressBar label={t`Raw preview`} value={rawProgress} valueLabel={formatPercent(rawProgress, i18n.locale)} />}
              <Button variant="secondary" onPress={() => void renderRaw()} isPending={pending} isDisabled={rendering || requested}>
                <Trans>Make the raw preview</Trans>
              </Button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
