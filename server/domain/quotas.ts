export const BYTES_PER_GB = 1024 ** 3;
export const BYTES_PER_MB = 1024 ** 2;

export interface PlanLimits {
  monthly_minutes: number;
  storage_gb: number;
  upload_max_length_minutes: number;
  upload_max_size_mb: number;
}

export interface Usage {
  usedStorageBytes: number;
  usedMinutesThisPeriod: number;
}

/** A file of a project being created, as the processing-minutes rule sees it. */
export interface ChargeableFile {
  kind: "video" | "audio" | "image";
  durationSeconds: number;
  /** Some earlier project of the user (deleted ones included) was made from this file. */
  inEarlierProject: boolean;
}

/**
 * Processing minutes (SPEC §3 Quotas, issue 12 item 6). What is charged, each in the calendar month it happens:
 * - a file's length when it is added to the library (its own processing: proxy, thumbnails, analysis);
 * - a project's files' lengths when the project is created, except for a file's first project, which
 *   its upload already paid for (the wizard uploads a file and makes one project of it: charged once,
 *   not twice). Every further project made from the same file is charged its length again, deleted
 *   projects included, so deleting and re-creating does not make processing free.
 * Images cost no minutes. Restarting a project that failed or left the queue charges nothing more.
 * A clips project and a file inserted into a project count the same way, by whole files (their
 * refusal comes at the next project: only POST /createproject is refused up front).
 * db/media.ts usageOf sums the same rule over the month.
 */
export function projectChargeMinutes(files: readonly ChargeableFile[]): number {
  return files.filter((f) => f.kind !== "image" && f.inEarlierProject).reduce((sum, f) => sum + f.durationSeconds, 0) / 60;
}

/**
 * Most projects one user may have queued or processing at once (issue 12 item 6): one account cannot
 * fill the shared queue. Library items do not count (their processing is the upload's).
 */
export const MAX_QUEUED_PROJECTS = { free: 10, paid: 50 } as const;

export const queuedProjectsCap = (paid: boolean) => (paid ? MAX_QUEUED_PROJECTS.paid : MAX_QUEUED_PROJECTS.free);

/** What a user still has under their plan (SPEC §3 Quotas); never negative. */
export function remainingQuotas(limits: PlanLimits, usage: Usage) {
  return {
    uploadMaxSizeBytes: limits.upload_max_size_mb * BYTES_PER_MB,
    uploadMaxLengthMinutes: limits.upload_max_length_minutes,
    processingMinutes: Math.max(0, limits.monthly_minutes - usage.usedMinutesThisPeriod),
    storageBytes: Math.max(0, limits.storage_gb * BYTES_PER_GB - usage.usedStorageBytes),
  };
}
