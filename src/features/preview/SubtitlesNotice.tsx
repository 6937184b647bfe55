import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import { BannerText } from "../../app/BannerText";
import { isMediaLanguage, MEDIA_LANGUAGE_NAMES } from "../../lib/languages";

/**
 * Issue 14: why a project has no subtitles (never a silent 0 lines), or that its lines are draft captions from
 * the server's basic speech recognition. Shown on the storyboard and the preview.
 */
export function SubtitlesNotice({ project }: { project: Pick<Project, "subtitles_unavailable" | "subtitles_draft" | "subtitles_pending"> }) {
  const { i18n } = useLingui();
  // Preview Ready comes first; the words follow (server/jobs/steps): say the lines are on their way.
  if (project.subtitles_pending === 1) {
    return (
      <p className="notice notice-neutral subtitles-notice" role="status">
        <BannerText>
          <Trans>Speech recognition is still making the subtitle lines of this talk. They show here when they are ready.</Trans>
        </BannerText>
      </p>
    );
  }
  const missing = project.subtitles_unavailable;
  if (missing) {
    const language = isMediaLanguage(missing.language) ? i18n._(MEDIA_LANGUAGE_NAMES[missing.language]) : missing.language;
    return (
      <p className="notice notice-neutral subtitles-notice" role="note">
        <BannerText>
        {missing.reason === "no_engine_for_language" ? (
          <Trans>Subtitles are not available for {language} on this server: it has no speech recognition for this language. The server's operator can add a speech recognition service.</Trans>
        ) : missing.reason === "engine_not_installed" ? (
          <Trans>Subtitles are not available for {language} on this server: its speech recognition is not installed. The server's operator can install it.</Trans>
        ) : missing.reason === "speech_off" ? (
          <Trans>Subtitles are not made on this server: its operator turned speech recognition off.</Trans>
        ) : (
          <Trans>Subtitles could not be made for {language}: speech recognition failed on the server.</Trans>
        )}
        </BannerText>
      </p>
    );
  }
  if (project.subtitles_draft) {
    return (
      <p className="notice notice-neutral subtitles-notice" role="note">
        <BannerText>
          <strong>
            <Trans>Draft captions</Trans>
          </strong>{" "}
          <Trans>The subtitles come from the server's basic speech recognition, so some words are wrong. Correct them in each scene's text lines.</Trans>
        </BannerText>
      </p>
    );
  }
  return null;
}
