import { useLingui } from "@lingui/react/macro";
import type { UploadRow } from "../../db";
import { UploadItem } from "../upload/UploadItem";

const noop = () => undefined;

/** Step 2's side panel: each file's upload progress, with Cancel until it is done. */
export function FilesPanel({ uploads }: { uploads: readonly UploadRow[] }) {
  const { t } = useLingui();
  return (
    <ul className="upload-list upload-list-compact" aria-label={t`Files`}>
      {uploads.map((upload) => (
        <UploadItem key={upload.id} upload={upload} languageChosen onLanguageChosen={noop} onRoleChange={noop} showMissingLanguage={false} compact />
      ))}
    </ul>
  );
}
