import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useLiveQuery } from "dexie-react-hooks";
import type { Project } from "../../../api/projects";
import { db } from "../../db";
import { formatPercent } from "../../lib/format";
import { displayedProgress } from "../../lib/progress";
import { minutesLeft, progressPhase } from "../../lib/progress-phase";
import { ProgressBar } from "../../ui/ProgressBar";
import "./progress.css";

/** True while the progress stream delivers events (issue 13); otherwise the screen's 60 s poll updates it. */
export function useLiveProgress(): boolean {
  const state = useLiveQuery(async () => {
    const row = await db.meta.get("progressStream");
    return row?.key === "progressStream" ? row.value.state : undefined;
  }, []);
  return state === "live";
}

/** The heading of a busy project's progress: waiting in the queue, creating, or rendering. */
export function ProgressTitle({ project }: { project: Project }) {
  const phase = progressPhase(project);
  if (phase === "queued") return <Trans>Waiting in the queue</Trans>;
  if (phase === "rendering") return project.status === "Final Rendering" ? <Trans>Rendering your export</Trans> : <Trans>Rendering your video</Trans>;
  return <Trans>Creating your project</Trans>;
}

/**
 * The progress of a busy project as it moves: the bar, the queue position while it waits ("N projects
 * ahead of yours"), and the time left when the server has measured a basis for it (never a guess).
 */
export function ProgressDetails({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const phase = progressPhase(project);
  const progress = displayedProgress(project.working_progress, project.working_progress_raw);
  const ahead = project.queue_ahead;
  const seconds = project.seconds_left;
  const minutes = seconds == null ? 0 : minutesLeft(seconds);
  return (
    <div className="progress-details">
      <ProgressBar label={t`Progress`} value={progress} valueLabel={formatPercent(progress, i18n.locale)} />
      {phase === "queued" && ahead != null && (
        <p className="progress-queue">
          {ahead === 0 ? <Trans>Yours is next in the queue.</Trans> : <Plural value={ahead} one="# project ahead of yours" other="# projects ahead of yours" />}
        </p>
      )}
      {seconds != null && (
        <p className="progress-eta">
          {seconds < 60 ? <Trans>Less than a minute left</Trans> : <Plural value={minutes} one="About # minute left" other="About # minutes left" />}
        </p>
      )}
    </div>
  );
}
