import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import type { Quotas } from "../../../api/user";
import { db, type UploadRow } from "../../db";

/** What the user has left (db.meta "quotas"); null until the first refresh. */
export const useQuotas = (): Quotas | null | undefined =>
  useLiveQuery(async () => {
    const row = await db.meta.get("quotas");
    return row?.key === "quotas" ? row.value : null;
  }, []);

/**
 * The files of this wizard: those of its scheduled project when there is one, otherwise every upload that
 * no scheduled project has claimed yet. Oldest first.
 */
export const useWizardUploads = (draftId: string | null): UploadRow[] | undefined =>
  useLiveQuery(async () => {
    const drafts = await db.drafts.toArray();
    const mine = drafts.find((d) => d.id === draftId);
    const rows = await db.uploads.orderBy("createdAt").toArray();
    if (mine) return rows.filter((r) => mine.uploadIds.includes(r.id));
    const claimed = new Set(drafts.filter((d) => d.status === "waiting" || d.status === "creating").flatMap((d) => d.uploadIds));
    return rows.filter((r) => !claimed.has(r.id));
  }, [draftId]);

/** Files that still count: not canceled and not refused. */
export const activeUploads = (rows: readonly UploadRow[]) => rows.filter((r) => r.status !== "canceled" && r.status !== "failed");

/** A blob: URL for a file's preview, made once per upload and revoked when the row goes away. */
export function useObjectUrl(id: string, blob: Blob): string | null {
  const [url, setUrl] = useState<string | null>(null);
  const [first] = useState(blob);
  useEffect(() => {
    if (first.size === 0) return;
    const made = URL.createObjectURL(first);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [id, first]);
  return url;
}
