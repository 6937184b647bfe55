import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type { UserRow } from "../db";
import { formatStorage } from "../lib/format";
import { useConfig } from "./hooks";
import { Logo } from "./Logo";
import { UserMenu } from "./UserMenu";

/** New project, project list, storage badge, Upgrade for free users, the user menu. */
export function TopBar({ user }: { user: UserRow }) {
  const { t } = useLingui();
  const config = useConfig();
  const storage = formatStorage(user.total_used_storage, user.max_storage);
  return (
    <header className="top-bar">
      <Logo />
      <div className="top-bar-end">
        {config?.betaHost && config.links.aiProduct && (
          <a className="badge" href={config.links.aiProduct}>
            <Trans>See production version</Trans>
          </a>
        )}
        <Link to="/new" className="btn btn-ghost top-bar-new">
          <svg className="icon" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M12 5v14M5 12h14" />
          </svg>
          <span className="narrow-hidden">
            <Trans>New project</Trans>
          </span>
        </Link>
        <Link to="/open" className="btn btn-ghost">
          <svg className="icon" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M3 6h7l2 2h9v11H3z" />
          </svg>
          <span className="narrow-hidden">
            <Trans>Projects</Trans>
          </span>
        </Link>
        <span className="badge storage-badge" role="status" aria-label={t`Storage used: ${storage}`}>
          {storage}
        </span>
        {user.video_tier < 1 && (
          <Link to="/account" hash="plans" className="btn btn-primary">
            <svg className="icon wide-hidden" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M12 19V5M6 11l6-6 6 6" />
            </svg>
            <span className="narrow-hidden">
              <Trans>Upgrade</Trans>
            </span>
          </Link>
        )}
        <UserMenu user={user} />
      </div>
    </header>
  );
}
