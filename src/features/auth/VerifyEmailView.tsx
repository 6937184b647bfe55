import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { AnonymousBar } from "../../app/AnonymousBar";
import { useCurrentUser } from "../../app/hooks";
import { usePolling } from "../../app/usePolling";
import { EMAIL_VERIFY_POLL_MS } from "../../lib/constants";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";

/** SPEC §2 Verify-email: resend, and a poll every 10 s that goes home once the email is confirmed. */
export function VerifyEmailView() {
  const { t, i18n } = useLingui();
  const { status } = useSearch({ from: "/verify-email" });
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [sending, setSending] = useState(false);
  const waiting = !!user && !user.email_verified_at;

  useEffect(() => {
    if (user?.email_verified_at) void navigate({ to: "/" });
  }, [user, navigate]);

  // SPEC §9: every 10 s, paused while the tab is hidden and caught up when it shows again.
  usePolling(() => worker.refreshUser(), null, EMAIL_VERIFY_POLL_MS, waiting);

  async function resend() {
    setSending(true);
    const result = await worker.resendVerification();
    setSending(false);
    if (result.ok) toast({ variant: "success", title: t`Check your mailbox`, description: t`We sent you a new confirmation link.` });
    else toast({ variant: "danger", title: t`Could not send the email`, description: failureMessage(i18n, result.failure) });
  }

  const statusNote =
    status === "verified" ? (
      <p className="notice notice-success" role="status">
        <Trans>Your email is confirmed.</Trans>
      </p>
    ) : status === "expired" ? (
      <p className="notice notice-warning" role="alert">
        <Trans>This confirmation link has expired. Send yourself a new one.</Trans>
      </p>
    ) : status === "invalid" ? (
      <p className="notice notice-danger" role="alert">
        <Trans>This confirmation link is not valid.</Trans>
      </p>
    ) : null;

  return (
    <div className="page">
      <AnonymousBar link={user ? "none" : "login"} />
      <main className="auth-page" id="main">
        <section className="card auth-card" aria-labelledby="verify-title">
          <h1 id="verify-title">
            <Trans>Confirm your email</Trans>
          </h1>
          {statusNote}
          {waiting ? (
            <>
              <p>
                <Trans>
                  We sent a confirmation link to <strong>{user.email}</strong>. Open it to start editing; this page moves on by itself.
                </Trans>
              </p>
              <Button onPress={() => void resend()} isPending={sending}>
                <Trans>Resend email</Trans>
              </Button>
              <Button variant="ghost" onPress={() => void worker.logout().then(() => navigate({ to: "/login" }))}>
                <Trans>Use another account</Trans>
              </Button>
            </>
          ) : (
            user === null && (
              <>
                <p>
                  <Trans>Sign in to continue.</Trans>
                </p>
                <Link to="/login" className="btn btn-primary">
                  <Trans>Sign in</Trans>
                </Link>
              </>
            )
          )}
        </section>
      </main>
    </div>
  );
}
