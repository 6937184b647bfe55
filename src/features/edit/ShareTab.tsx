import { useLiveQuery } from "dexie-react-hooks";
import type { Project } from "../../../api/projects";
import { usePolling } from "../../app/usePolling";
import { db } from "../../db";
import { POLL_MS } from "../../lib/constants";
import { isReady } from "../../lib/project-state";
import { worker } from "../../worker";
import { ExportForm } from "../preview/ExportForm";
import { VideoSiteExport } from "../preview/VideoSiteExport";
import { ReadyView } from "../preview/ReadyView";
import { RenderingView } from "../preview/RenderingView";
import { TimelineDownloads } from "../preview/TimelineDownloads";
import { SharePanel } from "../share/SharePanel";
import { NeedsRenderAlert } from "./NeedsRenderAlert";
import { ProjectStateBanner } from "./ProjectStateBanner";

/**
 * The Preview & Export tab: the latest render with what the edit did, or the progress while it is made
 * (the edit screen re-fetches the project every 60 s); a finished project offers its download there. The
 * export form (resolution by the plan's tiers, aspect) starts a final render, or exports again when Render
 * Ready (with crop, video name, description and privacy); a finished project's share page (privacy, link, revoke);
 * "Edit elsewhere" downloads the edit as a timeline for a desktop editor.
 */
export function ShareTab({ project }: { project: Project }) {
  const ready = isReady(project);
  const highlights = useLiveQuery(async () => (await db.highlights.get(project.id)) ?? null, [project.id]);
  usePolling(() => worker.refreshHighlights(project.id), project.id, POLL_MS, ready);
  return (
    <div className="share-tab">
      <NeedsRenderAlert project={project} />
      {/* SPEC §2 finished view: reopen is offered here too, with the state banner of the other tabs. */}
      {project.status === "Render Ready" && <ProjectStateBanner project={project} />}
      {ready ? (
        <>
          <ReadyView project={project} highlights={highlights} showEdit={false} />
          <SharePanel project={project} />
          <ExportForm project={project} />
          <VideoSiteExport project={project} />
          <TimelineDownloads project={project} />
        </>
      ) : (
        <RenderingView project={project} />
      )}
    </div>
  );
}
