import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type { Project } from "../../../api/projects";
import { projectState } from "../../lib/project-state";
import { Spinner } from "../../ui/Button";
import { ProgressDetails, ProgressTitle, useLiveProgress } from "../progress/ProgressDetails";

function BackToProjects() {
  return (
    <Link to="/open" className="btn btn-secondary">
      <Trans>Back to projects</Trans>
    </Link>
  );
}

/** Any status but ready: progress while the project waits, is made or renders (live, issue 13), or why it stopped. */
export function RenderingView({ project }: { project: Project }) {
  const state = projectState(project);
  const live = useLiveProgress();
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
  return (
    <div className="card rendering-card">
      <div className="rendering-head">
        <Spinner />
        <h2 className="section-title">
          <ProgressTitle project={project} />
        </h2>
      </div>
      <ProgressDetails project={project} />
      <p className="muted">
        {live ? (
          <Trans>You can leave this page: the project carries on, and this page follows it as it moves.</Trans>
        ) : (
          <Trans>This takes a few minutes. You can leave this page: the project carries on, and this page updates every minute.</Trans>
        )}
      </p>
    </div>
  );
}
