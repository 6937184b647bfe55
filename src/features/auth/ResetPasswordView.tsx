import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { AnonymousBar } from "../../app/AnonymousBar";
import { Button } from "../../ui/Button";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { useFieldErrors } from "./useFieldErrors";

/** The page the reset mail links to (issue 16): the new password twice (SPEC §5), then sign in with it. */
export function ResetPasswordView() {
  const { t, i18n } = useLingui();
  const { token } = useSearch({ from: "/reset-password" });
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [saving, setSaving] = useState(false);
  const [linkInvalid, setLinkInvalid] = useState(!token);
  const fields = useFieldErrors();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving || !token) return;
    setSaving(true);
    const parsed = await fields.check(() => import("../../../api/account").then((m) => m.ResetPasswordBody), { token, password, password_confirmation: confirmation });
    if (!parsed) return setSaving(false);
    fields.clear();
    setSaving(true);
    const result = await worker.resetPassword(parsed);
    setSaving(false);
    if (result.ok) {
      toast({ variant: "success", title: t`Password changed`, description: t`Sign in with your new password.` });
      await navigate({ to: "/login", search: {} });
      return;
    }
    if (result.failure.kind === "body" && result.failure.body.code === "reset_link_invalid") return setLinkInvalid(true);
    if (result.failure.kind === "body" && result.failure.body.fields) return fields.fromFailure(result.failure);
    toast({ variant: "danger", title: t`Reset password`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <div className="page">
      <AnonymousBar link="login" />
      <main className="auth-page" id="main">
        <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="reset-title">
          <h1 id="reset-title">
            <Trans>Choose a new password</Trans>
          </h1>
          {linkInvalid ? (
            <>
              <p className="notice notice-warning" role="alert">
                <Trans>This password reset link has expired or was already used. Ask for a new one.</Trans>
              </p>
              <Link to="/forgot-password" className="btn btn-primary">
                <Trans>Ask for a new link</Trans>
              </Link>
            </>
          ) : (
            <>
              <TextField label={t`New password`} name="password" type="password" autoComplete="new-password" value={password} onChange={setPassword} errorMessage={fields.errors.password} autoFocus />
              <TextField
                label={t`Confirm new password`}
                name="password_confirmation"
                type="password"
                autoComplete="new-password"
                value={confirmation}
                onChange={setConfirmation}
                errorMessage={fields.errors.password_confirmation}
              />
              <Button type="submit" isPending={saving}>
                <Trans>Save new password</Trans>
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
