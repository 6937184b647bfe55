import { Trans, useLingui } from "@lingui/react/macro";
import type { FormEvent, ReactNode } from "react";
import { MEDIA_LANGUAGES, type MediaLanguage } from "../../../api/language-codes";
import { PROJECT_NAME_MAX } from "../../../api/limits";
import { MEDIA_LANGUAGE_NAMES } from "../../lib/languages";
import { RadioGroup } from "../../ui/RadioGroup";
import { Select } from "../../ui/Select";
import { Switch } from "../../ui/Switch";
import { TextField } from "../../ui/TextField";
import type { Privacy } from "../../../api/share";
import { PRIVACY_OPTIONS } from "../share/privacy";
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
  /** Whether a file is marked intro or outro in step 1: only then does its music choice change the render. */
  roles?: { intro: boolean; outro: boolean };
}

/** The wizard's step 2: name, intro title, spoken language, style, audio and editing options. */
export function SettingsForm({ value, onChange, errors, isDisabled, onSubmit, children, roles = { intro: false, outro: false } }: SettingsFormProps) {
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
          {/* Issue 17 audit: no render shows an intro title yet, so the field is not offered (README "Controls"). */}
          <Select<MediaLanguage>
            label={t`Spoken language`}
            name="locale"
            placeholder={t`Choose a language`}
            value={value.locale}
            onChange={set("locale")}
            errorMessage={errors.locale}
            options={MEDIA_LANGUAGES.map((id) => ({ id, label: i18n._(MEDIA_LANGUAGE_NAMES[id]) }))}
          />
          {/* The audio type picks the automatic music's feel (server/domain/music.ts); without that music it changes nothing. */}
          {value.automaticMusic && (
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
          )}
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

      {/* Issue 17 audit: the intro and outro are the files marked so in step 1; their music is the one choice that
          changes the render (no render trims them to a length, so no length fields), and only when such a file exists. */}
      {value.automaticMusic && (roles.intro || roles.outro) && (
        <fieldset className="form-section" disabled={isDisabled}>
          <legend>
            <Trans>Intro and outro</Trans>
          </legend>
          {roles.intro && (
            <Switch isSelected={value.introMusic} onChange={set("introMusic")} isDisabled={isDisabled}>
              <Trans>Music in the intro</Trans>
            </Switch>
          )}
          {roles.outro && (
            <Switch isSelected={value.outroMusic} onChange={set("outroMusic")} isDisabled={isDisabled}>
              <Trans>Music in the outro</Trans>
            </Switch>
          )}
        </fieldset>
      )}

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

      <fieldset className="form-section" disabled={isDisabled}>
        <legend>
          <Trans>Sharing</Trans>
        </legend>
        <RadioGroup<Privacy>
          label={t`Who can watch the finished video`}
          name="privacy"
          value={value.privacy}
          onChange={set("privacy")}
          options={PRIVACY_OPTIONS.map((o) => ({ id: o.id, label: i18n._(o.label), description: i18n._(o.description) }))}
        />
        <p className="field-description">
          <Trans>The share page and the video-site export start from this choice; you can change it when you share.</Trans>
        </p>
      </fieldset>
      {children}
    </form>
  );
}
