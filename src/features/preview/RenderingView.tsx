import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type { Project } from "../../../api/projects";
import { formatPercent } from "../../lib/format";
import { displayedProgress } from "../../lib/progress";
import { projectState } from "../../lib/project-state";
import { Spinner } from "../../ui/Button";
import { ProgressBar } from "../../ui/ProgressBar";

function BackToProjects() {
  return (
    <Link to="/open" className="btn btn-secondary">
      <Trans>Back to projects</Trans>
    </Link>
  );
}

/** Any status but ready: progress while the project is made, or why it stopped. */
export function RenderingView({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const state = projectState(project);
  if (state === "failed") {
    return (
      <div className="card rendering-card">
        <p className="notice notice-danger" role="alert">
          <Trans>Uploaded file may be corrupted or not be compatible</Trans>
        </p>
        <BackToProjects />
      </div>
    );
  }
  if (state === "not_started") {
    return (
      <div className="card rendering-card">
        <p>
          <Trans>This project was taken out of the queue. Restart it or delete it from the project list.</Trans>
        </p>
        <BackToProjects />
      </div>
    );
  }
  const progress = displayedProgress(project.working_progress, project.working_progress_raw);
  return (
    <div className="card rendering-card">
      <div className="rendering-head">
        <Spinner />
        <h2 className="section-title">{state === "queued" ? <Trans>Waiting in the queue</Trans> : <Trans>Creating your project</Trans>}</h2>
      </div>
      <ProgressBar label={t`Progress`} value={progress} valueLabel={formatPercent(progress, i18n.locale)} />
      <p className="muted">
        <Trans>This takes a few minutes. You can leave this page: the project carries on, and this page updates every minute.</Trans>
      </p>
    </div>
  );
}
