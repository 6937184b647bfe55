import { useLingui } from "@lingui/react/macro";
import { useState } from "react";
import type { MediaKind } from "../../../api/media";
import { db } from "../../db";
import { toast } from "../../ui/Toast";
import { spokenLanguageFor } from "../../lib/languages";
import { worker } from "../../worker";
import { checkNewFiles, mediaKindOf } from "./checks";
import { activeUploads } from "./hooks";
import { refusalToast, unsupportedToast } from "./messages";
import { readDuration } from "./readDuration";

interface Prepared {
  file: File;
  kind: MediaKind;
  name: string;
  size: number;
  durationSeconds: number;
}

/**
 * Adds chosen or dropped files to the upload list after SPEC §5's checks; each refusal is a toast.
 * Lengths are read in the browser first, because the processing-minutes check needs them.
 */
export function useAddFiles() {
  const { i18n } = useLingui();
  const [adding, setAdding] = useState(false);

  /**
   * Answers how many files joined the list. A kept recording (issue 17) comes with its length, measured while
   * recording (a recorder's WebM has none in its header), and its id, so the list carries on its server upload.
   */
  async function add(files: readonly File[], recording?: { durationSeconds: number; recordingId: string }): Promise<number> {
    if (files.length === 0) return 0;
    setAdding(true);
    try {
      const supported: { file: File; kind: MediaKind }[] = [];
      for (const file of files) {
        const kind = mediaKindOf(file.type);
        if (kind) supported.push({ file, kind });
        else toast(unsupportedToast(i18n, file.name));
      }
      const prepared: Prepared[] = await Promise.all(
        supported.map(async ({ file, kind }) => ({
          file,
          kind,
          name: file.name,
          size: file.size,
          durationSeconds: kind === "image" ? 0 : recording ? recording.durationSeconds : await readDuration(file, kind),
        })),
      );
      const [listed, library, quotasRow] = await Promise.all([db.uploads.toArray(), db.media.toArray(), db.meta.get("quotas")]);
      const counted = activeUploads(listed);
      const quotas = quotasRow?.key === "quotas" ? quotasRow.value : null;
      const { accepted, refused } = checkNewFiles(prepared, {
        takenNames: [...counted.map((u) => u.name), ...library.map((m) => m.name)],
        listedSeconds: counted.reduce((sum, u) => sum + u.durationSeconds, 0),
        listedBytes: counted.reduce((sum, u) => sum + u.size, 0),
        quotas,
      });
      for (const { file, reason } of refused) toast(refusalToast(i18n, reason, file.name, quotas));
      if (accepted.length > 0) {
        await worker.addUploads(
          // Videos and audios start in the interface's language (issue 18); the person changes it or picks no speech.
          accepted.map(({ file, kind, durationSeconds }) => ({
            file,
            kind,
            durationSeconds,
            locale: kind === "image" ? null : spokenLanguageFor(i18n.locale),
            role: "main" as const,
            ...(recording ? { recordingId: recording.recordingId } : {}),
          })),
        );
      }
      return accepted.length;
    } finally {
      setAdding(false);
    }
  }

  return { add, adding };
}
