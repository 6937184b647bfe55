import { Trans } from "@lingui/react/macro";
import type { UploadRow } from "../../db";
import { Button } from "../../ui/Button";
import { activeUploads } from "../upload/hooks";
import { FilesPanel } from "./FilesPanel";
import { SettingsForm } from "./SettingsForm";
import type { WizardSettings } from "./settings";

export interface ConfigureStepProps {
  settings: WizardSettings;
  onChange: (settings: WizardSettings) => void;
  /** Translated messages by API field name, plus `files` for a problem with the uploads. */
  errors: Record<string, string>;
  /** The project waits for its uploads: the form is read-only. */
  scheduled: boolean;
  submitting: boolean;
  uploads: readonly UploadRow[];
  onCreate: () => void;
  onBack: () => void;
  onStartAnother: () => void;
}

/** Step 2: the settings beside the files' upload progress. */
export function ConfigureStep({ settings, onChange, errors, scheduled, submitting, uploads, onCreate, onBack, onStartAnother }: ConfigureStepProps) {
  const files = activeUploads(uploads);
  const roles = { intro: files.some((u) => u.role === "intro"), outro: files.some((u) => u.role === "outro") };
  return (
    <div className="wizard-configure">
      <SettingsForm value={settings} onChange={onChange} errors={errors} isDisabled={scheduled} onSubmit={onCreate} roles={roles}>
        {scheduled && (
          <p className="notice notice-warning" role="status">
            <Trans>Your project will be created when the uploads finish — keep this tab open.</Trans>
          </p>
        )}
        {errors.files && (
          <p className="notice notice-danger" role="alert">
            {errors.files}
          </p>
        )}
        <div className="form-actions">
          {scheduled ? (
            <Button variant="secondary" onPress={onStartAnother}>
              <Trans>Start another project</Trans>
            </Button>
          ) : (
            <Button variant="secondary" onPress={onBack}>
              <Trans>Back to files</Trans>
            </Button>
          )}
          <Button type="submit" isPending={submitting || scheduled} isDisabled={activeUploads(uploads).length === 0}>
            <Trans>Create project</Trans>
          </Button>
        </div>
      </SettingsForm>
      <aside className="card files-panel" aria-labelledby="files-title">
        <h2 id="files-title" className="section-title">
          <Trans>Files</Trans>
        </h2>
        <FilesPanel uploads={uploads} />
      </aside>
    </div>
  );
}
