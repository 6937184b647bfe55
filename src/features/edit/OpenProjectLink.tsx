import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import type { Project } from "../../../api/projects";
import { track } from "../../lib/analytics";
import { openTarget } from "../../lib/project-state";

export interface OpenProjectLinkProps {
  project: Pick<Project, "id" | "status" | "export_raw_url">;
  className?: string;
  "aria-label"?: string;
  children: ReactNode;
}

/**
 * A link that opens a project where SPEC §2 says: the share tab, the preview, or the storyboard. Every such
 * link counts as SPEC §7's "Project Opened" (a card, its Edit or Export button, home's latest projects).
 */
export function OpenProjectLink({ project, children, ...rest }: OpenProjectLinkProps) {
  const target = openTarget(project);
  const props = { ...rest, onClick: () => track("Project Opened") };
  if (target === "preview") {
    return (
      <Link to="/projects/$id/preview" params={{ id: project.id }} {...props}>
        {children}
      </Link>
    );
  }
  return (
    <Link to={`/projects/$id/${target}`} params={{ id: project.id }} {...props}>
      {children}
    </Link>
  );
}
