import { BUSY_STATUSES, type Project } from "../../api/projects";

/** How a project shows in the app (SPEC §2 Project list, §4 Project status). */
export type ProjectState = "deleted" | "queued" | "not_started" | "busy" | "preview_ready" | "render_ready" | "failed";

/** Deleted wins (no actions left), then the queue flag, then the status. */
export function projectState(project: Pick<Project, "deleted_at" | "is_queued" | "status">): ProjectState {
  if (project.deleted_at) return "deleted";
  if (project.is_queued === 1) return "queued";
  if (BUSY_STATUSES.includes(project.status)) return "busy";
  switch (project.status) {
    case "Preview Ready":
      return "preview_ready";
    case "Render Ready":
      return "render_ready";
    case "Failed":
      return "failed";
    default:
      return "not_started";
  }
}

/**
 * Render Ready is finished (SPEC §4): the storyboard and the options are read-only until it is reopened;
 * the API refuses scene and settings edits with project_finished meanwhile.
 */
export const isFinished = (project: Pick<Project, "deleted_at" | "is_queued" | "status">) => projectState(project) === "render_ready";

/** Preview Ready and Render Ready have something to watch. */
export const isReady = (project: Pick<Project, "status">) => project.status === "Preview Ready" || project.status === "Render Ready";

/**
 * Where opening a project goes (SPEC §2 Project list): Render Ready → the share tab; no raw preview
 * (export_raw_url) → the preview route; otherwise the edit screen's storyboard.
 */
export function openTarget(project: Pick<Project, "status" | "export_raw_url">): "share" | "preview" | "storyboard" {
  if (project.status === "Render Ready") return "share";
  if (!project.export_raw_url) return "preview";
  return "storyboard";
}

/** The default picture of a project with no thumbnail yet. */
export const DEFAULT_THUMBNAIL = "/default-thumbnail.svg";
