import "./media-chrome";
import { useEffect } from "react";
import { useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import { worker } from "../../worker";
import { playOnlyThis } from "./playback";
import { useSong, useSongId } from "./useSongs";
import "./music.css";

/**
 * SPEC §2 Shell: "A music player appears when a song is set." The project's song, with play/pause and a seek
 * bar (media-chrome); nothing when the project has no song.
 */
export function SongPlayer({ project }: { project: Pick<Project, "id" | "bgm_id"> }) {
  const { t, i18n } = useLingui();
  const songId = useSongId(project);
  const song = useSong(songId);

  // A song this device has not listed yet (picked elsewhere): the list is fetched once more.
  useEffect(() => {
    if (song === null && songId !== null) void worker.refreshSongs();
  }, [song, songId]);

  if (!song) return null;
  return (
    <section className="song-player" aria-label={t`Music player: ${song.title}`}>
      <p className="song-player-title">
        <span className="song-player-name">{song.title}</span>
        <span className="song-player-author">{song.author}</span>
      </p>
      <media-controller audio lang={i18n.locale} className="song-player-controller">
        <audio slot="media" src={song.public_demo} preload="metadata" onPlay={(e) => playOnlyThis(e.currentTarget)} aria-label={t`${song.title} by ${song.author}`} />
        <media-control-bar className="song-player-bar">
          <media-play-button />
          <media-time-range />
          <media-time-display showduration notoggle role="timer" />
        </media-control-bar>
      </media-controller>
    </section>
  );
}
