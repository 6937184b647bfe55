import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { BUSY_STATUSES, type Project } from "../../../api/projects";
import { formatDuration } from "../../lib/format";
import { Spinner } from "../../ui/Button";
import { ProjectStatusBadge } from "../projects/ProjectStatus";
import { ProjectThumbnail } from "../projects/ProjectThumbnail";
import { track } from "../../lib/analytics";

/** Home's latest project: thumbnail, name, status, output length and Open; a spinner while it is being made. */
export function LatestProject({ project }: { project: Project }) {
  const { t } = useLingui();
  const busy = BUSY_STATUSES.includes(project.status);
  return (
    <section className="card latest-project" aria-labelledby="latest-title">
      <h2 id="latest-title" className="section-title">
        <Trans>Your latest project</Trans>
      </h2>
      <div className="latest-project-body">
        <ProjectThumbnail src={project.thumbnailPath} />
        <div className="latest-project-info">
          <h3 className="project-name">{project.name}</h3>
          {!busy && <ProjectStatusBadge project={project} />}
          {busy ? (
            <p className="creating-note" role="status">
              <Spinner />
              <Trans>Creating project… This takes a few minutes; you can leave this page.</Trans>
            </p>
          ) : (
            <>
              <p className="muted">
                <Trans>Length: {formatDuration(project.duration_out_seconds)}</Trans>
              </p>
              <Link
                to="/projects/$id/preview"
                params={{ id: project.id }}
                className="btn btn-primary"
                aria-label={t`Open ${project.name}`}
                onClick={() => track("Project Opened")}
              >
                <Trans>Open</Trans>
              </Link>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
