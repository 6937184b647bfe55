import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { useConfig, useCurrentUser } from "../../app/hooks";
import { usePolling } from "../../app/usePolling";
import { db } from "../../db";
import { Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { LatestProject } from "./LatestProject";
import { Tips } from "./Tips";

/** Home (SPEC §2): the latest project, refreshed every 60 s, or a welcome for a new user; then tips. */
export function HomeView() {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const latest = useLiveQuery(async () => (await db.projects.reverse().filter((p) => !p.deleted_at).first()) ?? null, [], undefined);
  const listedBefore = useLiveQuery(async () => !!(await db.meta.get("projects")), [], undefined);
  const [checked, setChecked] = useState(false);
  usePolling(() => worker.refreshProjects(1).finally(() => setChecked(true)));
  // The operator's tips feed (issue 17), in the interface language.
  useEffect(() => void worker.refreshHomeFeed(), [i18n.locale]);

  return (
    <div className="home">
      <h1 id="home-title">
        <Trans>Welcome to Cutroom, {user?.first_name}!</Trans>
      </h1>
      {latest ? (
        <>
          <LatestProject project={latest} />
          <NewVersionNotice />
        </>
      ) : latest === null && (listedBefore || checked) ? (
        <Welcome />
      ) : (
        <div className="card loading-card">
          <Spinner label={t`Loading your latest project…`} />
        </div>
      )}
      <Tips />
    </div>
  );
}

/** A new user: what Cutroom does and the way to the first project. */
function Welcome() {
  const config = useConfig();
  return (
    <div className="card welcome-card">
      <p>
        <Trans>
          Upload a video and Cutroom cuts the silences, adds subtitles and music, and builds a storyboard you can refine
          scene by scene.
        </Trans>
      </p>
      <div className="actions">
        <Link to="/new" className="btn btn-primary btn-large">
          <Trans>New project</Trans>
        </Link>
      </div>
      {config?.links.newAiApp && (
        <p className="muted new-version-notice">
          <Trans>New projects are created in our newer AI version.</Trans>
        </p>
      )}
      {config?.links.aiProduct && (
        <a className="btn btn-secondary" href={config.links.aiProduct} target="_blank" rel="noopener noreferrer">
          <Trans>Open the AI editor</Trans>
        </a>
      )}
    </div>
  );
}

/**
 * SPEC §1 home notice, for users who already have projects: new projects are made in the newer AI version, and the
 * projects here stay as they are. Hidden when the operator leaves NEW_AI_URL empty.
 */
function NewVersionNotice() {
  const { t } = useLingui();
  const config = useConfig();
  if (!config?.links.newAiApp) return null;
  return (
    <aside className="card new-version-notice" aria-label={t`Newer AI version`}>
      <p>
        <Trans>New projects are created in our newer AI version. Your projects here stay available to open, edit and export.</Trans>
      </p>
      {config.links.aiProduct && (
        <a className="btn btn-secondary" href={config.links.aiProduct} target="_blank" rel="noopener noreferrer">
          <Trans>Open the AI editor</Trans>
        </a>
      )}
    </aside>
  );
}
