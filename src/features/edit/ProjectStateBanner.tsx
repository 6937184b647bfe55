import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import type { Project } from "../../../api/projects";
import { projectState } from "../../lib/project-state";
import { Button, Spinner } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { codeMessage, failureMessage } from "../errors";
import { ProgressDetails, ProgressTitle, useLiveProgress } from "../progress/ProgressDetails";

/**
 * Why the storyboard cannot be edited right now: the project is being made or rendered (with its
 * progress), waiting in the queue, finished (Render Ready: reopen to edit, SPEC §4), or failed.
 */
export function ProjectStateBanner({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const [pending, setPending] = useState(false);
  const state = projectState(project);
  const live = useLiveProgress();

  async function reopen() {
    setPending(true);
    const result = await worker.reopenProject(project.id);
    setPending(false);
    if (!result.ok) toast({ variant: "danger", title: t`Could not reopen the project`, description: failureMessage(i18n, result.failure) });
  }

  if (state === "busy" || state === "queued") {
    return (
      <div className="card edit-banner">
        <div className="rendering-head">
          <Spinner />
          <p className="edit-banner-title">
            <ProgressTitle project={project} />
          </p>
        </div>
        <ProgressDetails project={project} />
        {/* Issue 13: the storyboard stays on screen, read-only, and says why (as Render Ready does). */}
        <p className="muted" role="status">
          {live ? (
            <Trans>The storyboard is read-only until this has finished. This page follows the progress as it moves.</Trans>
          ) : (
            <Trans>The storyboard is read-only until this has finished. This page updates every minute.</Trans>
          )}
        </p>
      </div>
    );
  }
  if (state === "render_ready") {
    return (
      <div className="notice notice-neutral edit-banner-inline" role="status">
        {/* The same words as the API's refusal of an edit (project_finished), said before the edit is tried. */}
        <p>{i18n._(codeMessage("project_finished"))}</p>
        <Button variant="secondary" className="btn-small" onPress={() => void reopen()} isPending={pending}>
          <Trans>Reopen to edit</Trans>
        </Button>
      </div>
    );
  }
  if (state === "failed") {
    return (
      <p className="notice notice-danger" role="alert">
        <Trans>Uploaded file may be corrupted or not be compatible</Trans>
      </p>
    );
  }
  if (state === "not_started") {
    return (
      <p className="notice notice-neutral">
        <Trans>This project was taken out of the queue. Restart it or delete it from the project list.</Trans>
      </p>
    );
  }
  return null;
}
