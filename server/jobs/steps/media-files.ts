import { updateProject } from "../../db/projects";
import type { ProjectState } from "./project";
import type { Step } from "./step";

/**
 * Every media file of the project through its own steps (probe, proxy, thumbnails, speech analysis: the
 * MEDIA_STEPS of pipeline.ts); the files' mean progress is the project's raw preview progress.
 */
export const mediaFilesStep: Step<ProjectState> = {
  name: "media files",
  reads: ["project_media"],
  writes: ["media_files.status", "media_files.analysis", "project.raw_preview_render"],
  weight: 20,
  done: ({ project, files }) => project.raw_preview_render === 1 && project.working_progress_raw >= 100 && files.every((f) => f.status === "ready" && (f.kind === "image" || f.raw_preview_render === 1)),
  async run(state, progress) {
    const { deps, ctx, files } = state;
    const projectId = state.project.id;
    const fractions = new Map<number, number>();
    const reportRaw = async () => {
      const mean = [...fractions.values()].reduce((a, b) => a + b, 0) / Math.max(1, files.length);
      await updateProject(deps.db, projectId, { working_progress_raw: Math.round(mean * 100) });
      await progress(mean);
    };
    for (const [i, file] of files.entries()) {
      files[i] = await state.ingest(file.id, ctx, async (f) => {
        fractions.set(file.id, f);
        await reportRaw();
      });
      fractions.set(file.id, 1);
    }
    await reportRaw();
    state.project = await updateProject(deps.db, projectId, { raw_preview_render: 1, working_progress_raw: 100 });
  },
};
