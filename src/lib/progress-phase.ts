import type { Project } from "../../api/projects";
import { projectState } from "./project-state";

/** What a busy project is doing (issue 13): waiting for the runner, being made, or being rendered. */
export type ProgressPhase = "queued" | "creating" | "rendering";

/** Rendering statuses of SPEC §4 (a preview, the final render, a render request). */
const RENDERING: readonly Project["status"][] = ["Rendering", "Final Rendering", "Rdg Request"];

/** The phase of a busy or queued project; undefined for any other. */
export function progressPhase(project: Pick<Project, "deleted_at" | "is_queued" | "status">): ProgressPhase | undefined {
  const state = projectState(project);
  if (state === "queued") return "queued";
  if (state !== "busy") return undefined;
  return RENDERING.includes(project.status) ? "rendering" : "creating";
}

/** Whole minutes to show for an estimate: at least 1, rounded up (never promises sooner than measured). */
export const minutesLeft = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));
