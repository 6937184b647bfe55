import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import { useConfig, useCurrentUser } from "../../app/hooks";
import type { HighlightsRow } from "../../db";
import { Spinner } from "../../ui/Button";
import { Player } from "../../ui/Player";
import { Highlights } from "./Highlights";
import { ShareButton } from "./ShareButton";

/**
 * Preview Ready / Render Ready: the player, what the edit did, Share, and Remove watermark for free users.
 * The Edit project button arrives with the storyboard screen.
 */
export function ReadyView({ project, highlights }: { project: Project; highlights: HighlightsRow | null | undefined }) {
  const { t } = useLingui();
  const user = useCurrentUser();
  const config = useConfig();
  return (
    <div className="preview-layout">
      <div className="preview-player">
        {project.export_url ? (
          <Player src={project.export_url} label={t`Preview of ${project.name}`} poster={project.thumbnailPath ?? undefined} />
        ) : (
          <p className="empty-state">
            <Trans>The preview video is not available yet.</Trans>
          </p>
        )}
        <div className="preview-actions">
          <ShareButton />
          {user && user.video_tier < 1 && config && (
            <a className="btn btn-primary" href={config.links.pricing} target="_blank" rel="noopener noreferrer">
              <Trans>Remove watermark</Trans>
            </a>
          )}
        </div>
      </div>
      <aside className="card preview-side">
        {highlights ? <Highlights highlights={highlights} /> : <Spinner label={t`Loading highlights…`} />}
      </aside>
    </div>
  );
}
