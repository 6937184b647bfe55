import type { ProjectSettings } from "../../api/projects";

/** A new project's settings before the wizard's choices are applied. */
export const DEFAULT_SETTINGS: ProjectSettings = {
  autobgm: 0,
  bgm_id: null,
  autoduck: 1,
  audio_preprocessor: 0,
  video_preprocessor: 0,
  voice_booster: 0,
  autopunchin: 0,
  autocrop: 0,
  mute_videos: 0,
  render_subtitle: 0,
  export_subtitle: 0,
  smoothcuts: 1,
  autocutsilences: 1,
  removefillers: 0,
  render_notifications: 1,
  musicType: "bgmstandard",
  mediaAudio: "standard",
  intro_mode: "",
  outro_mode: "",
  intro_seconds: 0,
  outro_seconds: 0,
  style: "video",
  audio_type: "speech",
  font: { color: "#ffffff", border_color: "#000000", shadow_color: "#000000", dropshadow: 1, locale: null },
  aspect: "",
};

/** SPEC §5 Settings: with automatic music off there is no intro or outro music mode. */
export function applySettingsRules(settings: ProjectSettings): ProjectSettings {
  return settings.autobgm ? settings : { ...settings, intro_mode: "", outro_mode: "" };
}

/** SPEC §4 progress: the mean of both while the raw preview is under 100, then the working progress (at least 1). */
export function displayedProgress(workingProgress: number, rawProgress: number): number {
  const value = rawProgress < 100 ? (workingProgress + rawProgress) / 2 : workingProgress;
  return Math.max(1, Math.min(100, value));
}
