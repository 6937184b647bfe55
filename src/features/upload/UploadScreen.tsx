import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useLiveQuery } from "dexie-react-hooks";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { DropZone, FileTrigger, isFileDropItem, type DropZoneProps } from "react-aria-components";
import { db, type UploadRole, type UploadRow } from "../../db";
import { UPLOAD_ACCEPT } from "../../lib/constants";
import { formatDuration, formatSize } from "../../lib/format";
import { Button, Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { activeUploads, useQuotas } from "./hooks";
import { Limits } from "./Limits";
import { UploadItem } from "./UploadItem";
import { useAddFiles } from "./useAddFiles";

/** Issue 17: the recorder (camera, screen, both) loads only when asked for, never with the first page. */
const Recorder = lazy(() => import("./recorder/Recorder"));

type DropEvent = Parameters<NonNullable<DropZoneProps["onDrop"]>>[0];

export interface UploadScreenProps {
  uploads: readonly UploadRow[];
  languageChosen: ReadonlySet<string>;
  onLanguageChosen: (id: string) => void;
  showMissingLanguage: boolean;
  /** The upload button: the wizard checks languages, starts the uploads and moves on. */
  onUpload: () => void;
  /** False in the media library, where files do not become a project's intro or outro. */
  showRole?: boolean;
}

/** SPEC §2 Upload screen: drop or browse, limits, previews with removal, totals, language per file. */
export function UploadScreen({ uploads, languageChosen, onLanguageChosen, showMissingLanguage, onUpload, showRole = true }: UploadScreenProps) {
  const { t } = useLingui();
  const quotas = useQuotas();
  const { add, adding } = useAddFiles();
  const input = useRef<HTMLInputElement>(null);
  const [recorderOpen, setRecorderOpen] = useState(false);
  // A recording a closed or crashed tab left behind opens the recorder, to keep or discard it.
  const leftBehind = useLiveQuery(() => db.recordings.count(), []) ?? 0;
  const showRecorder = recorderOpen || leftBehind > 0;
  useEffect(() => {
    void worker.refreshQuotas();
    // Library names count for the double-file check.
    void worker.refreshLibrary();
  }, []);

  const counted = activeUploads(uploads);
  const totalSize = counted.reduce((sum, u) => sum + u.size, 0);
  const totalLength = counted.reduce((sum, u) => sum + u.durationSeconds, 0);
  const count = counted.length;

  function chosen(list: FileList | null) {
    const files = [...(list ?? [])];
    // Let the same file be chosen again (and refused or re-added) instead of the browser ignoring it.
    if (input.current) input.current.value = "";
    void add(files);
  }
  async function dropped(event: DropEvent) {
    await add(await Promise.all(event.items.filter(isFileDropItem).map((item) => item.getFile())));
  }
  /** One intro and one outro: choosing a new one puts the previous back among the main footage. */
  function changeRole(id: string, role: UploadRole) {
    if (role !== "main") for (const other of uploads) if (other.id !== id && other.role === role) void worker.setUploadRole(other.id, "main");
    void worker.setUploadRole(id, role);
  }

  return (
    <section className="upload-screen" aria-labelledby="upload-title">
      <h2 id="upload-title" className="section-title">
        <Trans>Upload your files</Trans>
      </h2>
      <DropZone className="dropzone" onDrop={(event) => void dropped(event)} aria-label={t`Drop videos, audios or images here`}>
        <svg className="icon dropzone-icon" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M12 16V4M7 9l5-5 5 5M4 16v4h16v-4" />
        </svg>
        <p>
          <Trans>Drag and drop videos, audios or images here</Trans>
        </p>
        <FileTrigger ref={input} acceptedFileTypes={[...UPLOAD_ACCEPT]} allowsMultiple onSelect={chosen}>
          <Button variant="secondary" isPending={adding}>
            <Trans>Browse files</Trans>
          </Button>
        </FileTrigger>
        <Limits quotas={quotas} />
      </DropZone>

      <div className="upload-record">
        {showRecorder ? (
          <Suspense fallback={<Spinner label={t`Loading the recorder…`} />}>
            <Recorder onClose={() => setRecorderOpen(false)} />
          </Suspense>
        ) : (
          <Button variant="secondary" onPress={() => setRecorderOpen(true)}>
            <Trans>Record with camera or screen</Trans>
          </Button>
        )}
      </div>

      {uploads.length > 0 && (
        <ul className="upload-list" aria-label={t`Files to upload`}>
          {uploads.map((upload) => (
            <UploadItem
              key={upload.id}
              upload={upload}
              languageChosen={languageChosen.has(upload.id) || upload.status !== "selected"}
              onLanguageChosen={onLanguageChosen}
              onRoleChange={changeRole}
              showMissingLanguage={showMissingLanguage}
              showRole={showRole}
            />
          ))}
        </ul>
      )}

      <div className="upload-footer">
        <p className="upload-totals" aria-live="polite">
          <Plural value={count} _0="No files yet" one="# file" other="# files" />
          {count > 0 && ` · ${formatSize(totalSize)} · ${formatDuration(totalLength)}`}
        </p>
        <Button onPress={onUpload} isDisabled={count === 0}>
          <Plural value={count} _0="Upload" one="Upload # file" other="Upload # files" />
        </Button>
      </div>
    </section>
  );
}
