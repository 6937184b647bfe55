import { Trans, useLingui } from "@lingui/react/macro";
import type { Project, ProjectSettings } from "../../../api/projects";
import { useCurrentUser } from "../../app/hooks";
import { isFinished } from "../../lib/project-state";
import { Select } from "../../ui/Select";
import { Switch } from "../../ui/Switch";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import type { ProjectPatch } from "../../../workers/projects";
import { failureMessage } from "../errors";
import { FOOTAGE_LEVEL_LABELS, MUSIC_LEVEL_LABELS } from "./messages";
import { FOOTAGE_LEVELS, MUSIC_LEVELS, optionPatch, optionsVisibility, type OptionsValues } from "./options";
import { SwatchPicker } from "./SwatchPicker";
import { useReadyTranslations } from "../preview/subtitle-tracks";
import { isSubtitleLanguage, languageName } from "../translate/languages";

/** Sends a settings change; SPEC §8: the 'settings updated' toast (2.5 s), or why it failed. */
export function useSaveSettings(projectId: number) {
  const { t, i18n } = useLingui();
  return async (patch: ProjectPatch) => {
    const result = await worker.updateProjectSettings(projectId, patch);
    if (result.ok) toast({ variant: "success", title: t`Settings updated` });
    else toast({ variant: "danger", title: t`Could not update the settings`, description: failureMessage(i18n, result.failure) });
    return result.ok;
  };
}

const bit = (on: boolean) => (on ? 1 : 0) as 0 | 1;

/**
 * SPEC §3 Subtitles, embedded language: the lines the final render burns in — the original (spoken) ones or a
 * ready translation (issue 14). A chosen translation no longer ready stays listed; the render then uses the original.
 */
function EmbeddedLanguage({ project, isDisabled, onChange }: { project: Project; isDisabled: boolean; onChange: (locale: ProjectSettings["font"]["locale"]) => void }) {
  const { t, i18n } = useLingui();
  const translations = useReadyTranslations(project, true);
  const spoken = project.locale ? languageName(i18n, project.locale) : t`Spoken language`;
  const locales = new Set(translations.map((s) => s.locale));
  if (project.font.locale) locales.add(project.font.locale);
  const options = [
    { id: ORIGINAL, label: t`${spoken} (original)` },
    ...[...locales].filter(isSubtitleLanguage).map((locale) => ({ id: locale, label: languageName(i18n, locale) })),
  ];
  return (
    <Select<string>
      label={t`Language of the subtitles in the video`}
      value={project.font.locale ?? ORIGINAL}
      onChange={(id) => onChange(id === ORIGINAL ? null : isSubtitleLanguage(id) ? id : null)}
      isDisabled={isDisabled}
      options={options}
    />
  );
}
const ORIGINAL = "original";

/**
 * The Options tab (SPEC §2 Settings panel): every project setting, each change saved at once. A finished
 * (Render Ready) project shows them disabled until it is reopened (SPEC §4); the banner above says why.
 */
export function OptionsPanel({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const save = useSaveSettings(project.id);
  const show = optionsVisibility(project);
  const locked = isFinished(project);
  // Disabled controls send nothing; nor does anything else while the project is finished.
  const set = <K extends keyof OptionsValues>(key: K) => (value: OptionsValues[K]) => void (!locked && save(optionPatch(project, key, value)));
  const toggle = (key: { [K in keyof OptionsValues]: OptionsValues[K] extends 0 | 1 ? K : never }[keyof OptionsValues]) => ({
    isSelected: project[key] === 1,
    isDisabled: locked,
    onChange: (on: boolean) => set(key)(bit(on)),
  });
  const setFont = (font: Partial<ProjectSettings["font"]>) => void (!locked && save({ font: { ...project.font, ...font } }));
  const notificationsAllowed = !!user?.features.includes("render_notifications");

  return (
    <div className="settings-form options-panel">
      <h2 className="visually-hidden">
        <Trans>Options</Trans>
      </h2>
      <fieldset className="form-section">
        <legend>
          <Trans>Sound</Trans>
        </legend>
        <Switch {...toggle("mute_videos")} description={t`Removes the sound of your footage; the music stays`}>
          <Trans>Mute the footage</Trans>
        </Switch>
        {show.footageLevel && (
          <Select<ProjectSettings["mediaAudio"]>
            label={t`Footage volume`}
            value={project.mediaAudio}
            onChange={set("mediaAudio")}
            isDisabled={locked}
            options={FOOTAGE_LEVELS.map((id) => ({ id, label: i18n._(FOOTAGE_LEVEL_LABELS[id]) }))}
          />
        )}
        <Switch {...toggle("audio_preprocessor")} description={t`Noise cancelling: cleans background noise from voices`}>
          <Trans>Audio enhancer</Trans>
        </Switch>
        {show.voiceBooster && (
          <Switch {...toggle("voice_booster")} description={t`Makes voices louder and clearer`}>
            <Trans>Voice booster</Trans>
          </Switch>
        )}
      </fieldset>

      <fieldset className="form-section">
        <legend>
          <Trans>Editing</Trans>
        </legend>
        {/* Issue 17 audit: export_subtitle ("Edit from the transcript") changed no render, so it is not offered (README "Controls"). */}
        {show.cutOptions && (
          <>
            <Switch {...toggle("autocutsilences")} description={t`Removes silences and adds jump cuts; applies when the storyboard is recreated`}>
              <Trans>Auto-cut silences</Trans>
            </Switch>
            <Switch isSelected={project.removefillers === 1} isDisabled={locked} onChange={(on) => void (!locked && save({ removefillers: bit(on) }))} description={t`Cuts out the "um" and "uh" the speech recognition hears, as hidden scenes you can restore; applies when the storyboard is recreated`}>
              <Trans>Remove filler words</Trans>
            </Switch>
            <Switch {...toggle("smoothcuts")} description={t`Softens the sound at each cut`}>
              <Trans>Smooth cuts</Trans>
            </Switch>
          </>
        )}
        <Switch {...toggle("autopunchin")} description={t`Zooms in on some cuts to keep the rhythm`}>
          <Trans>Auto punch-in</Trans>
        </Switch>
      </fieldset>

      <fieldset className="form-section">
        <legend>
          <Trans>Picture</Trans>
        </legend>
        <Select<ProjectSettings["aspect"] | "original">
          label={t`Size`}
          // The API's "original" is the empty string, which a list item cannot use as its key.
          value={project.aspect || "original"}
          onChange={(v) => set("aspect")(v === "original" ? "" : v)}
          isDisabled={locked}
          options={[
            { id: "original", label: t`Original` },
            { id: "16x9", label: t`Landscape 16:9` },
            { id: "9x16", label: t`Portrait 9:16` },
            { id: "1x1", label: t`Square 1:1` },
          ]}
        />
        {show.autocrop && (
          <Switch {...toggle("autocrop")} description={t`Keeps faces in the frame when cropping to the size`}>
            <Trans>Auto crop</Trans>
          </Switch>
        )}
      </fieldset>

      <fieldset className="form-section">
        <legend>
          <Trans>Subtitles</Trans>
        </legend>
        <Switch {...toggle("render_subtitle")} description={t`Shows what is said on screen`}>
          <Trans>Subtitles</Trans>
        </Switch>
        {show.subtitleStyle && (
          <>
            <SwatchPicker label={t`Text colour`} value={project.font.color} onChange={(color) => setFont({ color })} isDisabled={locked} />
            <SwatchPicker label={t`Border colour`} value={project.font.border_color} onChange={(border_color) => setFont({ border_color })} isDisabled={locked} />
            <Switch isSelected={project.font.dropshadow === 1} onChange={(on) => setFont({ dropshadow: bit(on) })} isDisabled={locked}>
              <Trans>Drop shadow</Trans>
            </Switch>
            {show.shadowColour && (
              <SwatchPicker label={t`Shadow colour`} value={project.font.shadow_color} onChange={(shadow_color) => setFont({ shadow_color })} isDisabled={locked} />
            )}
            <EmbeddedLanguage project={project} isDisabled={locked} onChange={(locale) => setFont({ locale })} />
          </>
        )}
      </fieldset>

      <fieldset className="form-section">
        <legend>
          <Trans>Music</Trans>
        </legend>
        <Switch {...toggle("autobgm")} description={t`Background music that ducks under speech`}>
          <Trans>Automatic music</Trans>
        </Switch>
        {show.introOutroMusic && (
          <>
            <Switch isSelected={project.intro_mode === "music"} onChange={(on) => set("intro_mode")(on ? "music" : "silent")} isDisabled={locked}>
              <Trans>Music in the intro</Trans>
            </Switch>
            <Switch isSelected={project.outro_mode === "music"} onChange={(on) => set("outro_mode")(on ? "music" : "silent")} isDisabled={locked}>
              <Trans>Music in the outro</Trans>
            </Switch>
          </>
        )}
        <Select<ProjectSettings["musicType"]>
          label={t`Music volume`}
          value={project.musicType}
          onChange={set("musicType")}
          isDisabled={locked}
          options={MUSIC_LEVELS.map((id) => ({ id, label: i18n._(MUSIC_LEVEL_LABELS[id]) }))}
        />
        <Switch {...toggle("autoduck")} description={t`Lowers the music while someone speaks`}>
          <Trans>Auto-duck</Trans>
        </Switch>
      </fieldset>

      {/* SPEC §6: the render-notification switch appears only for users whose plan has the feature. */}
      {notificationsAllowed && (
        <fieldset className="form-section">
          <legend>
            <Trans>Notifications</Trans>
          </legend>
          <Switch {...toggle("render_notifications")} description={t`An email when this project's render is ready`}>
            <Trans>Render notifications</Trans>
          </Switch>
        </fieldset>
      )}
    </div>
  );
}
