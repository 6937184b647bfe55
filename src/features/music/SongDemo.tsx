import "./media-chrome";
import { useLingui } from "@lingui/react/macro";
import type { SongRow } from "../../db";
import { playOnlyThis } from "./playback";

/**
 * A song's demo in the picker: a play/pause button (media-chrome) over an <audio> that loads nothing until
 * played. The button says play or pause; the group and the title it points at say which song.
 */
export function SongDemo({ song, titleId }: { song: SongRow; titleId: string }) {
  const { t, i18n } = useLingui();
  return (
    <div className="song-demo" role="group" aria-label={t`Demo of ${song.title}`}>
      <media-controller audio lang={i18n.locale} className="song-demo-controller">
        <audio slot="media" src={song.public_demo} preload="none" onPlay={(e) => playOnlyThis(e.currentTarget)} aria-label={t`Demo of ${song.title}`} />
        <media-play-button className="song-demo-button" aria-describedby={titleId} />
      </media-controller>
    </div>
  );
}
