import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Button as AriaButton, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Text, type Key } from "react-aria-components";
import type { SubtitleLanguage } from "../../../api/language-codes";
import type { TranslateOptions } from "../../../api/subtitles";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { languageName } from "./languages";
import { unavailableShort } from "./reasons";

export interface AddLanguageProps {
  projectId: number;
  /** The languages not yet a set of the project (workers/subtitle-sets.ts languagesToAdd). */
  choices: TranslateOptions["options"];
  online: boolean;
  /** The new set (pending), for the page to open it. */
  onAdded: (setId: number) => void;
}

/**
 * "Add a language" (issue 14): every subtitle language of SPEC §9 the project does not have yet; those with no
 * engine here are listed but disabled, with why. Translate queues the translation (POST /projects/{id}/translate).
 */
export function AddLanguage({ projectId, choices, online, onAdded }: AddLanguageProps) {
  const { t, i18n } = useLingui();
  const [locale, setLocale] = useState<SubtitleLanguage | null>(null);
  const [pending, setPending] = useState(false);
  const chosen = choices.find((o) => o.locale === locale && o.available) ? locale : null;
  const disabledKeys = choices.filter((o) => !o.available).map((o) => o.locale);

  async function translate() {
    if (!chosen) return;
    setPending(true);
    const result = await worker.requestTranslation(projectId, chosen);
    setPending(false);
    if (result.ok) {
      setLocale(null);
      onAdded(result.data.id);
      const language = languageName(i18n, chosen);
      toast({ variant: "success", title: t`Translation into ${language} started`, description: t`Translation takes 1 to 15 minutes.` });
    } else toast({ variant: "danger", title: t`The translation did not start`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <form
      className="add-language"
      onSubmit={(event) => {
        event.preventDefault();
        if (!pending) void translate();
      }}
    >
      <Select
        className="field add-language-select"
        selectedKey={chosen}
        onSelectionChange={(key: Key | null) => setLocale(key === null ? null : (String(key) as SubtitleLanguage))}
        disabledKeys={disabledKeys}
        placeholder={t`Choose a language`}
        isDisabled={choices.length === 0 || pending}
      >
        <Label className="field-label">
          <Trans>Add a language</Trans>
        </Label>
        <AriaButton className="field-input select-button">
          <SelectValue />
          <span aria-hidden="true" className="select-caret">
            ▾
          </span>
        </AriaButton>
        <Popover className="popover">
          <ListBox className="listbox">
            {choices.map((option) => {
              const name = languageName(i18n, option.locale);
              return (
                <ListBoxItem key={option.locale} id={option.locale} className="listbox-item add-language-item" textValue={name}>
                  <Text slot="label">{name}</Text>
                  {!option.available ? (
                    <Text slot="description" className="add-language-why">
                      {unavailableShort(i18n, option.reason)}
                    </Text>
                  ) : option.draft ? (
                    <Text slot="description" className="add-language-why">
                      <Trans>Draft translation</Trans>
                    </Text>
                  ) : null}
                </ListBoxItem>
              );
            })}
          </ListBox>
        </Popover>
      </Select>
      <Button type="submit" isDisabled={!chosen || !online} isPending={pending}>
        <Trans>Translate</Trans>
      </Button>
      {!online && (
        <p className="field-description add-language-note">
          <Trans>Adding a language needs a connection.</Trans>
        </p>
      )}
      {disabledKeys.length > 0 && (
        <p className="field-description add-language-note">
          <Trans>
            Languages marked unavailable need a translation engine on the server: its operator can install Apertium language pairs or connect a LibreTranslate-compatible
            service.
          </Trans>
        </p>
      )}
    </form>
  );
}
