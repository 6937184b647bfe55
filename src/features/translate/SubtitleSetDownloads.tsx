import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { SubtitleSet } from "../../../api/subtitles";
import { useCurrentUser } from "../../app/hooks";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import type { SubtitlesFormat } from "../../../workers/subtitles";
import { failureMessage } from "../errors";
import { canDownload, PaidPlanDownloadDialog, startBrowserDownload } from "../preview/DownloadButton";

/**
 * A set's WebVTT and SRT downloads (SPEC §7 subtitles, issue 14) through short-lived signed links; free plans
 * see the paid-plan notice instead, as for the video.
 */
export function SubtitleSetDownloads({ set, language }: { set: SubtitleSet; language: string }) {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const [pending, setPending] = useState<SubtitlesFormat | null>(null);
  if (!user || set.status !== "ready" || set.lines.length === 0) return null;

  const download = async (format: SubtitlesFormat) => {
    if (!canDownload(user)) return setUpgradeOpen(true);
    setPending(format);
    // The original lines are the project's own subtitles file; a translation is asked for by its language.
    const result = await worker.subtitleSetLink(set.project_id, { format, locale: set.original ? undefined : set.locale });
    setPending(null);
    if (result.ok) return startBrowserDownload(result.data.url, result.data.filename);
    if (result.failure.kind === "body" && result.failure.body.code === "upgrade_required") return setUpgradeOpen(true);
    toast({ variant: "danger", title: t`Could not download the ${language} subtitles`, description: failureMessage(i18n, result.failure) });
  };

  return (
    <div className="subtitle-set-downloads" role="group" aria-label={t`Download the ${language} subtitles`}>
      <Button variant="secondary" className="btn-small" onPress={() => void download("vtt")} isPending={pending === "vtt"} isDisabled={pending !== null}>
        <Trans>Download VTT</Trans>
      </Button>
      <Button variant="secondary" className="btn-small" onPress={() => void download("srt")} isPending={pending === "srt"} isDisabled={pending !== null}>
        <Trans>Download SRT</Trans>
      </Button>
      <PaidPlanDownloadDialog isOpen={upgradeOpen} onOpenChange={setUpgradeOpen} />
    </div>
  );
}
