import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useId, useMemo, useState } from "react";
import type { Project } from "../../../api/projects";
import { usePolling } from "../../app/usePolling";
import { db } from "../../db";
import { Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { ProjectStatusBadge } from "../projects/ProjectStatus";
import { Storyboard } from "../storyboard/Storyboard";
import { EditTabs } from "./EditTabs";
import { MusicTab } from "./MusicTab";
import { NeedsRenderAlert } from "./NeedsRenderAlert";
import { OptionsPanel } from "./OptionsPanel";
import { ProjectName } from "./ProjectName";
import { ProjectStateBanner } from "./ProjectStateBanner";
import { ReferencePlayer } from "./ReferencePlayer";
import { ReferencePlayerContext, ReferencePlayerController } from "./reference-player";
import { ShareTab } from "./ShareTab";
import { StoryboardTools } from "./StoryboardTools";
import { tabOfRoute, type EditRouteTab } from "./tabs";
import { useNarrow } from "./useMediaQuery";
import "./edit.css";

/**
 * How the last refresh went: a project is only "missing" once the server has said so (a fetched project
 * reaches the mirror a moment after the answer, so "done" with no row yet is still loading).
 */
type Refresh = "pending" | "done" | "missing" | "offline" | "failed";

/**
 * The project edit screen (SPEC §2 Project edit): the name, the tabs Storyboard, Music, Options and
 * Preview & Export, each its own URL. Polls the project every 60 s; a deleted project goes to /open.
 */
export function ProjectEditView({ projectId, routeTab }: { projectId: number; routeTab: EditRouteTab }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const headingId = useId();
  const tab = tabOfRoute(routeTab);
  const project = useLiveQuery(async () => (await db.projects.get(projectId)) ?? null, [projectId]);
  const [refresh, setRefresh] = useState<Refresh>("pending");
  const controller = useMemo(() => new ReferencePlayerController(), []);

  usePolling(async () => {
    const result = await worker.refreshProject(projectId);
    const notFound = !result.ok && result.failure.kind === "body" && result.failure.body.code === "not_found";
    setRefresh(result.ok ? "done" : notFound ? "missing" : result.failure.kind === "network" ? "offline" : "failed");
  }, projectId);

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
    <ReferencePlayerContext.Provider value={controller}>
      <section className="edit-screen" aria-labelledby={headingId}>
        <Link to="/open" className="text-link back-link">
          <Trans>← Projects</Trans>
        </Link>
        <div className="page-head edit-head">
          <ProjectName project={project} headingId={headingId} />
          <ProjectStatusBadge project={project} />
        </div>
        {/* The Preview & Export tab shows the progress itself. */}
        {tab !== "share" && <ProjectStateBanner project={project} />}
        <EditTabs tab={tab} onChange={(next) => void navigate({ to: `/projects/$id/${next}`, params: { id: projectId } })}>
          {tab === "storyboard" && <StoryboardTab project={project} />}
          {tab === "music" && <MusicTab project={project} />}
          {tab === "settings" && (
            <>
              <NeedsRenderAlert project={project} />
              <OptionsPanel project={project} />
            </>
          )}
          {tab === "share" && <ShareTab project={project} />}
        </EditTabs>
      </section>
    </ReferencePlayerContext.Provider>
  );
}

/** The Storyboard tab: its tools, the needs-render alert, the storyboard and the reference player. */
function StoryboardTab({ project }: { project: Project }) {
  const narrow = useNarrow();
  return (
    <div className="storyboard-tab">
      <div className="storyboard-tab-head">
        <h2 className="visually-hidden">
          <Trans>Storyboard</Trans>
        </h2>
        <StoryboardTools project={project} />
      </div>
      <NeedsRenderAlert project={project} />
      <div className="storyboard-tab-layout">
        <ReferencePlayer project={project} defaultOpen={narrow} />
        <div className="storyboard-tab-main">
          <Storyboard projectId={project.id} />
        </div>
      </div>
    </div>
  );
}
