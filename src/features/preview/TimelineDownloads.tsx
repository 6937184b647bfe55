import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import type { TimelineFormat } from "../../../api/timelines";
import { projectState } from "../../lib/project-state";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { startBrowserDownload } from "./DownloadButton";

/** How long the object URL of a saved file lives after the click (the browser has taken the bytes by then). */
export const REVOKE_AFTER_MS = 1000;

/** Saves bytes fetched by the worker as a file: an object URL behind an `<a download>`, revoked afterwards. */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  startBrowserDownload(url, filename);
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/**
 * "Edit elsewhere" (issue 13, timelines for desktop editors): the storyboard's edit as FCPXML, OpenTimelineIO or
 * a CMX 3600 EDL, offered once the project has a storyboard and is not busy (Preview Ready or Render Ready).
 */
export function TimelineDownloads({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const [pending, setPending] = useState<TimelineFormat | null>(null);
  const state = projectState(project);
  if (state !== "preview_ready" && state !== "render_ready") return null;

  const formats: { format: TimelineFormat; label: string }[] = [
    { format: "fcpxml", label: t`Final Cut Pro / DaVinci Resolve (FCPXML)` },
    { format: "otio", label: t`OpenTimelineIO (.otio)` },
    { format: "edl", label: t`EDL (CMX 3600)` },
  ];

  const download = async (format: TimelineFormat) => {
    setPending(format);
    const result = await worker.timelineFile(project.id, format);
    setPending(null);
    if (result.ok) return saveBlob(result.data.blob, result.data.filename);
    toast({ variant: "danger", title: t`Could not download the timeline`, description: failureMessage(i18n, result.failure) });
  };

  return (
    <section className="card timeline-downloads" aria-labelledby={`timeline-downloads-${project.id}`}>
      <h2 id={`timeline-downloads-${project.id}`} className="section-title">
        <Trans>Edit elsewhere</Trans>
      </h2>
      <p>
        <Trans>Download the edit as a timeline for a desktop editor.</Trans>
      </p>
      <div className="preview-actions">
        {formats.map(({ format, label }) => (
          <Button key={format} variant="secondary" onPress={() => void download(format)} isPending={pending === format} isDisabled={pending !== null && pending !== format}>
            {label}
          </Button>
        ))}
      </div>
    </section>
  );
}
