import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Button as AriaButton, Disclosure, DisclosurePanel, Heading } from "react-aria-components";
import type { SubtitleSet } from "../../../api/subtitles";
import { isSubtitleLanguage } from "./languages";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { failedSetMessage } from "./reasons";
import { SubtitleLineField } from "./SubtitleLineField";
import { SubtitleSetDownloads } from "./SubtitleSetDownloads";

export interface SubtitleSetPanelProps {
  set: SubtitleSet;
  language: string;
  online: boolean;
  onEditingChange: (editing: boolean) => void;
}

/** One language of the Translate page's accordion: its status, its lines to edit, and its downloads. */
export function SubtitleSetPanel({ set, language, online, onEditingChange }: SubtitleSetPanelProps) {
  const { t, i18n } = useLingui();
  const [retrying, setRetrying] = useState(false);

  async function translateAgain() {
    if (!isSubtitleLanguage(set.locale)) return;
    setRetrying(true);
    const result = await worker.requestTranslation(set.project_id, set.locale);
    setRetrying(false);
    if (!result.ok) toast({ variant: "danger", title: t`The translation did not start`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <Disclosure id={String(set.id)} className="subtitle-set" data-status={set.status}>
      <Heading level={3} className="subtitle-set-heading">
        <AriaButton slot="trigger" className="subtitle-set-trigger">
          <span className="subtitle-set-caret" aria-hidden="true">
            ▸
          </span>
          <span className="subtitle-set-name">{language}</span>
          {set.original === 1 && (
            <span className="badge subtitle-badge">
              <Trans>Original</Trans>
            </span>
          )}
          {set.status === "pending" && (
            <span className="badge subtitle-badge" data-status="pending">
              {set.original ? <Trans>Recognising speech…</Trans> : <Trans>Translating…</Trans>}
            </span>
          )}
          {set.status === "ready" && set.original === 0 && (
            <span className="badge subtitle-badge" data-status="ready">
              <Trans>Ready</Trans>
            </span>
          )}
          {set.status === "failed" && (
            <span className="badge subtitle-badge" data-status="failed">
              <Trans>Failed</Trans>
            </span>
          )}
          {set.draft === 1 && set.status !== "failed" && (
            <span className="badge subtitle-badge" data-status="draft">
              {set.original ? <Trans>Draft captions</Trans> : <Trans>Draft translation</Trans>}
            </span>
          )}
        </AriaButton>
      </Heading>
      <DisclosurePanel className="subtitle-set-panel">
        {set.status === "pending" && (
          <p className="notice notice-neutral" role="status">
            {set.original ? (
              <Trans>Speech recognition is still making the subtitle lines of this talk. They show here when they are ready.</Trans>
            ) : (
              <Trans>Translation takes 1 to 15 minutes. This page shows the lines when they are ready.</Trans>
            )}
          </p>
        )}
        {set.status === "failed" && (
          <div className="notice notice-danger subtitle-set-failed" role="alert">
            <p>{failedSetMessage(i18n, set, language)}</p>
            {set.detail && (
              <details className="subtitle-set-detail">
                <summary>
                  <Trans>Details for the server's operator</Trans>
                </summary>
                <p lang="en">{set.detail}</p>
              </details>
            )}
            <Button variant="secondary" className="btn-small" onPress={() => void translateAgain()} isPending={retrying} isDisabled={!online}>
              <Trans>Translate again</Trans>
            </Button>
          </div>
        )}
        {set.status === "ready" && set.draft === 1 && set.original === 0 && (
          <p className="field-description">
            <Trans>A draft from the server's basic translation engine: read it through and correct the lines.</Trans>
          </p>
        )}
        {set.status === "ready" && set.lines.length === 0 && (
          <p className="field-description">
            <Trans>No subtitle lines in the shown scenes.</Trans>
          </p>
        )}
        {set.status === "ready" && set.lines.length > 0 && (
          <>
            <SubtitleSetDownloads set={set} language={language} />
            <ol className="subtitle-lines" aria-label={t`${language} subtitle lines`}>
              {set.lines.map((line, index) => (
                <li key={line.key}>
                  <SubtitleLineField setId={set.id} line={line} number={index + 1} onEditingChange={onEditingChange} />
                </li>
              ))}
            </ol>
          </>
        )}
      </DisclosurePanel>
    </Disclosure>
  );
}
