import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import type { Result } from "../../../workers/status";
import type { DownloadLink } from "../../../workers/downloads";
import { Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { SeePlansLink, startBrowserDownload, PaidPlanDownloadText } from "./DownloadButton";

export type DirectDownloadKind = "video" | "subtitles";

type Outcome = { state: "asking" } | { state: "started"; link: DownloadLink } | { state: "upgrade" } | { state: "failed"; result: Result<DownloadLink> & { ok: false } };

/**
 * The direct links on the web host (SPEC §7: GET downloadrender and subtitles under /projects/{id}/): a plain
 * browser link to this page starts the download for the signed-in owner — the page asks for the short-lived
 * signed link and hands it to the browser — and says why when it cannot (free plan, nothing to download yet,
 * not this user's project, offline).
 */
export function DirectDownloadView({ projectId, kind }: { projectId: number; kind: DirectDownloadKind }) {
  const { t, i18n } = useLingui();
  const [outcome, setOutcome] = useState<Outcome>({ state: "asking" });
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    void (kind === "video" ? worker.downloadLink(projectId) : worker.subtitlesLink(projectId)).then((result) => {
      if (result.ok) {
        startBrowserDownload(result.data.url, result.data.filename);
        setOutcome({ state: "started", link: result.data });
      } else if (result.failure.kind === "body" && result.failure.body.code === "upgrade_required") setOutcome({ state: "upgrade" });
      else setOutcome({ state: "failed", result });
    });
  }, [projectId, kind]);

  const title = kind === "video" ? t`Download the video` : t`Download the subtitles`;
  const back = (
    <Link to="/projects/$id/share" params={{ id: projectId }} className="btn btn-secondary">
      <Trans>Back to the project</Trans>
    </Link>
  );

  return (
    <section className="card rendering-card" aria-labelledby="direct-download-title">
      <h1 id="direct-download-title" className="section-title">
        {title}
      </h1>
      {outcome.state === "asking" && <Spinner label={t`Preparing your download…`} />}
      {outcome.state === "started" && (
        <>
          <p role="status">
            <Trans>
              Your download has started. If it has not, <a href={outcome.link.url} download={outcome.link.filename}>download {outcome.link.filename}</a>.
            </Trans>
          </p>
          {back}
        </>
      )}
      {outcome.state === "upgrade" && (
        <>
          <PaidPlanDownloadText />
          <div className="actions">
            {back}
            <SeePlansLink />
          </div>
        </>
      )}
      {outcome.state === "failed" && (
        <>
          <p className="notice notice-danger" role="alert">
            {failureMessage(i18n, outcome.result.failure)}
          </p>
          {outcome.result.failure.kind === "body" && outcome.result.failure.body.code === "not_found" ? (
            <Link to="/open" className="btn btn-secondary">
              <Trans>Back to projects</Trans>
            </Link>
          ) : (
            back
          )}
        </>
      )}
    </section>
  );
}
