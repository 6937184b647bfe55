import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Button } from "../../../ui/Button";

export interface RawPreviewProps {
  /** The project's raw preview (`export_raw_url`); null until it has been rendered. */
  src: string | null;
  /** What the picture shows, read out by screen readers. */
  label: string;
  /** The raw-preview second to show while not playing (a trim marker, a split point). */
  frameAt: number;
  /** When given, a Play button plays from the first to the second raw-preview second. */
  playRange?: readonly [number, number];
  /** What the Play button says to screen readers (default: "Play the preview"). */
  playLabel?: string;
  /** Scrubbing: lets a dialog play a short snippet of sound where a marker is dragged. */
  ref?: Ref<RawPreviewHandle>;
}

export interface RawPreviewHandle {
  /** Plays `SNIPPET_SECONDS` from a raw-preview second (a dragged marker), at most every `SNIPPET_EVERY_MS`. */
  snippet(at: number): void;
}

/** How much a dragged marker lets you hear, and how often while it moves. */
export const SNIPPET_SECONDS = 0.25;
const SNIPPET_EVERY_MS = 120;

/** A frame of the raw preview at a given second, and optionally a play button for a range of it. */
export function RawPreview({ src, label, frameAt, playRange, playLabel, ref }: RawPreviewProps) {
  const { t } = useLingui();
  const video = useRef<HTMLVideoElement>(null);
  const stopAt = useRef<number | null>(null);
  const lastSnippet = useRef(0);
  const [playing, setPlaying] = useState(false);

  useImperativeHandle(
    ref,
    () => ({
      snippet(at: number) {
        const element = video.current;
        const now = Date.now();
        if (!element || element.readyState < 1 || now - lastSnippet.current < SNIPPET_EVERY_MS) return;
        lastSnippet.current = now;
        stopAt.current = at + SNIPPET_SECONDS;
        element.currentTime = at;
        if (element.paused) void element.play().catch(() => setPlaying(false));
      },
    }),
    [],
  );

  // Follow the marker while it moves, but not while a range is playing.
  useEffect(() => {
    const element = video.current;
    if (!element || playing) return;
    const seek = () => {
      element.currentTime = frameAt;
    };
    if (element.readyState >= 1) seek();
    else element.addEventListener("loadedmetadata", seek, { once: true });
    return () => element.removeEventListener("loadedmetadata", seek);
  }, [frameAt, playing, src]);

  if (!src) {
    return (
      <p className="tool-preview-missing">
        <Trans>The preview is not ready yet, so no picture can be shown.</Trans>
      </p>
    );
  }

  function toggle() {
    const element = video.current;
    if (!element || !playRange) return;
    if (playing) {
      element.pause();
      return;
    }
    stopAt.current = playRange[1];
    element.currentTime = playRange[0];
    void element.play().catch(() => setPlaying(false));
  }

  return (
    <div className="tool-preview">
      <video
        ref={video}
        className="tool-preview-video"
        src={src}
        preload="metadata"
        playsInline
        aria-label={label}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(event) => {
          if (stopAt.current !== null && event.currentTarget.currentTime >= stopAt.current) {
            stopAt.current = null;
            event.currentTarget.pause();
          }
        }}
      />
      {playRange && (
        <Button variant="secondary" className="btn-small" onPress={toggle} aria-label={playing ? t`Stop the preview` : (playLabel ?? t`Play the preview`)}>
          {playing ? <Trans>Stop</Trans> : <Trans>Play</Trans>}
        </Button>
      )}
    </div>
  );
}
