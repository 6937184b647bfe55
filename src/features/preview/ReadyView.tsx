import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { isMediaLanguage, MEDIA_LANGUAGE_NAMES } from "../../lib/languages";
import type { Project } from "../../../api/projects";
import { useConfig, useCurrentUser } from "../../app/hooks";
import type { HighlightsRow } from "../../db";
import { Spinner } from "../../ui/Button";
import { Player } from "../../ui/Player";
import { EditProjectButton } from "../edit/EditProjectButton";
import { Highlights } from "./Highlights";
import { DownloadButton } from "./DownloadButton";
import { ShareButton } from "./ShareButton";
import { SubtitlesNotice } from "./SubtitlesNotice";
import { SubtitlesDownloadButton } from "./SubtitlesDownloadButton";

/**
 * SPEC §2: the preview shows its subtitles when render_subtitle is set and the render is not final (issue 14: the
 * track the render job wrote beside the render, shown from the start).
 */
export function previewTracks(project: Project, i18n: I18n): { src: string; srclang: string; label: string; default: boolean }[] {
  if (!project.subtitles_track_url || !project.render_subtitle || project.final_render) return [];
  const locale = project.locale ?? "";
  const label = isMediaLanguage(locale) ? i18n._(MEDIA_LANGUAGE_NAMES[locale]) : i18n._(msg`Subtitles`);
  return [{ src: project.subtitles_track_url, srclang: locale, label, default: true }];
}

/**
 * Preview Ready / Render Ready: the player, what the edit did, Edit project (not when Render Ready, nor
 * where the edit screen already shows it), Share (to the Preview & Export tab, not shown on it), and Remove
 * watermark for free users.
 */
export function ReadyView({ project, highlights, showEdit = true }: { project: Project; highlights: HighlightsRow | null | undefined; showEdit?: boolean }) {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const config = useConfig();
  return (
    <div className="preview-layout">
      <div className="preview-player">
        {project.export_url ? (
          <Player src={project.export_url} label={t`Preview of ${project.name}`} poster={project.thumbnailPath ?? undefined} tracks={previewTracks(project, i18n)} />
        ) : (
          <p className="empty-state">
            <Trans>The preview video is not available yet.</Trans>
          </p>
        )}
        <div className="preview-actions">
          {showEdit && project.status !== "Render Ready" && <EditProjectButton projectId={project.id} />}
          <DownloadButton project={project} />
          <SubtitlesDownloadButton project={project} linesCount={highlights?.subtitlesLinesCount} />
          {/* On the Preview & Export tab itself the share panel is below. */}
          {showEdit && <ShareButton projectId={project.id} />}
          {user && user.video_tier < 1 && config && (
            <a className="btn btn-primary" href={config.links.pricing} target="_blank" rel="noopener noreferrer">
              <Trans>Remove watermark</Trans>
            </a>
          )}
        </div>
      </div>
      <aside className="card preview-side">
        <SubtitlesNotice project={project} />
        {highlights ? <Highlights highlights={highlights} /> : <Spinner label={t`Loading highlights…`} />}
      </aside>
    </div>
  );
}
