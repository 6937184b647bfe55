import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import type { Project } from "../../../api/projects";
import { isFinished, projectState } from "../../lib/project-state";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { BannerText } from "../../app/BannerText";
import { offerPushOnce } from "../../app/push";
import { failureMessage } from "../errors";

/** Busy or queued projects are already rendering: no second render is offered. */
export const isBusy = (project: Project) => ["busy", "queued"].includes(projectState(project));

/** No edit now: the project is busy, queued, finished (Render Ready, SPEC §4: read-only until reopened) or deleted. */
export const isLocked = (project: Project) => isBusy(project) || isFinished(project) || !!project.deleted_at;

/**
 * SPEC §2 Storyboard, §4 Needs-render: edits that are not in the preview yet, and Render now — the raw
 * render first when there is none, then a preview render (final false), then the Preview & Export tab.
 */
export function NeedsRenderAlert({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  // A finished project is not rendered again from here: it is reopened first (SPEC §4).
  if (project.needs_render !== 1 || isLocked(project)) return null;

  async function renderNow() {
    setPending(true);
    const result = await worker.renderNow(project.id);
    setPending(false);
    if (result.ok) {
      // The first render is the moment a "tell me when it is done" offer makes sense.
      void offerPushOnce();
      // The Preview & Export tab: the progress, then the preview, with the edit tabs kept (issue 13).
      void navigate({ to: "/projects/$id/share", params: { id: project.id } });
    } else toast({ variant: "danger", title: t`Could not start the render`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <div className="notice notice-warning needs-render" role="status">
      <p>
        <BannerText>
          <Trans>This project has changes that are not in the preview.</Trans>
        </BannerText>
      </p>
      <Button variant="primary" className="btn-small" onPress={() => void renderNow()} isPending={pending}>
        <Trans>Render now</Trans>
      </Button>
    </div>
  );
}
