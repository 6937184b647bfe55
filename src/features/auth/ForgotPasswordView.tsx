import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { AnonymousBar } from "../../app/AnonymousBar";
import { Button } from "../../ui/Button";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { useFieldErrors } from "./useFieldErrors";

/** Password reset by e-mail (issue 16): the address, then the same answer whether or not it has an account. */
export function ForgotPasswordView() {
  const { t, i18n } = useLingui();
  const [email, setEmail] = useState("");
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const fields = useFieldErrors();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    const parsed = await fields.check(() => import("../../../api/account").then((m) => m.ForgotPasswordBody), { email });
    if (!parsed) return setSending(false);
    fields.clear();
    setSending(true);
    const result = await worker.forgotPassword(parsed.email);
    setSending(false);
    if (result.ok) setSent(true);
    else toast({ variant: "danger", title: t`Reset password`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <div className="page">
      <AnonymousBar link="login" />
      <main className="auth-page" id="main">
        <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="forgot-title">
          <h1 id="forgot-title">
            <Trans>Reset password</Trans>
          </h1>
          {sent ? (
            <p className="notice notice-success" role="status">
              <Trans>If an account uses this address, we have sent it a link to choose a new password. The link works once, within 60 minutes.</Trans>
            </p>
          ) : (
            <>
              <p>
                <Trans>Enter the email address of your account and we will send you a link to choose a new password.</Trans>
              </p>
              <TextField label={t`Email`} name="email" type="email" autoComplete="email" value={email} onChange={setEmail} errorMessage={fields.errors.email} autoFocus />
              <Button type="submit" isPending={sending}>
                <Trans>Send reset link</Trans>
              </Button>
            </>
          )}
          <p className="muted">
            <Link to="/login">
              <Trans>Back to sign in</Trans>
            </Link>
          </p>
        </form>
      </main>
    </div>
  );
}
