import { fieldErrors, type FieldErrorCode } from "../../../api/errors";
import type { MediaLanguage } from "../../../api/language-codes";
import type { Privacy } from "../../../api/share";
import { CreateProjectBody } from "../../../api/projects";
import type { ProjectDraftRow } from "../../db";

export type ProjectStyle = "video" | "music" | "video_music";
export type AudioType = "speech" | "music" | "mixed";

/** The wizard's step 2 as the form holds it (SPEC §2 New-project wizard). */
export interface WizardSettings {
  name: string;
  title: string;
  locale: MediaLanguage | null;
  style: ProjectStyle | null;
  audioType: AudioType;
  autoCut: boolean;
  automaticMusic: boolean;
  subtitles: boolean;
  introSeconds: number;
  outroSeconds: number;
  introMusic: boolean;
  outroMusic: boolean;
  noiseCancelling: boolean;
  voiceBooster: boolean;
  /** SPEC §3: who may watch the share page (and the video-site export's first choice). */
  privacy: Privacy;
}

export const DEFAULT_WIZARD_SETTINGS: WizardSettings = {
  name: "",
  title: "",
  locale: null,
  // Issue 18: a style is chosen from the start (the footage with its own sound), so a newcomer is not stopped by it.
  style: "video",
  audioType: "speech",
  autoCut: true,
  automaticMusic: false,
  subtitles: false,
  introSeconds: 0,
  outroSeconds: 0,
  introMusic: true,
  outroMusic: true,
  noiseCancelling: false,
  voiceBooster: false,
  privacy: "private",
};

type DraftSettings = ProjectDraftRow["settings"];

/**
 * Choosing a style sets the music to match it (issue 18: "Video plus music" left the music off): music and
 * video plus music switch automatic music on, plain video switches it off. The switch stays the person's to change.
 */
export const withStyle = (form: WizardSettings, style: ProjectStyle): WizardSettings => ({ ...form, style, automaticMusic: style !== "video" });
const bit = (on: boolean) => (on ? 1 : 0) as 0 | 1;
const Schema = CreateProjectBody.omit({ media: true });

/**
 * The settings sent with the project, under SPEC §5's rules: without automatic music there is no intro or
 * outro music mode; the voice booster only works with noise cancelling.
 */
export function toProjectSettings(form: WizardSettings & { locale: MediaLanguage; style: ProjectStyle }): DraftSettings {
  const musicMode = (on: boolean) => (form.automaticMusic ? (on ? "music" : "silent") : "");
  return {
    name: form.name.trim(),
    title: form.title.trim() || null,
    locale: form.locale,
    style: form.style,
    audio_type: form.audioType,
    autocutsilences: bit(form.autoCut),
    autobgm: bit(form.automaticMusic),
    render_subtitle: bit(form.subtitles),
    intro_seconds: form.introSeconds,
    outro_seconds: form.outroSeconds,
    intro_mode: musicMode(form.introMusic),
    outro_mode: musicMode(form.outroMusic),
    audio_preprocessor: bit(form.noiseCancelling),
    voice_booster: bit(form.noiseCancelling && form.voiceBooster),
    privacy: form.privacy,
  };
}

/** Checks step 2: the settings to send, or a field → error code map (keys are the form's field names). */
export function validateSettings(form: WizardSettings): { ok: true; settings: DraftSettings } | { ok: false; fields: Record<string, FieldErrorCode> } {
  const fields: Record<string, FieldErrorCode> = {};
  if (!form.name.trim()) fields.name = "required";
  if (!form.locale) fields.locale = "required";
  if (!form.style) fields.style = "required";
  if (!form.locale || !form.style) return { ok: false, fields };
  const settings = toProjectSettings({ ...form, locale: form.locale, style: form.style });
  const parsed = Schema.safeParse(settings);
  if (!parsed.success) return { ok: false, fields: { ...fieldErrors(parsed.error.issues), ...fields } };
  if (fields.name) return { ok: false, fields };
  return { ok: true, settings };
}

/** The API field each form field is checked as, so an edit can clear its error. */
export const API_FIELDS: Partial<Record<keyof WizardSettings, string>> = {
  name: "name",
  title: "title",
  locale: "locale",
  style: "style",
  introSeconds: "intro_seconds",
  outroSeconds: "outro_seconds",
};

/** Errors left once the fields that changed between `before` and `after` are no longer flagged. */
export function errorsAfterEdit<E>(errors: Record<string, E>, before: WizardSettings, after: WizardSettings): Record<string, E> {
  const edited = (Object.keys(API_FIELDS) as (keyof WizardSettings)[]).filter((k) => before[k] !== after[k]).map((k) => API_FIELDS[k]);
  return edited.length === 0 ? errors : Object.fromEntries(Object.entries(errors).filter(([field]) => !edited.includes(field)));
}

/** True once the user has changed anything in step 2. */
export const settingsTouched = (form: WizardSettings) => (Object.keys(DEFAULT_WIZARD_SETTINGS) as (keyof WizardSettings)[]).some((k) => form[k] !== DEFAULT_WIZARD_SETTINGS[k]);
