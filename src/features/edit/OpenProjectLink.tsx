import { Link } from "@tanstack/react-router";
import type { MouseEventHandler, ReactNode } from "react";
import type { Project } from "../../../api/projects";
import { track } from "../../lib/analytics";
import { openTarget } from "../../lib/project-state";

export interface OpenProjectLinkProps {
  project: Pick<Project, "id" | "status" | "export_raw_url">;
  className?: string;
  "aria-label"?: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
  children: ReactNode;
}

/**
 * A link that opens a project where SPEC §2 says: the share tab, the preview, or the storyboard. Every such
 * link counts as SPEC §7's "Project Opened" (a card, its Edit or Export button, home's latest projects).
 */
export function OpenProjectLink({ project, children, onClick, ...rest }: OpenProjectLinkProps) {
  const target = openTarget(project);
  const props = {
    ...rest,
    onClick: (event: Parameters<MouseEventHandler<HTMLAnchorElement>>[0]) => {
      track("Project Opened");
      onClick?.(event);
    },
  };
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
