import { useEffect, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type { SharePage } from "../../../api/share";
import { Button, Spinner } from "../../ui/Button";
import { Player } from "../../ui/Player";
import { worker } from "../../worker";
import "./share.css";

type Loaded = { state: "loading" } | { state: "shown"; page: SharePage } | { state: "not_available" } | { state: "failed" };

/** Unlisted, private and missing pages stay out of search engines; only a public page may be indexed. */
function useRobots(indexable: boolean) {
  useEffect(() => {
    if (indexable) return;
    const meta = document.createElement("meta");
    meta.name = "robots";
    meta.content = "noindex, nofollow";
    document.head.append(meta);
    return () => meta.remove();
  }, [indexable]);
}

/**
 * A share page (SPEC §6): the finished video with its subtitle tracks, title and description, for anyone the owner's
 * privacy lets in (a private page only for the owner, signed in). Anything else — an unknown or revoked link, a
 * private page, a project reopened or deleted — is "not available", without saying which.
 */
export function WatchView({ token }: { token: string }) {
  const { t } = useLingui();
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    setLoaded({ state: "loading" });
    void worker.sharePage(token).then((result) => {
      if (!current) return;
      if (result.ok) setLoaded({ state: "shown", page: result.data });
      else if (result.failure.kind === "body" && result.failure.status === 404) setLoaded({ state: "not_available" });
      else if (result.failure.kind === "bad_request") setLoaded({ state: "not_available" });
      else setLoaded({ state: "failed" });
    });
    return () => {
      current = false;
    };
  }, [token, attempt]);

  useRobots(loaded.state === "shown" && loaded.page.privacy === "public");
  const title = loaded.state === "shown" ? loaded.page.name : null;
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = title;
    return () => void (document.title = before);
  }, [title]);

  return (
    <main id="main" className="watch-page">
      {loaded.state === "loading" && <Spinner label={t`Loading the video…`} />}
      {loaded.state === "not_available" && (
        <div className="centered-page">
          <h1>
            <Trans>This video is not available</Trans>
          </h1>
          <p>
            <Trans>The link may be mistyped, or its owner has made the video private or stopped sharing it.</Trans>
          </p>
          <Link to="/" className="btn btn-secondary">
            <Trans>Go to Cutroom</Trans>
          </Link>
        </div>
      )}
      {loaded.state === "failed" && (
        <div className="centered-page" role="alert">
          <h1>
            <Trans>The video could not be loaded</Trans>
          </h1>
          <p>
            <Trans>Check your connection and try again.</Trans>
          </p>
          <Button variant="primary" onPress={() => setAttempt((n) => n + 1)}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      )}
      {loaded.state === "shown" && (
        <article className="watch-video">
          <h1>{loaded.page.name}</h1>
          <Player
            src={loaded.page.video.url}
            label={loaded.page.name}
            poster={loaded.page.poster ?? undefined}
            tracks={loaded.page.tracks.map((track) => ({ src: track.url, srclang: track.locale, label: track.label }))}
          />
          {loaded.page.description && <p className="watch-description">{loaded.page.description}</p>}
        </article>
      )}
    </main>
  );
}
