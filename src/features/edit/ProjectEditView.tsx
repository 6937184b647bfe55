import { Trans } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useId, useMemo } from "react";
import type { Project } from "../../../api/projects";
import { ProjectStatusBadge } from "../projects/ProjectStatus";
import { ProjectNotLoaded, useProjectScreen } from "../projects/useProjectScreen";
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
import { TranslateTab } from "../translate/TranslateTab";
import { SongPlayer } from "../music/SongPlayer";
import { StoryboardTools } from "./StoryboardTools";
import { tabOfRoute, type EditRouteTab } from "./tabs";
import { PHONE_QUERY, useMediaQuery, useNarrow } from "./useMediaQuery";
import "./edit.css";

/**
 * The project edit screen (SPEC §2 Project edit): the name, the tabs Storyboard, Music, Options and
 * Preview & Export, each its own URL. Polls the project every 60 s; a deleted project goes to /open.
 */
export function ProjectEditView({ projectId, routeTab }: { projectId: number; routeTab: EditRouteTab }) {
  const navigate = useNavigate();
  const headingId = useId();
  const tab = tabOfRoute(routeTab);
  const { project, refresh } = useProjectScreen(projectId);
  const controller = useMemo(() => new ReferencePlayerController(), []);

  if (!project) return <ProjectNotLoaded project={project} refresh={refresh} />;


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
        {/* SPEC §2 Shell: a music player appears when a song is set (issue 15). */}
        <SongPlayer project={project} />
        <EditTabs tab={tab} onChange={(next) => void navigate({ to: `/projects/$id/${next}`, params: { id: projectId } })}>
          {tab === "storyboard" && <StoryboardTab project={project} />}
          {tab === "translate" && <TranslateTab project={project} />}
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
  // Issue 18: on a phone the player starts closed so the first screen shows a scene; playing one opens it.
  const phone = useMediaQuery(PHONE_QUERY);
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
        <ReferencePlayer project={project} defaultOpen={narrow && !phone} />
        <div className="storyboard-tab-main">
          <Storyboard projectId={project.id} />
        </div>
      </div>
    </div>
  );
}
