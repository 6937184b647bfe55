import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { usePolling } from "../../app/usePolling";
import { db } from "../../db";
import { track } from "../../lib/analytics";
import { isReady } from "../../lib/project-state";
import { Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { ProjectStatusBadge } from "../projects/ProjectStatus";
import { ReadyView } from "./ReadyView";
import { RenderingView } from "./RenderingView";

/**
 * How the last refresh went: a project is only "missing" once the server has said so (a fetched project
 * reaches the mirror a moment after the answer, so "done" with no row yet is still loading).
 */
type Refresh = "pending" | "done" | "missing" | "offline" | "failed";

/** Project preview (SPEC §2): polls the project and its highlights every 60 s; a deleted project goes to /open. */
export function PreviewView({ projectId }: { projectId: number }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const project = useLiveQuery(async () => (await db.projects.get(projectId)) ?? null, [projectId]);
  const highlights = useLiveQuery(async () => (await db.highlights.get(projectId)) ?? null, [projectId]);
  const [refresh, setRefresh] = useState<Refresh>("pending");

  usePolling(async () => {
    const result = await worker.refreshProject(projectId);
    if (result.ok && isReady(result.data)) await worker.refreshHighlights(projectId);
    const notFound = !result.ok && result.failure.kind === "body" && result.failure.body.code === "not_found";
    setRefresh(result.ok ? "done" : notFound ? "missing" : result.failure.kind === "network" ? "offline" : "failed");
  }, projectId);

  useEffect(() => track("Project Preview Opened", { project: projectId }), [projectId]);
  const gone = !!project?.deleted_at || refresh === "missing";
  useEffect(() => {
    if (gone) void navigate({ to: "/open", replace: true });
  }, [gone, navigate]);

  if (!project) {
    if (project === null && refresh === "offline") {
      return (
        <p className="empty-state">
          <Trans>This project is not on this device yet. Connect to the internet to open it.</Trans>
        </p>
      );
    }
    if (project === null && refresh === "failed") {
      return (
        <div className="empty-state">
          <p>
            <Trans>We could not load this project. Try again in a moment.</Trans>
          </p>
          <Link to="/open" className="btn btn-secondary">
            <Trans>Back to projects</Trans>
          </Link>
        </div>
      );
    }
    return (
      <div className="loading-card">
        <Spinner label={t`Loading project…`} />
      </div>
    );
  }

  return (
    <section className="preview" aria-labelledby="preview-title">
      <Link to="/open" className="text-link back-link">
        <Trans>← Projects</Trans>
      </Link>
      <div className="page-head">
        <h1 id="preview-title">{project.name}</h1>
        <ProjectStatusBadge project={project} />
      </div>
      {isReady(project) ? <ReadyView project={project} highlights={highlights} /> : <RenderingView project={project} />}
    </section>
  );
}
