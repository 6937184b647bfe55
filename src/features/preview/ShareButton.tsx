import { useState } from "react";
import { Trans } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { Button } from "../../ui/Button";
import { preloadStoryboard } from "../edit/preload";

/**
 * The preview's Share (SPEC §2 Project preview): opens the Preview & Export tab (/projects/{id}/share), where the
 * export form and the share page are, once the first 25 scenes are preloaded like Edit project.
 */
export function ShareButton({ projectId }: { projectId: number }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  async function share() {
    setPending(true);
    await preloadStoryboard(projectId);
    setPending(false);
    void navigate({ to: "/projects/$id/share", params: { id: projectId } });
  }
  return (
    <Button variant="secondary" onPress={() => void share()} isPending={pending}>
      <svg className="icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M4 12v7h16v-7M12 3v12M7 8l5-5 5 5" />
      </svg>
      <Trans>Share</Trans>
    </Button>
  );
}
