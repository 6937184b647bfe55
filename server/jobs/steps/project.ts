import type { SubtitlesUnavailable } from "../../../api/projects";
import type { MediaRow } from "../../db/media";
import type { ProjectRow } from "../../db/projects";
import type { JobContext, JobPayloads } from "../types";
import type { StepDeps } from "./step";
import type { createTranscribeStep } from "./transcribe";

/** What a final render request asked for (JobPayloads.render); a preview has none of it. */
export type FinalOptions = Pick<JobPayloads["render"], "tier" | "aspect" | "watermark" | "crop">;

/** The statuses a project has while its job still has work to do (set by the request that queued it). */
export const ONCE_STARTED = { create: ["new", "Working"], render: ["Rendering", "Final Rendering"] };

/** What the steps of a project (media files → storyboard → render …) share while they run. */
export interface ProjectState {
  deps: StepDeps;
  ctx: JobContext;
  /** The project's row as the steps have changed it so far. */
  project: ProjectRow;
  /** The project's media files, in order, as the steps have changed them so far. */
  files: MediaRow[];
  /** Runs the media steps of one file (once per file in this process, however many jobs ask). */
  ingest: (mediaId: number, ctx: JobContext, onProgress?: (fraction: number) => Promise<void>) => Promise<MediaRow>;
  /** Speech recognition of the project's files (one recognition per file in this process). */
  transcriber: ReturnType<typeof createTranscribeStep>;
  /** Why the project has no subtitles, as the transcribe step found (null: it has them, or nothing is spoken). */
  unavailable?: SubtitlesUnavailable | null;
  /** What the render step makes: the preview (absent) or a final render with its options. */
  render?: { final: boolean; options: FinalOptions };
}
