import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { isMediaLanguage, MEDIA_LANGUAGE_NAMES } from "../../lib/languages";
import type { Project } from "../../../api/projects";
import type { HighlightsRow } from "../../db";
import { Spinner } from "../../ui/Button";
import { Player } from "../../ui/Player";
import { EditProjectButton } from "../edit/EditProjectButton";
import { Highlights } from "./Highlights";
import { DownloadButton } from "./DownloadButton";
import { ShareButton } from "./ShareButton";
import { RemoveWatermarkOffer } from "./RemoveWatermarkOffer";
import { SubtitlesNotice } from "./SubtitlesNotice";
import { SubtitlesDownloadButton } from "./SubtitlesDownloadButton";
import { useReadyTranslations, useTrackUrls } from "./subtitle-tracks";
import { languageName } from "../translate/languages";

/**
 * SPEC §2: the preview shows its subtitles when render_subtitle is set and the render is not final (issue 14: the
 * track the render job wrote beside the render, and one track per ready translation, chosen in the player's
 * captions menu). The embedded language of Options (what the final render burns in) is shown from the start.
 */
export function previewTracks(
  project: Project,
  i18n: I18n,
  translations: readonly { locale: string; src: string }[] = [],
): { src: string; srclang: string; label: string; default: boolean }[] {
  if (!project.subtitles_track_url || !project.render_subtitle || project.final_render) return [];
  const locale = project.locale ?? "";
  const label = isMediaLanguage(locale) ? i18n._(MEDIA_LANGUAGE_NAMES[locale]) : i18n._(msg`Subtitles`);
  const chosen = translations.some((tr) => tr.locale === project.font.locale) ? project.font.locale : null;
  return [
    { src: project.subtitles_track_url, srclang: locale, label, default: chosen === null },
    ...translations.map((tr) => ({ src: tr.src, srclang: tr.locale, label: languageName(i18n, tr.locale), default: tr.locale === chosen })),
  ];
}

/** The preview's tracks: the render's own and the ready translations' (made on this device from the mirror). */
function usePreviewTracks(project: Project, i18n: I18n) {
  const shows = !!project.subtitles_track_url && !!project.render_subtitle && !project.final_render;
  const sets = useReadyTranslations(project, shows);
  const urls = useTrackUrls(shows ? sets : NO_SETS);
  return previewTracks(
    project,
    i18n,
    [...urls].map(([locale, src]) => ({ locale, src })),
  );
}
const NO_SETS: never[] = [];

/**
 * Preview Ready / Render Ready: the player, what the edit did, Edit project (not when Render Ready, nor
 * where the edit screen already shows it), Share (to the Preview & Export tab, not shown on it), and Remove
 * watermark for free users (this video for a one-time fee, or a plan).
 */
export function ReadyView({ project, highlights, showEdit = true }: { project: Project; highlights: HighlightsRow | null | undefined; showEdit?: boolean }) {
  const { t, i18n } = useLingui();
  const tracks = usePreviewTracks(project, i18n);
  return (
    <div className="preview-layout">
      <div className="preview-player">
        {project.export_url ? (
          <Player src={project.export_url} label={t`Preview of ${project.name}`} poster={project.thumbnailPath ?? undefined} tracks={tracks} />
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
          {/* Free users: remove the watermark from this video for a one-time fee, or see the plans (SPEC §2, §6). */}
          <RemoveWatermarkOffer project={project} />
        </div>
      </div>
      <aside className="card preview-side">
        <SubtitlesNotice project={project} />
        {highlights ? <Highlights highlights={highlights} /> : <Spinner label={t`Loading highlights…`} />}
      </aside>
    </div>
  );
}
