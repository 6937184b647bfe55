import { createContext, useContext, useSyncExternalStore } from "react";

/**
 * The reference player's remote control (SPEC §2 Storyboard: a mobile reference player shows the raw
 * preview). The edit screen owns one controller; the `ReferencePlayer` panel attaches its <video> to it,
 * and the storyboard's "play" and "play from here" actions seek it through `useReferencePlayer()`.
 * Times are seconds of the project's raw preview (`export_raw_url`), e.g. a scene's trim_start_raw.
 */
export interface ReferencePlayerControl {
  /** True when a raw preview is attached and can play (raw_preview_render 1 and a URL). */
  available: boolean;
  /**
   * Plays the raw preview from `startRawSeconds`, pausing at `endRawSeconds` (null: plays on to the end,
   * e.g. "play the collection from here"). Opens the panel when it is collapsed. No-op when unavailable.
   */
  playRange(startRawSeconds: number, endRawSeconds: number | null): void;
  /** Pauses playback (no-op when unavailable). */
  pause(): void;
  /** Moves the raw preview to `rawSeconds` without playing it (a word of the transcript). Opens the panel when collapsed. */
  seek(rawSeconds: number): void;
}

type Listener = () => void;

/** One per edit screen: holds the attached <video> and a pending range until the panel opens. */
export class ReferencePlayerController {
  private video: HTMLVideoElement | null = null;
  private stopAt: number | null = null;
  private pending: { start: number; end: number | null; play?: boolean } | null = null;
  private listeners = new Set<Listener>();
  private snapshot: ReferencePlayerControl;
  /** Set by the panel: asked to open itself when a range is played while collapsed. */
  onOpenRequest: (() => void) | null = null;

  constructor() {
    this.snapshot = this.makeSnapshot();
  }

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  /** Whether the project has a raw preview to play (the panel says so, with or without a mounted video). */
  private hasSource = false;

  setAvailable(available: boolean) {
    if (available === this.hasSource) return;
    this.hasSource = available;
    this.emit();
  }

  /** The panel attaches its video when it mounts and detaches it (null) when it unmounts. */
  attach(video: HTMLVideoElement | null) {
    if (this.video === video) return;
    this.video?.removeEventListener("timeupdate", this.onTimeUpdate);
    this.video = video;
    this.stopAt = null;
    if (!video) return;
    video.addEventListener("timeupdate", this.onTimeUpdate);
    const pending = this.pending;
    this.pending = null;
    if (pending?.play === false) video.currentTime = Math.max(0, pending.start);
    else if (pending) this.start(video, pending.start, pending.end);
  }

  playRange = (startRawSeconds: number, endRawSeconds: number | null) => {
    if (!this.hasSource) return;
    if (this.video) return this.start(this.video, startRawSeconds, endRawSeconds);
    // Collapsed: remember the range and play it once the panel mounts its video.
    this.pending = { start: startRawSeconds, end: endRawSeconds };
    this.onOpenRequest?.();
  };

  seek = (rawSeconds: number) => {
    if (!this.hasSource) return;
    if (!this.video) {
      this.pending = { start: rawSeconds, end: null, play: false };
      this.onOpenRequest?.();
      return;
    }
    this.stopAt = null;
    this.video.currentTime = Math.max(0, rawSeconds);
    this.video.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  };

  pause = () => {
    this.pending = null;
    this.stopAt = null;
    this.video?.pause();
  };

  private start(video: HTMLVideoElement, start: number, end: number | null) {
    this.stopAt = end !== null && end > start ? end : null;
    video.currentTime = Math.max(0, start);
    video.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
    // Autoplay may be refused (no user gesture on some browsers): the user can press play themselves.
    void video.play()?.catch(() => undefined);
  }

  private onTimeUpdate = () => {
    const video = this.video;
    if (!video || this.stopAt === null) return;
    if (video.currentTime >= this.stopAt) {
      this.stopAt = null;
      video.pause();
    }
  };

  private emit() {
    this.snapshot = this.makeSnapshot();
    for (const listener of this.listeners) listener();
  }

  private makeSnapshot(): ReferencePlayerControl {
    return { available: this.hasSource, playRange: this.playRange, pause: this.pause, seek: this.seek };
  }
}

export const ReferencePlayerContext = createContext<ReferencePlayerController | null>(null);

/** Outside the edit screen (or in tests) there is nothing to play: an unavailable, do-nothing control. */
const NONE: ReferencePlayerControl = { available: false, playRange: () => undefined, pause: () => undefined, seek: () => undefined };
const noSubscribe = () => () => undefined;
const noSnapshot = () => NONE;

/** The storyboard's handle on the reference player (see `ReferencePlayerControl`). */
export function useReferencePlayer(): ReferencePlayerControl {
  const controller = useContext(ReferencePlayerContext);
  return useSyncExternalStore(
    controller?.subscribe ?? noSubscribe,
    controller?.getSnapshot ?? noSnapshot,
    controller?.getSnapshot ?? noSnapshot,
  );
}
