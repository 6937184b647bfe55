import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import type { Project } from "../../../api/projects";
import { usePolling } from "../../app/usePolling";
import { db } from "../../db";
import { Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import type { Result } from "../../../workers/status";

/**
 * How the last refresh went: a project is only "missing" once the server has said so (a fetched project
 * reaches the mirror a moment after the answer, so "done" with no row yet is still loading).
 */
export type ProjectRefresh = "pending" | "done" | "missing" | "offline" | "failed";

/**
 * A project screen's data (preview, edit screen): the mirrored project, refreshed every 60 s, with
 * `afterRefresh` for what the screen loads beside it. A deleted or unknown project leaves for /open.
 */
export function useProjectScreen(projectId: number, afterRefresh?: (result: Result<Project>) => Promise<unknown>) {
  const navigate = useNavigate();
  const project = useLiveQuery(async () => (await db.projects.get(projectId)) ?? null, [projectId]);
  const [refresh, setRefresh] = useState<ProjectRefresh>("pending");

  usePolling(async () => {
    const result = await worker.refreshProject(projectId);
    if (afterRefresh) await afterRefresh(result);
    const notFound = !result.ok && result.failure.kind === "body" && result.failure.body.code === "not_found";
    setRefresh(result.ok ? "done" : notFound ? "missing" : result.failure.kind === "network" ? "offline" : "failed");
  }, projectId);

  const gone = !!project?.deleted_at || refresh === "missing";
  useEffect(() => {
    if (gone) void navigate({ to: "/open", replace: true });
  }, [gone, navigate]);

  return { project, refresh };
}

/** What a project screen shows before its project is in the mirror: loading, offline, or a failure. */
export function ProjectNotLoaded({ project, refresh }: { project: Project | null | undefined; refresh: ProjectRefresh }) {
  const { t } = useLingui();
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
