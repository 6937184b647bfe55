import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useSearch } from "@tanstack/react-router";
import { useLiveQuery } from "dexie-react-hooks";
import { useState } from "react";
import { useCurrentUser } from "../../app/hooks";
import { usePolling } from "../../app/usePolling";
import { db } from "../../db";
import { PAGINATION_MIN_ITEMS, PROJECTS_PAGE_SIZE } from "../../lib/constants";
import { Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { Pagination } from "./Pagination";
import { ProjectCard } from "./ProjectCard";
import { StorageMeter } from "./StorageMeter";

/** The project list (/open): storage, one card per project, pages of 20, refreshed every 60 s. */
export function ProjectListView() {
  const { t } = useLingui();
  const { page = 1 } = useSearch({ from: "/_app/open" });
  const user = useCurrentUser();
  const [checked, setChecked] = useState(false);
  usePolling(() => worker.refreshProjects(page).finally(() => setChecked(true)), page);

  const listing = useLiveQuery(async () => {
    const row = await db.meta.get("projects");
    return row?.key === "projects" ? row.value : null;
  }, []);
  // Newest first, as the server pages them.
  const projects = useLiveQuery(
    () => db.projects.reverse().offset((page - 1) * PROJECTS_PAGE_SIZE).limit(PROJECTS_PAGE_SIZE).toArray(),
    [page],
  );
  const loading = projects === undefined || (projects.length === 0 && !listing && !checked);

  return (
    <section className="project-list" aria-labelledby="projects-title">
      <div className="page-head">
        <h1 id="projects-title">
          <Trans>Projects</Trans>
        </h1>
        <Link to="/new" className="btn btn-primary">
          <Trans>New project</Trans>
        </Link>
      </div>
      {user && <StorageMeter user={user} />}
      {loading ? (
        <div className="loading-card">
          <Spinner label={t`Loading projects…`} />
        </div>
      ) : projects.length === 0 ? (
        <p className="empty-state">
          <Trans>No projects</Trans>
        </p>
      ) : (
        <ul className="project-grid" aria-label={t`Projects`}>
          {projects.map((project) => (
            <ProjectCard key={project.id} project={project} />
          ))}
        </ul>
      )}
      {listing && listing.total > PAGINATION_MIN_ITEMS && (
        <Pagination
          page={page}
          lastPage={Math.max(listing.lastPage, page)}
          nextDisabled={(projects?.length ?? 0) < PROJECTS_PAGE_SIZE || page >= listing.lastPage}
        />
      )}
    </section>
  );
}
