import { Trans } from "@lingui/react/macro";

/** The project list (/open). A new account has no projects yet. */
export function ProjectListView() {
  return (
    <section aria-labelledby="projects-title">
      <h1 id="projects-title">
        <Trans>Projects</Trans>
      </h1>
      <p className="empty-state">
        <Trans>No projects</Trans>
      </p>
    </section>
  );
}
