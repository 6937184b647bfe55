import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import { useCurrentUser } from "../../app/hooks";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";

/** SPEC §6: a free plan (video tier below 1, no lifetime deal) cannot download the finished video. */
export const canDownload = (user: { video_tier: number; ltd_tier?: string | null }) => user.video_tier >= 1 || !!user.ltd_tier;

/** Hands a signed link to the browser as a plain download (no bearer header; the server names the file). */
export function startBrowserDownload(url: string, filename: string) {
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * "Download video" of a Render Ready project (SPEC §2 Share and export page): paid plans get the final render
 * through a short-lived signed link; free plans see the upgrade modal with the link to the plans.
 */
export function DownloadButton({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const [pending, setPending] = useState(false);
  if (project.status !== "Render Ready" || !project.final_render || !user) return null;

  const download = async () => {
    // A video bought once (SPEC §6, issue 16) downloads on any plan.
    if (!canDownload(user) && project.export_unlocked !== 1) return setUpgradeOpen(true);
    setPending(true);
    const result = await worker.downloadLink(project.id);
    setPending(false);
    if (result.ok) return startBrowserDownload(result.data.url, result.data.filename);
    if (result.failure.kind === "body" && result.failure.body.code === "upgrade_required") return setUpgradeOpen(true);
    toast({ variant: "danger", title: t`Could not download the video`, description: failureMessage(i18n, result.failure) });
  };

  return (
    <>
      <Button variant="primary" onPress={() => void download()} isPending={pending}>
        <Trans>Download video</Trans>
      </Button>
      <PaidPlanDownloadDialog isOpen={upgradeOpen} onOpenChange={setUpgradeOpen} />
    </>
  );
}

/** SPEC §6: what a free plan sees instead of a download — why, and the way to the plans. */
export function PaidPlanDownloadText() {
  return (
    <p>
      <Trans>On the free plan you can watch the finished video here but not download it. Upgrade to a paid plan to download it.</Trans>
    </p>
  );
}

/** The plan picker on /account. */
export function SeePlansLink() {
  return (
    <a className="btn btn-primary" href="/account#plans">
      <Trans>See plans</Trans>
    </a>
  );
}

/** The upgrade modal of a free user's download (SPEC §6 "an upgrade modal appears"). */
export function PaidPlanDownloadDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={t`Downloading needs a paid plan`}
      actions={
        <>
          <Button variant="secondary" onPress={() => onOpenChange(false)}>
            <Trans>Close</Trans>
          </Button>
          <SeePlansLink />
        </>
      }
    >
      <PaidPlanDownloadText />
    </Dialog>
  );
}
