import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import { useConfig } from "../../app/hooks";
import { db } from "../../db";
import { Player } from "../../ui/Player";
import { HOME_POSTS, type HomePost } from "./posts";

const KIND_LABELS = { tip: msg`Tip`, update: msg`Update` } as const;

/** How long the tips video may take to show its first frame before it counts as unreachable. */
export const TIPS_VIDEO_WAIT_MS = 15_000;

type VideoState = "loading" | "ready" | "failed";

/**
 * Issue 18: the video shows once it has loaded; a host that answers with an error, or does not answer in time,
 * leaves no dead black player behind (the card is dropped).
 */
function useVideoState(src: string | null | undefined) {
  const ref = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<VideoState>("loading");
  useEffect(() => {
    setState("loading");
    const video = ref.current;
    if (!src || !video) return;
    if (video.readyState >= HTMLMediaElement.HAVE_METADATA) return setState("ready");
    if (video.error) return setState("failed");
    const ready = () => setState("ready");
    const failed = () => setState((s) => (s === "ready" ? s : "failed"));
    const timer = window.setTimeout(failed, TIPS_VIDEO_WAIT_MS);
    video.addEventListener("loadedmetadata", ready);
    video.addEventListener("error", failed);
    return () => {
      window.clearTimeout(timer);
      video.removeEventListener("loadedmetadata", ready);
      video.removeEventListener("error", failed);
    };
  }, [src]);
  return { ref, state };
}

/** A post as Home shows it, in the interface language. */
interface ShownPost {
  id: string;
  kind: HomePost["kind"];
  title: string;
  body: string;
  url: string | null;
}

/**
 * The operator's feed (HOME_FEED, read by the server) when it gave entries in this language; otherwise the posts
 * shipped with the app, translated with the rest of it.
 */
function usePosts(): ShownPost[] {
  const { i18n } = useLingui();
  const feed = useLiveQuery(() => db.meta.get("homeFeed"), []);
  const entries = feed?.key === "homeFeed" && feed.value.locale === i18n.locale ? feed.value.entries : null;
  if (entries) return entries;
  return HOME_POSTS.map((post) => ({ id: post.id, kind: post.kind, title: i18n._(post.title), body: i18n._(post.body), url: null }));
}

/** The quick-tips video (when the operator set one and it loads) and the tips & updates posts. */
export function Tips() {
  const { t, i18n } = useLingui();
  const posts = usePosts();
  const config = useConfig();
  const src = config?.links.tipsVideo;
  const video = useVideoState(src);
  const showVideo = !!src && video.state !== "failed";
  return (
    <section className="home-tips" aria-labelledby="tips-title">
      <h2 id="tips-title">
        <Trans>Tips and updates</Trans>
      </h2>
      <div className={video.state === "ready" ? "home-tips-grid" : "home-tips-grid home-tips-grid-posts"}>
        {showVideo && (
          <div className="card tips-video" hidden={video.state !== "ready"}>
            <Player src={src} label={t`Quick tips video`} videoRef={video.ref} />
            <p className="muted">
              <Trans>Quick tips: from upload to a finished video in three minutes.</Trans>
            </p>
          </div>
        )}
        <ul className="posts" aria-label={t`Tips and updates`}>
          {posts.map((post) => (
            <li key={post.id} className="card post">
              <span className={`post-kind post-kind-${post.kind}`}>{i18n._(KIND_LABELS[post.kind])}</span>
              <h3>{post.title}</h3>
              <p>{post.body}</p>
              {post.url && (
                <a href={post.url} target="_blank" rel="noopener noreferrer">
                  <Trans>Read more</Trans>
                  <span className="visually-hidden">: {post.title}</span>
                </a>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
