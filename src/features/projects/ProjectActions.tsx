import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import { track } from "../../lib/analytics";
import type { ProjectState } from "../../lib/project-state";
import { ConfirmButton } from "../../ui/ConfirmDialog";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import type { Result } from "../../../workers/status";
import { failureMessage } from "../errors";
import { OpenProjectLink } from "../edit/OpenProjectLink";

/** What a card offers in each state (SPEC §2 Project list). Every lasting change asks first. */
export function ProjectActions({ project, state }: { project: Project; state: ProjectState }) {
  const { t, i18n } = useLingui();
  const name = project.name;

  async function run(action: () => Promise<Result<unknown>>, failedTitle: string) {
    const result = await action();
    if (!result.ok) toast({ variant: "danger", title: failedTitle, description: failureMessage(i18n, result.failure) });
  }

  const remove = (
    <ConfirmButton
      label={<Trans>Delete</Trans>}
      aria-label={t`Delete ${name}`}
      buttonVariant="ghost"
      title={t`Delete “${name}”?`}
      confirmLabel={t`Delete project`}
      onConfirm={() => {
        track("Project Deleting Started");
        return run(() => worker.deleteProject(project.id), t`Could not delete the project`);
      }}
    >
      <p>
        <Trans>The project and its renders are removed. This cannot be undone.</Trans>
      </p>
    </ConfirmButton>
  );

  switch (state) {
    case "queued":
      return (
        <ConfirmButton
          label={<Trans>Cancel from queue</Trans>}
          aria-label={t`Cancel ${name} from the queue`}
          title={t`Take “${name}” out of the queue?`}
          confirmLabel={t`Cancel from queue`}
          cancelLabel={t`Keep in queue`}
          onConfirm={() => {
            track("Project Unqueue Started");
            return run(() => worker.dequeueProject(project.id), t`Could not cancel from the queue`);
          }}
        >
          <p>
            <Trans>The project will not be created. You can restart it or delete it later.</Trans>
          </p>
        </ConfirmButton>
      );
    case "not_started":
      return (
        <>
          <ConfirmButton
            label={<Trans>Restart</Trans>}
            aria-label={t`Restart ${name}`}
            buttonVariant="primary"
            variant="primary"
            title={t`Restart “${name}”?`}
            confirmLabel={t`Restart`}
            onConfirm={() => run(() => worker.restartProject(project.id), t`Could not restart the project`)}
          >
            <p>
              <Trans>The project joins the queue again and starts when earlier projects finish.</Trans>
            </p>
          </ConfirmButton>
          {remove}
        </>
      );
    case "preview_ready":
    case "render_ready":
      return (
        <>
          {/* Edit opens the storyboard (the preview while there is no raw preview); Render Ready the share tab. */}
          <OpenProjectLink project={project} className="btn btn-secondary" aria-label={state === "render_ready" ? t`Export or share ${name}` : t`Edit ${name}`}>
            {state === "render_ready" ? <Trans>Export / share</Trans> : <Trans>Edit</Trans>}
          </OpenProjectLink>
          {remove}
        </>
      );
    case "failed":
      return remove;
    case "busy":
    case "deleted":
      return null;
  }
}
