import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { LIBRARY_RETURN_AFTER_UPLOAD_MS } from "../../lib/constants";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { activeUploads, useWizardUploads } from "../upload/hooks";
import { UploadScreen } from "../upload/UploadScreen";
import { useRefusedUploadToasts, useResumeWhenOnline } from "../wizard/useWizardEffects";

/** Still on its way: not sent yet, sending, or being registered in the library. */
const PENDING = new Set(["selected", "uploading", "success"]);

/**
 * SPEC §2 Upload screen inside the library: the files go to the library only, no project. Once every
 * sent file is in (and none is left to deal with) the list comes back after 200 ms.
 */
export function LibraryUpload({ onDone }: { onDone: (uploaded: number) => void }) {
  const { t } = useLingui();
  const [openedAt] = useState(() => Date.now());
  const [languageChosen, setLanguageChosen] = useState<ReadonlySet<string>>(new Set());
  const [showMissingLanguage, setShowMissingLanguage] = useState(false);
  const [sent, setSent] = useState(false);
  // Files still on their way (here or from the wizard) and those added since this screen opened.
  const uploads = (useWizardUploads(null) ?? []).filter((u) => u.status !== "completed" || u.createdAt >= openedAt);
  const files = activeUploads(uploads);
  useRefusedUploadToasts(uploads);
  useResumeWhenOnline(uploads);

  const remaining = uploads.filter((u) => u.status !== "completed" && u.status !== "canceled");
  const done = sent && remaining.length === 0;
  const uploaded = uploads.filter((u) => u.status === "completed").length;

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => {
      // Finished rows are forgotten so they do not show in the next upload or wizard.
      for (const u of uploads) void worker.removeUpload(u.id);
      onDone(uploaded);
    }, LIBRARY_RETURN_AFTER_UPLOAD_MS);
    return () => clearTimeout(timer);
    // Runs once when everything is in; the rows are read at that moment.
  }, [done]);

  function upload() {
    const missing = files.filter((u) => u.kind !== "image" && u.status === "selected" && !u.locale && !languageChosen.has(u.id));
    if (missing.length > 0) {
      setShowMissingLanguage(true);
      toast({ variant: "warning", title: t`Select languages for all videos or audios` });
      return;
    }
    setSent(true);
    void worker.startUploads(files.filter((u) => u.status === "selected").map((u) => u.id));
  }

  return (
    <section className="library-pane library-upload" aria-label={t`Upload to the library`}>
      <div className="library-pane-head">
        <Button variant="ghost" className="btn-small" onPress={() => onDone(0)} aria-label={t`Back to the list`}>
          <span aria-hidden="true">←</span> <Trans>Back</Trans>
        </Button>
      </div>
      <UploadScreen
        uploads={uploads}
        languageChosen={languageChosen}
        onLanguageChosen={(id) => setLanguageChosen((s) => new Set(s).add(id))}
        showMissingLanguage={showMissingLanguage}
        onUpload={upload}
        showRole={false}
      />
      {sent && remaining.some((u) => PENDING.has(u.status)) && (
        <p className="muted" role="status">
          <Trans>Keep this tab open until the files are uploaded. They then appear in your library.</Trans>
        </p>
      )}
    </section>
  );
}
