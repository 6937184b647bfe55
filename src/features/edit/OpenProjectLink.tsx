import { Link } from "@tanstack/react-router";
import type { MouseEventHandler, ReactNode } from "react";
import type { Project } from "../../../api/projects";
import { openTarget } from "../../lib/project-state";

export interface OpenProjectLinkProps {
  project: Pick<Project, "id" | "status" | "export_raw_url">;
  className?: string;
  "aria-label"?: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
  children: ReactNode;
}

/** A link that opens a project where SPEC §2 says: the share tab, the preview, or the storyboard. */
export function OpenProjectLink({ project, children, ...props }: OpenProjectLinkProps) {
  const target = openTarget(project);
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
