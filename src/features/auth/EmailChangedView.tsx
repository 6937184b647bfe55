import { Trans } from "@lingui/react/macro";
import { Link, useSearch } from "@tanstack/react-router";
import { useEffect } from "react";
import { AnonymousBar } from "../../app/AnonymousBar";
import { useCurrentUser } from "../../app/hooks";
import { worker } from "../../worker";

/** Where the link mailed to a new address leads (issue 16): whether the account's address changed. */
export function EmailChangedView() {
  const { status } = useSearch({ from: "/email-changed" });
  const user = useCurrentUser();
  // Signed in on this device: the stored user and the pending change catch up with the server.
  useEffect(() => {
    if (user) void Promise.all([worker.refreshUser(), worker.refreshPendingEmail()]);
  }, [user?.id]);

  return (
    <div className="page">
      <AnonymousBar link={user ? "none" : "login"} />
      <main className="auth-page" id="main">
        <section className="card auth-card" aria-labelledby="email-changed-title">
          <h1 id="email-changed-title">
            <Trans>Change email</Trans>
          </h1>
          {status === "changed" ? (
            <p className="notice notice-success" role="status">
              <Trans>Your email address is changed. Sign in with the new address from now on.</Trans>
            </p>
          ) : status === "taken" ? (
            <p className="notice notice-danger" role="alert">
              <Trans>This email address now belongs to another account, so your address was not changed.</Trans>
            </p>
          ) : (
            <p className="notice notice-warning" role="alert">
              <Trans>This confirmation link has expired or was already used. Your address was not changed; ask for the change again from your account.</Trans>
            </p>
          )}
          {user ? (
            <Link to="/account" className="btn btn-primary">
              <Trans>Go to my account</Trans>
            </Link>
          ) : (
            <Link to="/login" className="btn btn-primary">
              <Trans>Sign in</Trans>
            </Link>
          )}
        </section>
      </main>
    </div>
  );
}
