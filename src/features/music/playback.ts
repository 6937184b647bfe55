/**
 * One song plays at a time (issue 15): the Music tab's demos and the shell's player are separate <audio>
 * elements, so the one that starts pauses the one that was playing.
 */
let playing: HTMLMediaElement | null = null;

export function playOnlyThis(media: HTMLMediaElement) {
  if (playing && playing !== media && !playing.paused) playing.pause();
  playing = media;
}
