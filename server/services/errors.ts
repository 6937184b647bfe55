import type { ErrorCode, FieldErrorCode } from "../../api/errors";

/** A refusal the user can act on. The HTTP layer maps `code` to a status. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, FieldErrorCode>,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what = "Not found") => new DomainError("not_found", what);

/** SPEC §4: a Render Ready project is finished — its storyboard and settings are read-only until it is reopened. */
export function mustNotBeFinished(project: { status: string }) {
  if (project.status === "Render Ready") throw new DomainError("project_finished", "This project is finished: reopen it to edit it again");
}
