import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect } from "react";
import { db } from "../../db";
import { track } from "../../lib/analytics";
import { isReady } from "../../lib/project-state";
import { worker } from "../../worker";
import { ProjectStatusBadge } from "../projects/ProjectStatus";
import { ProjectNotLoaded, useProjectScreen } from "../projects/useProjectScreen";
import { ReadyView } from "./ReadyView";
import { RenderingView } from "./RenderingView";

/** Project preview (SPEC §2): polls the project and its highlights every 60 s; a deleted project goes to /open. */
export function PreviewView({ projectId }: { projectId: number }) {
  const { project, refresh } = useProjectScreen(projectId, async (result) => {
    if (result.ok && isReady(result.data)) await worker.refreshHighlights(projectId);
  });
  const highlights = useLiveQuery(async () => (await db.highlights.get(projectId)) ?? null, [projectId]);
  useEffect(() => track("Project Preview Opened"), [projectId]);

  if (!project) return <ProjectNotLoaded project={project} refresh={refresh} />;

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
