import { Plural, Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import { formatDate, formatDuration, formatPercent } from "../../lib/format";
import { displayedProgress } from "../../lib/progress";
import { projectState } from "../../lib/project-state";
import { progressPhase } from "../../lib/progress-phase";
import { Spinner } from "../../ui/Button";
import { ProgressBar } from "../../ui/ProgressBar";
import type { Locale } from "../../../api/language-codes";
import { OpenProjectLink } from "../edit/OpenProjectLink";
import { ProjectActions } from "./ProjectActions";
import { ProjectStatusBadge } from "./ProjectStatus";
import { ProjectThumbnail } from "./ProjectThumbnail";

/** One project of the list, by state: queued, not started, creating, ready, failed or deleted. */
export function ProjectCard({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const state = projectState(project);
  const progress = displayedProgress(project.working_progress, project.working_progress_raw);
  const ahead = project.queue_ahead;
  const heading = (
    <>
      <ProjectThumbnail src={project.thumbnailPath} />
      <h2 className="project-name">{project.name}</h2>
    </>
  );

  return (
    <li className="card project-card" data-state={state}>
      {state === "deleted" ? (
        <div className="project-card-open">{heading}</div>
      ) : (
        // Opening: Render Ready → share, no raw export → preview, otherwise edit.
        <OpenProjectLink project={project} className="project-card-open">
          {heading}
        </OpenProjectLink>
      )}
      <div className="project-card-meta">
        <ProjectStatusBadge project={project} />
        <span className="muted">{formatDate(project.created_at, i18n.locale as Locale)}</span>
        {project.duration_out_seconds > 0 && (
          <span className="muted">
            <Trans>Length: {formatDuration(project.duration_out_seconds)}</Trans>
          </span>
        )}
      </div>
      {state === "busy" && (
        <div className="project-card-progress">
          <Spinner />
          <ProgressBar label={progressPhase(project) === "rendering" ? t`Rendering ${project.name}` : t`Creating ${project.name}`} hideLabel value={progress} valueLabel={formatPercent(progress, i18n.locale)} />
        </div>
      )}
      {state === "queued" && (
        <p className="muted">
          {/* Issue 13: the position the server measured, when it has one. */}
          {ahead == null ? (
            <Trans>Starts when earlier projects finish.</Trans>
          ) : ahead === 0 ? (
            <Trans>Yours is next in the queue.</Trans>
          ) : (
            <Plural value={ahead} one="# project ahead of yours" other="# projects ahead of yours" />
          )}
        </p>
      )}
      {state === "failed" && (
        <p className="notice notice-danger">
          <Trans>Uploaded file may be corrupted or not be compatible</Trans>
        </p>
      )}
      {state === "deleted" && (
        <p className="notice notice-neutral">
          <Trans>This project was deleted.</Trans>
        </p>
      )}
      <div className="project-card-actions">
        <ProjectActions project={project} state={state} />
      </div>
    </li>
  );
}
