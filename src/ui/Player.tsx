import "media-chrome";
import "media-chrome/menu";
// media-chrome's own control labels, in the languages it ships (Italian falls back to English).
import "media-chrome/lang/de";
import "media-chrome/lang/es";
import "media-chrome/lang/fr";
import "media-chrome/lang/pt";
import { useLingui } from "@lingui/react/macro";
import type { Ref } from "react";

export interface PlayerProps {
  src: string;
  /** What is playing, read out by screen readers. */
  label: string;
  poster?: string;
  /** The <video>, for a view that seeks or plays it (the edit screen's reference player). */
  videoRef?: Ref<HTMLVideoElement>;
  /** Subtitle tracks (WebVTT), with a captions menu (off, or one of the tracks) when there are any. */
  tracks?: readonly { src: string; srclang: string; label: string; default?: boolean }[];
}

/** A video with media-chrome's controls: play, seek, time, mute, volume and fullscreen. */
export function Player({ src, label, poster, videoRef, tracks = [] }: PlayerProps) {
  const { i18n } = useLingui();
  return (
    <figure className="player-frame" role="region" aria-label={label}>
      <media-controller className="player" lang={i18n.locale}>
        <video ref={videoRef} slot="media" src={src} poster={poster} preload="metadata" playsInline aria-label={label}>
          {tracks.map((track) => (
            <track key={track.src} kind="subtitles" src={track.src} srcLang={track.srclang} label={track.label} default={track.default} />
          ))}
        </video>
        <media-loading-indicator slot="centered-chrome" noautohide />
        {tracks.length > 0 && <media-captions-menu hidden anchor="auto" />}
        <media-control-bar className="player-bar">
          <media-play-button />
          <media-time-range />
          {/* A plain read-out (a timer), not a button named "playback time" whose visible text is the time (WCAG 2.5.3). */}
          <media-time-display showduration notoggle role="timer" />
          <media-mute-button />
          <media-volume-range />
          {tracks.length > 0 && <media-captions-menu-button />}
          <media-fullscreen-button />
        </media-control-bar>
      </media-controller>
    </figure>
  );
}
