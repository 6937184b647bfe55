import { PROGRESS_DONE, PROGRESS_MIN_SHOWN } from "./constants";

/**
 * SPEC §2 Project preview: the mean of working_progress and working_progress_raw while the raw preview
 * is under 100, then the working progress alone; never below 1. A copy of server/domain's rule, so the
 * app does not import the server.
 */
export function displayedProgress(workingProgress: number, rawProgress: number): number {
  const value = rawProgress < PROGRESS_DONE ? (workingProgress + rawProgress) / 2 : workingProgress;
  return Math.max(PROGRESS_MIN_SHOWN, Math.min(PROGRESS_DONE, value));
}
