import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import { projectState, type ProjectState } from "../../lib/project-state";
import { progressPhase } from "../../lib/progress-phase";

const STATE_LABELS: Record<ProjectState, MessageDescriptor> = {
  deleted: msg`Deleted`,
  queued: msg`In queue`,
  not_started: msg`Not started`,
  busy: msg`Creating project`,
  preview_ready: msg`Preview ready`,
  render_ready: msg`Render ready`,
  failed: msg`Failed`,
};

const RENDERING_LABEL = msg`Rendering`;

/** The project's state as a coloured label. */
export function ProjectStatusBadge({ project }: { project: Pick<Project, "deleted_at" | "is_queued" | "status"> }) {
  const { i18n } = useLingui();
  const state = projectState(project);
  // A busy project that renders says so (issue 13), not "Creating project".
  const label = progressPhase(project) === "rendering" ? RENDERING_LABEL : STATE_LABELS[state];
  return <span className={`status-badge status-${state}`}>{i18n._(label)}</span>;
}
