import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db";
import type { ProjectRow } from "../../db/projects";
import type { SpeechToText } from "../../speech";
import type { FileStore } from "../../storage/local";

/**
 * A named step of the pipeline (issue 14, "Shape of the pipeline"). Each lives in a file of its own under
 * server/jobs/steps/ and declares what it reads and writes and its share of the progress bar; a sequence is
 * a list of steps (pipeline.ts), so adding a step is adding a file and a line. A step resumes on its own:
 * `done` looks at its outputs, and a resumed job skips every step whose outputs exist.
 */
export interface Step<S> {
  name: string;
  /** What it needs: outputs of earlier steps of its sequence, or the sequence's inputs (checkSteps). */
  reads: readonly string[];
  /** What it makes (store keys, columns, fields of the state). */
  writes: readonly string[];
  /** Its share of its sequence's progress, against the other steps' weights (0: too quick to show). */
  weight: number;
  /** True when its outputs already exist: the step is skipped. */
  done(state: S): boolean | Promise<boolean>;
  /** Makes its outputs; `progress` takes 0..1 of this step. */
  run(state: S, progress: (fraction: number) => Promise<void>): Promise<void>;
}

/** What every step may use: the server's services. */
export interface StepDeps {
  db: Db;
  store: FileStore;
  log: FastifyBaseLogger;
  /** DATA_DIR/tmp: each job attempt's scratch folder lives here, where the start-up sweep finds it (leftovers.ts). */
  tmpDir?: string;
  /** Called when a project's render (a preview or the final one) finished or failed: the push notifier. */
  onRenderDone?: (project: ProjectRow, ok: boolean) => Promise<void>;
  /** Speech recognition for subtitles (issue 14); null or absent: turned off (STT=off), projects say so. */
  speech?: SpeechToText | null;
  /** Queues the project's subtitle steps (a `transcribe` job) after its Preview Ready; absent: they run in the job that asked. */
  enqueueSubtitles?: (project: ProjectRow) => Promise<void>;
  /** Issue 15: where songs' files are (db/songs.ts songFilePath); absent: the repository's music/ and no MUSIC_DIR. */
  music?: { catalogueDir: string; musicDir: string | null };
  /** Issue 17: face detection (FACE_DETECTION, FACE_SAMPLES_PER_SECOND, FACE_WORKERS); absent: on, at the defaults. */
  faces?: { enabled: boolean; fps?: number; workers?: number };
}

/**
 * Throws when a step reads something neither the sequence's inputs nor an earlier step provide, or when two
 * steps share a name: a sequence put together in the wrong order fails at start-up, not halfway through a job.
 */
export function checkSteps<S>(steps: readonly Step<S>[], inputs: readonly string[]): readonly Step<S>[] {
  const known = new Set(inputs);
  const names = new Set<string>();
  for (const step of steps) {
    if (names.has(step.name)) throw new Error(`pipeline: two steps named ${step.name}`);
    names.add(step.name);
    const missing = step.reads.filter((r) => !known.has(r));
    if (missing.length) throw new Error(`pipeline: step ${step.name} reads ${missing.join(", ")}, which nothing before it writes`);
    if (!(step.weight >= 0)) throw new Error(`pipeline: step ${step.name} has no weight`);
    for (const w of step.writes) known.add(w);
  }
  return steps;
}

/**
 * Runs the steps in order, skipping those already done, and shares `onProgress` (0..1 of the whole sequence)
 * out by their declared weights: a step's own 0..1 moves the bar across its share, a skipped step's share is
 * passed at once.
 */
export async function runSteps<S>(steps: readonly Step<S>[], state: S, onProgress: (fraction: number) => Promise<void> = async () => {}, signal?: AbortSignal): Promise<void> {
  const total = steps.reduce((sum, s) => sum + s.weight, 0) || 1;
  let before = 0;
  for (const step of steps) {
    signal?.throwIfAborted();
    const share = step.weight;
    if (!(await step.done(state))) {
      await step.run(state, (fraction) => onProgress((before + Math.min(1, Math.max(0, fraction)) * share) / total));
    }
    before += share;
    await onProgress(before / total);
  }
}
