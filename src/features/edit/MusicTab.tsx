import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import type { Project } from "../../../api/projects";
import { SongPicker } from "../music/SongPicker";
import { useSong, useSongId } from "../music/useSongs";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { Switch } from "../../ui/Switch";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { MUSIC_LEVEL_LABELS } from "./messages";
import { isLocked } from "./NeedsRenderAlert";

/**
 * The Music tab: the project's music as it stands (its song with the song's licence; the options are on the
 * Options tab), Reset volumes — every scene back to standard levels, auto-duck on or off — and the song
 * picker (SPEC §2 Music picker, issue 15).
 */
export function MusicTab({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const [resetOpen, setResetOpen] = useState(false);
  const [autoduck, setAutoduck] = useState(project.autoduck === 1);
  const onOff = (on: boolean) => (on ? t`On` : t`Off`);
  const songId = useSongId(project);
  const song = useSong(songId);

  async function resetVolumes() {
    const result = await worker.resetVolumes(project.id, autoduck);
    if (result.ok) toast({ variant: "success", title: t`Volumes reset` });
    else toast({ variant: "danger", title: t`Could not reset the volumes`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <div className="music-tab">
      <section className="card music-summary" aria-labelledby="music-summary-title">
        <h2 id="music-summary-title" className="section-title">
          <Trans>Music of this project</Trans>
        </h2>
        <dl className="summary-list">
          <div>
            <dt>
              <Trans>Automatic music</Trans>
            </dt>
            <dd>{onOff(project.autobgm === 1)}</dd>
          </div>
          <div>
            <dt>
              <Trans>Song</Trans>
            </dt>
            <dd>
              {song ? (
                <Trans>
                  {song.title} by {song.author}
                </Trans>
              ) : songId !== null ? (
                // The mirror is still being read (undefined) or does not list the song yet.
                song === null && <Trans>Song no. {songId}</Trans>
              ) : project.autobgm ? (
                <Trans>Chosen by Cutroom</Trans>
              ) : (
                <Trans>None</Trans>
              )}
            </dd>
          </div>
          {song && (
            <div>
              <dt>
                <Trans>Licence</Trans>
              </dt>
              <dd>{song.licence.id}</dd>
            </div>
          )}
          <div>
            <dt>
              <Trans>Music volume</Trans>
            </dt>
            <dd>{i18n._(MUSIC_LEVEL_LABELS[project.musicType])}</dd>
          </div>
          <div>
            <dt>
              <Trans>Auto-duck</Trans>
            </dt>
            <dd>{onOff(project.autoduck === 1)}</dd>
          </div>
        </dl>
        {song?.licence.attribution && (
          <div className="song-attribution">
            <p>
              <Trans>This song's licence asks for this credit where you publish the video:</Trans>
            </p>
            <blockquote>{song.licence.attribution}</blockquote>
          </div>
        )}
        <p className="muted">
          <Trans>
            Change the automatic music, the music volume and auto-duck in{" "}
            <Link to="/projects/$id/settings" params={{ id: project.id }}>
              Options
            </Link>
            .
          </Trans>
        </p>
      </section>

      <section className="card music-reset" aria-labelledby="music-reset-title">
        <h2 id="music-reset-title" className="section-title">
          <Trans>Scene volumes</Trans>
        </h2>
        <p className="muted">
          <Trans>Put the footage and music volume of every scene back to standard.</Trans>
        </p>
        <Button
          variant="secondary"
          isDisabled={isLocked(project)}
          onPress={() => {
            setAutoduck(project.autoduck === 1);
            setResetOpen(true);
          }}
        >
          <Trans>Reset volumes</Trans>
        </Button>
        <ConfirmDialog isOpen={resetOpen} onOpenChange={setResetOpen} title={t`Reset every scene's volume?`} confirmLabel={t`Reset volumes`} onConfirm={resetVolumes}>
          <div className="recreate-options">
            <p>
              <Trans>The volumes you set on each scene are lost.</Trans>
            </p>
            <Switch isSelected={autoduck} onChange={setAutoduck} description={t`Lowers the music while someone speaks`}>
              <Trans>Auto-duck</Trans>
            </Switch>
          </div>
        </ConfirmDialog>
      </section>

      <SongPicker project={project} currentId={songId} />
    </div>
  );
}
