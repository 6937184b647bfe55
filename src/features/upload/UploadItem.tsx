import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Button as AriaButton } from "react-aria-components";
import { MEDIA_LANGUAGES } from "../../../api/language-codes";
import type { UploadRole, UploadRow } from "../../db";
import { PROGRESS_DONE } from "../../lib/constants";
import { formatDuration, formatPercent, formatSize } from "../../lib/format";
import { MEDIA_LANGUAGE_NAMES, NO_SPEECH, type FileLanguageChoice } from "../../lib/languages";
import { Button } from "../../ui/Button";
import { ProgressBar } from "../../ui/ProgressBar";
import { Select } from "../../ui/Select";
import { worker } from "../../worker";
import { FilePreview } from "./FilePreview";
import { uploadErrorMessage } from "./messages";

const ROLE_LABELS = { main: msg`Main footage`, intro: msg`Intro`, outro: msg`Outro` } as const;

export interface UploadItemProps {
  upload: UploadRow;
  /** False until the user picks a language (a stored null means "no speech" only once chosen). */
  languageChosen: boolean;
  onLanguageChosen: (id: string) => void;
  onRoleChange: (id: string, role: UploadRole) => void;
  /** Mark a missing language as an error (after a try to continue). */
  showMissingLanguage: boolean;
  /** Step 2: progress only, no settings. */
  compact?: boolean;
  /** Offer "Use as" (main, intro, outro): only when the files become a project. */
  showRole?: boolean;
}

/** One file of the upload list: preview, name, size and length, language, intro/outro, progress. */
export function UploadItem({ upload, languageChosen, onLanguageChosen, onRoleChange, showMissingLanguage, compact, showRole = true }: UploadItemProps) {
  const { t, i18n } = useLingui();
  const speaks = upload.kind === "video" || upload.kind === "audio";
  const editable = !compact && upload.status !== "canceled" && upload.status !== "failed";
  const language: FileLanguageChoice | null = upload.locale ? (upload.locale as FileLanguageChoice) : languageChosen ? NO_SPEECH : null;
  const chooseLanguage = (choice: FileLanguageChoice) => {
    onLanguageChosen(upload.id);
    void worker.setUploadLanguage(upload.id, choice === NO_SPEECH ? null : choice);
  };

  return (
    <li className="upload-item" data-status={upload.status} aria-label={upload.name}>
      {!compact && <FilePreview upload={upload} />}
      <div className="upload-item-main">
        <div className="upload-item-head">
          <span className="upload-name">{upload.name}</span>
          <span className="muted upload-meta">
            {formatSize(upload.size)}
            {upload.kind !== "image" && ` · ${formatDuration(upload.durationSeconds)}`}
            {upload.role !== "main" && ` · ${i18n._(ROLE_LABELS[upload.role])}`}
          </span>
        </div>
        {editable && (
          <div className="upload-item-settings">
            {speaks && (
              <Select<FileLanguageChoice>
                label={t`Spoken language`}
                placeholder={t`Choose a language`}
                value={language}
                onChange={chooseLanguage}
                errorMessage={showMissingLanguage && language === null ? t`Choose the language spoken in this file` : undefined}
                options={[
                  { id: NO_SPEECH, label: t`No speech` },
                  ...MEDIA_LANGUAGES.map((id) => ({ id, label: i18n._(MEDIA_LANGUAGE_NAMES[id]) })),
                ]}
              />
            )}
            {showRole && upload.kind !== "audio" && (
              <Select<UploadRole>
                label={t`Use as`}
                value={upload.role}
                onChange={(role) => onRoleChange(upload.id, role)}
                options={(["main", "intro", "outro"] as const).map((id) => ({ id, label: i18n._(ROLE_LABELS[id]) }))}
              />
            )}
          </div>
        )}
        <UploadState upload={upload} compact={compact} />
      </div>
      {upload.status !== "uploading" && !compact && (
        <AriaButton className="icon-button" aria-label={t`Remove ${upload.name}`} onPress={() => void worker.removeUpload(upload.id)}>
          <span aria-hidden="true">×</span>
        </AriaButton>
      )}
    </li>
  );
}

/** Progress to one decimal with Cancel until 100 %, then a check mark; or why the file stopped. */
function UploadState({ upload, compact }: { upload: UploadRow; compact?: boolean }) {
  const { t, i18n } = useLingui();
  const percent = formatPercent(upload.progress, i18n.locale);
  switch (upload.status) {
    case "uploading":
    case "success":
      return upload.progress < PROGRESS_DONE ? (
        <div className="upload-progress">
          <ProgressBar label={t`Uploading ${upload.name}`} hideLabel value={upload.progress} valueLabel={percent} />
          <Button variant="ghost" className="btn-small" onPress={() => void worker.cancelUpload(upload.id)} aria-label={t`Cancel upload of ${upload.name}`}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      ) : (
        <p className="upload-done">
          <CheckMark />
          <Trans>Uploaded — checking the file…</Trans>
        </p>
      );
    case "completed":
      return (
        <p className="upload-done">
          <CheckMark />
          <Trans>Uploaded</Trans>
        </p>
      );
    case "canceled":
      return (
        <p className="muted">
          <Trans>Canceled</Trans>
        </p>
      );
    case "failed":
      return <p className="field-error" role="alert">{uploadErrorMessage(i18n, upload.error ?? "")}</p>;
    case "selected":
      if (upload.error) {
        return (
          <p className="upload-waiting" role="status">
            {uploadErrorMessage(i18n, upload.error)}
          </p>
        );
      }
      return compact ? (
        <p className="muted">
          <Trans>Waiting to upload</Trans>
        </p>
      ) : null;
  }
}

function CheckMark() {
  return (
    <svg className="icon check-mark" viewBox="0 0 24 24" aria-hidden="true">
      <polyline points="4 12 10 18 20 6" />
    </svg>
  );
}
