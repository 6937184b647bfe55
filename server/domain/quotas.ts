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

/** What a user still has under their plan (SPEC §3 Quotas); never negative. */
export function remainingQuotas(limits: PlanLimits, usage: Usage) {
  return {
    uploadMaxSizeBytes: limits.upload_max_size_mb * BYTES_PER_MB,
    uploadMaxLengthMinutes: limits.upload_max_length_minutes,
    processingMinutes: Math.max(0, limits.monthly_minutes - usage.usedMinutesThisPeriod),
    storageBytes: Math.max(0, limits.storage_gb * BYTES_PER_GB - usage.usedStorageBytes),
  };
}
