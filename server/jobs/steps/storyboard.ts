import { buildStoryboard } from "../../services/storyboard-builder";
import type { ProjectState } from "./project";
import type { Step } from "./step";

/**
 * The first storyboard: scenes from the files' speech analysis (silences cut when the project asks), with
 * the lines of any words already recognised. Once built it is the person's: a resumed job never rebuilds it.
 */
export const storyboardStep: Step<ProjectState> = {
  name: "storyboard",
  reads: ["media_files.analysis", "media_files.transcript"],
  writes: ["scenes", "project.scenes_count", "project.removed_length", "project.subtitles_lines_count"],
  weight: 1,
  done: ({ project }) => project.scenes_count > 0,
  async run(state) {
    const settings = JSON.parse(state.project.settings) as { autocutsilences?: number };
    state.project = await buildStoryboard(state.deps.db, state.project, state.files, !!settings.autocutsilences);
  },
};
