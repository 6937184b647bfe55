import type { MediaKind } from "../../../api/media";
import type { Quotas } from "../../../api/user";

/** The kind of a file from its MIME prefix (SPEC §5); null for anything else. */
export function mediaKindOf(mime: string): MediaKind | null {
  const prefix = mime.split("/")[0];
  return prefix === "video" || prefix === "audio" || prefix === "image" ? prefix : null;
}

export interface CandidateFile {
  name: string;
  size: number;
  /** 0 for images. */
  durationSeconds: number;
}

/** Why a file is not added (SPEC §5, §8 upload toasts). */
export type Refusal = "double_file" | "limit_single_file" | "limits_minutes" | "limits_storage";

export interface CheckContext {
  /** Names already in the list or in the media library. */
  takenNames: Iterable<string>;
  /** What the files already in the list add up to. */
  listedSeconds: number;
  listedBytes: number;
  /** What the user has left; null when not known (offline): the server checks again anyway. */
  quotas: Quotas | null;
}

/**
 * Decides which new files join the upload list, in order: a name already taken is a double file; a file
 * above the single-file size or length is refused; then the running totals must stay within the remaining
 * processing minutes and storage.
 */
export function checkNewFiles<F extends CandidateFile>(files: readonly F[], context: CheckContext) {
  const taken = new Set(context.takenNames);
  let seconds = context.listedSeconds;
  let bytes = context.listedBytes;
  const accepted: F[] = [];
  const refused: { file: F; reason: Refusal }[] = [];
  const quotas = context.quotas;
  for (const file of files) {
    const reason: Refusal | null = taken.has(file.name)
      ? "double_file"
      : quotas && (file.size > quotas.uploadMaxSizeBytes || file.durationSeconds > quotas.uploadMaxLengthMinutes * 60)
        ? "limit_single_file"
        : quotas && seconds + file.durationSeconds > quotas.processingMinutes * 60
          ? "limits_minutes"
          : quotas && bytes + file.size > quotas.storageBytes
            ? "limits_storage"
            : null;
    if (reason) {
      refused.push({ file, reason });
      continue;
    }
    taken.add(file.name);
    seconds += file.durationSeconds;
    bytes += file.size;
    accepted.push(file);
  }
  return { accepted, refused };
}
