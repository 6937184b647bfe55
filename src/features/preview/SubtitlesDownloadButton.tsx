import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import { useCurrentUser } from "../../app/hooks";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { canDownload, startBrowserDownload, PaidPlanDownloadDialog } from "./DownloadButton";

/**
 * "Download subtitles" beside "Download video" on a finished project that has subtitle lines (issue 14, SPEC §7
 * subtitles): the WebVTT file of the edit, and beside it the same lines as SubRip (SRT), each through a short-lived
 * signed link; free plans see the upgrade modal.
 */
export function SubtitlesDownloadButton({ project, linesCount }: { project: Project; linesCount: number | undefined }) {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const [pending, setPending] = useState<"vtt" | "srt" | null>(null);
  if (project.status !== "Render Ready" || !project.final_render || !user || !linesCount) return null;

  const download = async (format: "vtt" | "srt") => {
    if (!canDownload(user)) return setUpgradeOpen(true);
    setPending(format);
    const result = format === "srt" ? await worker.subtitlesLink(project.id, { format }) : await worker.subtitlesLink(project.id);
    setPending(null);
    if (result.ok) return startBrowserDownload(result.data.url, result.data.filename);
    if (result.failure.kind === "body" && result.failure.body.code === "upgrade_required") return setUpgradeOpen(true);
    toast({ variant: "danger", title: t`Could not download the subtitles`, description: failureMessage(i18n, result.failure) });
  };

  return (
    <>
      <Button variant="secondary" onPress={() => void download("vtt")} isPending={pending === "vtt"} isDisabled={pending !== null}>
        <Trans>Download subtitles</Trans>
      </Button>
      <Button variant="secondary" onPress={() => void download("srt")} isPending={pending === "srt"} isDisabled={pending !== null}>
        <Trans>Subtitles as SRT</Trans>
      </Button>
      <PaidPlanDownloadDialog isOpen={upgradeOpen} onOpenChange={setUpgradeOpen} />
    </>
  );
}
