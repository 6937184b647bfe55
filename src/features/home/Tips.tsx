import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useConfig } from "../../app/hooks";
import { Player } from "../../ui/Player";
import { HOME_POSTS, type HomePost } from "./posts";

const KIND_LABELS = { tip: msg`Tip`, update: msg`Update` } as const;

/** The quick-tips video and the tips & updates posts. */
export function Tips() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  return (
    <section className="home-tips" aria-labelledby="tips-title">
      <h2 id="tips-title">
        <Trans>Tips and updates</Trans>
      </h2>
      <div className="home-tips-grid">
        <div className="card tips-video">
          {config && <Player src={config.links.tipsVideo} label={t`Quick tips video`} />}
          <p className="muted">
            <Trans>Quick tips: from upload to a finished video in three minutes.</Trans>
          </p>
        </div>
        <ul className="posts" aria-label={t`Tips and updates`}>
          {HOME_POSTS.map((post: HomePost) => (
            <li key={post.id} className="card post">
              <span className={`post-kind post-kind-${post.kind}`}>{i18n._(KIND_LABELS[post.kind])}</span>
              <h3>{i18n._(post.title)}</h3>
              <p>{i18n._(post.body)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
