import { Trans } from "@lingui/react/macro";

/** The Storyboard tab of the project edit screen (SPEC §2 Storyboard). */
export function Storyboard({ projectId }: { projectId: number }) {
  return (
    <p data-project={projectId}>
      <Trans>Loading the storyboard…</Trans>
    </p>
  );
}
