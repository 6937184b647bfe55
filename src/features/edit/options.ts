import type { Project, ProjectSettings } from "../../../api/projects";
import type { ProjectPatch } from "../../../workers/projects";

/** The settings the Options panel reads (SPEC §3 Project settings). */
export type OptionsValues = Pick<
  ProjectSettings,
  | "autobgm"
  | "autoduck"
  | "audio_preprocessor"
  | "voice_booster"
  | "autopunchin"
  | "autocrop"
  | "aspect"
  | "mute_videos"
  | "render_subtitle"
  | "export_subtitle"
  | "smoothcuts"
  | "autocutsilences"
  | "render_notifications"
  | "musicType"
  | "mediaAudio"
  | "intro_mode"
  | "outro_mode"
  | "font"
>;

/** Which dependent options show (SPEC §5 Settings). */
export interface OptionsVisibility {
  /** Only with the audio enhancer on and the footage not muted. */
  voiceBooster: boolean;
  /** Smooth cuts and auto-cut silences: only with export_subtitle on. */
  cutOptions: boolean;
  /** Font colour, border colour, drop shadow and embedded language: only with render_subtitle on. */
  subtitleStyle: boolean;
  /** The shadow colour means something only with the drop shadow on. */
  shadowColour: boolean;
  /** Intro and outro music: only with automatic music on. */
  introOutroMusic: boolean;
  /** Auto crop only means something once a size is chosen. */
  autocrop: boolean;
  /** The footage level has no effect on muted footage. */
  footageLevel: boolean;
}

export function optionsVisibility(s: OptionsValues): OptionsVisibility {
  return {
    voiceBooster: !!s.audio_preprocessor && !s.mute_videos,
    // The cut options change the storyboard and the render on their own (issue 17 audit): always offered.
    cutOptions: true,
    subtitleStyle: !!s.render_subtitle,
    shadowColour: !!s.render_subtitle && s.font.dropshadow === 1,
    introOutroMusic: !!s.autobgm,
    autocrop: s.aspect !== "",
    footageLevel: !s.mute_videos,
  };
}

/**
 * What to send when one option changes, with the options that follow from it: automatic music off clears
 * the intro and outro modes (SPEC §5; the server clears them too), on starts them with music as the wizard
 * does; the audio enhancer off turns the voice booster off.
 */
export function optionPatch<K extends keyof OptionsValues>(current: Pick<Project, "intro_mode" | "outro_mode">, key: K, value: OptionsValues[K]): ProjectPatch {
  const patch: ProjectPatch = { [key]: value };
  if (key === "autobgm") {
    const mode = (m: Project["intro_mode"]) => (value ? (m === "" ? "music" : m) : "");
    patch.intro_mode = mode(current.intro_mode);
    patch.outro_mode = mode(current.outro_mode);
  }
  if (key === "audio_preprocessor" && !value) patch.voice_booster = 0;
  return patch;
}

/** SPEC §3 Subtitles: a palette of 10 swatches for the subtitle text, its border and its shadow. */
export const SUBTITLE_PALETTE = ["#ffffff", "#000000", "#ffd400", "#ff8a00", "#e53935", "#ec407a", "#8e24aa", "#1e88e5", "#00acc1", "#43a047"] as const;

/** Background music levels in the interface's words (SPEC §9): low, medium, high, full, plus mute. */
export const MUSIC_LEVELS = ["bgmmute", "bgmlow", "bgmstandard", "bgmloud", "mainmusic"] as const;
/** Footage levels (SPEC §9): mute, low, standard, loud, extra loud. */
export const FOOTAGE_LEVELS = ["mute", "low", "standard", "loud", "extraloud"] as const;
