import { Trans } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Button } from "../../ui/Button";
import { preloadStoryboard } from "./preload";

/** The preview's Edit project: waits for the first 25 scenes (SPEC §2 Project preview), then opens the storyboard. */
export function EditProjectButton({ projectId }: { projectId: number }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  async function edit() {
    setPending(true);
    await preloadStoryboard(projectId);
    setPending(false);
    void navigate({ to: "/projects/$id/storyboard", params: { id: projectId } });
  }
  return (
    <Button variant="primary" onPress={() => void edit()} isPending={pending}>
      <Trans>Edit project</Trans>
    </Button>
  );
}
