import type { MediaRow } from "../../db/media";
import type { MediaInfo } from "../../media/probe";
import { mediaKey } from "../../services/library";
import type { StoredAnalysis } from "../../services/storyboard-builder";
import type { JobContext } from "../types";
import type { StepDeps } from "./step";

/** What the steps of a media file (probe → proxy → thumbnails → speech analysis) share while they run. */
export interface MediaState {
  deps: StepDeps;
  ctx: JobContext;
  /** The file's row as the steps have changed it so far (written back at the end, status ready). */
  media: MediaRow;
  /** The stored upload on disk. */
  source: string;
  /** From the probe step. */
  info?: MediaInfo;
  /** `media_files.analysis`: the thumbnails and speech spans found so far. */
  analysis: StoredAnalysis;
}

/** The store key of one of the file's outputs (`proxy.mp4`, `thumbs/…`). */
export const outputKey = (media: Pick<MediaRow, "user_id" | "id">, file: string) => mediaKey(media.user_id, media.id, file);

/** The probe's answer; the probe step runs first in every sequence that reads it (checkSteps). */
export function infoOf(state: MediaState): MediaInfo {
  if (!state.info) throw new Error("pipeline: the probe step has not run");
  return state.info;
}
