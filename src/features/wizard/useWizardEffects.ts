import { useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useRef, type RefObject } from "react";
import { db, type ProjectDraftRow, type UploadRow } from "../../db";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { refusalToast } from "../upload/messages";
import { creationFailedToast } from "./messages";

/**
 * Follows the scheduled project (db.drafts): created → its preview; failed → SPEC §8's toast, and the form
 * is back for another try.
 */
export function useDraftOutcome(draftId: string | null, onFailed: (error: string | undefined) => void, leaving: RefObject<boolean>) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const draft = useLiveQuery(() => (draftId ? db.drafts.get(draftId) : undefined), [draftId]);
  const failed = useRef(onFailed);
  failed.current = onFailed;
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!draft || handled.current === `${draft.id}:${draft.status}`) return;
    if (draft.status === "created" || draft.status === "failed") handled.current = `${draft.id}:${draft.status}`;
    if (draft.status === "created" && draft.projectId !== undefined) {
      leaving.current = true;
      void worker.forgetDraft(draft.id);
      void navigate({ to: "/projects/$id/preview", params: { id: draft.projectId }, replace: true });
    } else if (draft.status === "failed") {
      toast(creationFailedToast(i18n, draft.error));
      void worker.forgetDraft(draft.id);
      failed.current(draft.error);
    }
  }, [draft, i18n, navigate, leaving]);
  return draft;
}

/** After a reload, a project still waiting for its files is picked up again. */
export function useWaitingDraft(adopt: (draft: ProjectDraftRow) => void) {
  const adopted = useRef(adopt);
  useEffect(() => {
    void db.drafts
      .where("status")
      .anyOf(["waiting", "creating"])
      .last()
      .then((draft) => draft && adopted.current(draft));
  }, []);
}

/** A file the server refused for its name gets SPEC §8's 'double file' toast, once. */
export function useRefusedUploadToasts(uploads: readonly UploadRow[]) {
  const { i18n } = useLingui();
  const told = useRef(new Set<string>());
  useEffect(() => {
    for (const upload of uploads) {
      if (upload.status !== "failed" || upload.error !== "duplicate_name" || told.current.has(upload.id)) continue;
      told.current.add(upload.id);
      toast(refusalToast(i18n, "double_file", upload.name, null));
    }
  }, [uploads, i18n]);
}

/**
 * SPEC §8 'file uploaded': a success toast for each file that finishes uploading while the wizard is open (a file
 * already uploaded before a reload is not announced again).
 */
export function useUploadedToasts(uploads: readonly UploadRow[]) {
  const { t } = useLingui();
  const pending = useRef(new Set<string>());
  useEffect(() => {
    for (const upload of uploads) {
      const finished = upload.status === "success" || upload.status === "completed";
      if (!finished) {
        if (upload.status === "selected" || upload.status === "uploading") pending.current.add(upload.id);
        continue;
      }
      if (!pending.current.delete(upload.id)) continue;
      toast({ variant: "success", title: t`File uploaded`, description: upload.name });
    }
  }, [uploads, t]);
}

/** Files that stopped for want of a connection carry on when it comes back. */
export function useResumeWhenOnline(uploads: readonly UploadRow[]) {
  const waiting = useRef<string[]>([]);
  waiting.current = uploads.filter((u) => u.status === "selected" && u.error === "network").map((u) => u.id);
  useEffect(() => {
    const resume = () => waiting.current.length > 0 && void worker.startUploads(waiting.current);
    window.addEventListener("online", resume);
    return () => window.removeEventListener("online", resume);
  }, []);
}
