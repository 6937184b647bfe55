import { Trans, useLingui } from "@lingui/react/macro";
import type { FormEvent, ReactNode } from "react";
import { MEDIA_LANGUAGES, type MediaLanguage } from "../../../api/locales";
import { PROJECT_NAME_MAX } from "../../../api/limits";
import { INTRO_OUTRO_MAX_SECONDS, PROJECT_TITLE_MAX } from "../../lib/constants";
import { MEDIA_LANGUAGE_NAMES } from "../../lib/languages";
import { NumberField } from "../../ui/NumberField";
import { RadioGroup } from "../../ui/RadioGroup";
import { Select } from "../../ui/Select";
import { Switch } from "../../ui/Switch";
import { TextField } from "../../ui/TextField";
import { withStyle, type AudioType, type ProjectStyle, type WizardSettings } from "./settings";

export interface SettingsFormProps {
  value: WizardSettings;
  onChange: (value: WizardSettings) => void;
  /** Translated messages by API field name (name, locale, style, …). */
  errors: Record<string, string>;
  isDisabled: boolean;
  onSubmit: () => void;
  /** The form's buttons. */
  children: ReactNode;
}

/** The wizard's step 2: name, intro title, spoken language, style, audio and editing options. */
export function SettingsForm({ value, onChange, errors, isDisabled, onSubmit, children }: SettingsFormProps) {
  const { t, i18n } = useLingui();
  const set = <K extends keyof WizardSettings>(key: K) => (v: WizardSettings[K]) => onChange({ ...value, [key]: v });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form className="settings-form" onSubmit={submit} noValidate aria-labelledby="settings-title">
      <h2 id="settings-title" className="section-title">
        <Trans>Configure your project</Trans>
      </h2>
      <fieldset className="form-section" disabled={isDisabled}>
        <legend>
          <Trans>Project</Trans>
        </legend>
        <div className="form-grid">
          <TextField
            label={t`Project name`}
            name="name"
            value={value.name}
            onChange={set("name")}
            maxLength={PROJECT_NAME_MAX}
            isRequired
            validationBehavior="aria"
            isDisabled={isDisabled}
            errorMessage={errors.name}
          />
          <TextField
            label={t`Title shown in the intro (optional)`}
            name="title"
            value={value.title}
            onChange={set("title")}
            maxLength={PROJECT_TITLE_MAX}
            isDisabled={isDisabled}
            errorMessage={errors.title}
          />
          <Select<MediaLanguage>
            label={t`Spoken language`}
            name="locale"
            placeholder={t`Choose a language`}
            value={value.locale}
            onChange={set("locale")}
            errorMessage={errors.locale}
            options={MEDIA_LANGUAGES.map((id) => ({ id, label: i18n._(MEDIA_LANGUAGE_NAMES[id]) }))}
          />
          <Select<AudioType>
            label={t`Audio type`}
            name="audio_type"
            value={value.audioType}
            onChange={set("audioType")}
            options={[
              { id: "speech", label: t`Mostly speech` },
              { id: "music", label: t`Mostly music` },
              { id: "mixed", label: t`Speech and music` },
            ]}
          />
        </div>
        <RadioGroup<ProjectStyle>
          label={t`Style`}
          name="style"
          isRequired
          value={value.style}
          onChange={(style) => onChange(withStyle(value, style))}
          errorMessage={errors.style}
          options={[
            { id: "video", label: t`Video`, description: t`Your footage with its own sound` },
            { id: "music", label: t`Music`, description: t`Music carries the edit` },
            { id: "video_music", label: t`Video plus music`, description: t`Your footage with background music` },
          ]}
        />
      </fieldset>

      <fieldset className="form-section" disabled={isDisabled}>
        <legend>
          <Trans>Editing</Trans>
        </legend>
        <Switch isSelected={value.autoCut} onChange={set("autoCut")} isDisabled={isDisabled} description={t`Removes silences and adds jump cuts`}>
          <Trans>Auto cut</Trans>
        </Switch>
        <Switch isSelected={value.subtitles} onChange={set("subtitles")} isDisabled={isDisabled} description={t`Shows what is said on screen`}>
          <Trans>Subtitles</Trans>
        </Switch>
        <Switch
          isSelected={value.automaticMusic}
          onChange={set("automaticMusic")}
          isDisabled={isDisabled}
          description={t`Background music that ducks under speech`}
        >
          <Trans>Automatic music</Trans>
        </Switch>
      </fieldset>

      <fieldset className="form-section" disabled={isDisabled}>
        <legend>
          <Trans>Intro and outro</Trans>
        </legend>
        <div className="form-grid">
          <div className="intro-outro">
            <NumberField
              label={t`Intro length in seconds`}
              minValue={0}
              maxValue={INTRO_OUTRO_MAX_SECONDS}
              value={value.introSeconds}
              onChange={(v) => set("introSeconds")(Number.isFinite(v) ? v : 0)}
              isDisabled={isDisabled}
              errorMessage={errors.intro_seconds}
            />
            {value.automaticMusic && (
              <Switch isSelected={value.introMusic} onChange={set("introMusic")} isDisabled={isDisabled}>
                <Trans>Music in the intro</Trans>
              </Switch>
            )}
          </div>
          <div className="intro-outro">
            <NumberField
              label={t`Outro length in seconds`}
              minValue={0}
              maxValue={INTRO_OUTRO_MAX_SECONDS}
              value={value.outroSeconds}
              onChange={(v) => set("outroSeconds")(Number.isFinite(v) ? v : 0)}
              isDisabled={isDisabled}
              errorMessage={errors.outro_seconds}
            />
            {value.automaticMusic && (
              <Switch isSelected={value.outroMusic} onChange={set("outroMusic")} isDisabled={isDisabled}>
                <Trans>Music in the outro</Trans>
              </Switch>
            )}
          </div>
        </div>
      </fieldset>

      <fieldset className="form-section" disabled={isDisabled}>
        <legend>
          <Trans>Sound</Trans>
        </legend>
        <Switch
          isSelected={value.noiseCancelling}
          onChange={set("noiseCancelling")}
          isDisabled={isDisabled}
          description={t`Cleans background noise from voices`}
        >
          <Trans>Noise cancelling</Trans>
        </Switch>
        {value.noiseCancelling && (
          <Switch isSelected={value.voiceBooster} onChange={set("voiceBooster")} isDisabled={isDisabled} description={t`Makes voices louder and clearer`}>
            <Trans>Voice booster</Trans>
          </Switch>
        )}
      </fieldset>
      {children}
    </form>
  );
}
