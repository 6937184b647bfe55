import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate, useRouter, useSearch } from "@tanstack/react-router";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { AnonymousBar } from "../../app/AnonymousBar";
import { useConfig } from "../../app/hooks";
import { LOGIN_LOADING_RESET_MS } from "../../lib/constants";
import { Button } from "../../ui/Button";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { useFieldErrors } from "./useFieldErrors";

/** Sign in (SPEC §2 Login, §4 Login, §8 "Sign in" toast). */
export function LoginView() {
  const { t, i18n } = useLingui();
  const search = useSearch({ from: "/login" });
  const navigate = useNavigate();
  const router = useRouter();
  const config = useConfig();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [loading, setLoading] = useState(false);
  const fields = useFieldErrors();
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(resetTimer.current), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (loading) return;
    setLoading(true);
    const parsed = await fields.check(() => import("../../../api/user").then((m) => m.LoginBody), { email, password });
    if (!parsed) return setLoading(false);
    fields.clear();
    setLoading(true);
    const result = await worker.login(parsed.email, parsed.password);
    if (!result.ok) {
      setLoading(false);
      toast({ variant: "danger", title: t`Sign in`, description: failureMessage(i18n, result.failure) });
      return;
    }
    resetTimer.current = setTimeout(() => setLoading(false), LOGIN_LOADING_RESET_MS);
    if (!result.data.email_verified_at) await navigate({ to: "/verify-email", search: {} });
    else router.history.push(search.redirect ?? "/");
  }

  return (
    <div className="page">
      <AnonymousBar link="register" />
      <main className="auth-page" id="main">
        <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby="login-title">
          <h1 id="login-title">
            <Trans>Sign in</Trans>
          </h1>
          <TextField
            label={t`Email`}
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            errorMessage={fields.errors.email}
            autoFocus
          />
          <TextField
            label={t`Password`}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            errorMessage={fields.errors.password}
          />
          {/* FORGOT_PASSWORD_URL, when an operator sets it, still sends people to that page (issue 16). */}
          {config?.links.forgotPassword ? (
            <a className="text-link" href={config.links.forgotPassword} target="_blank" rel="noopener noreferrer">
              <Trans>Forgot your password?</Trans>
            </a>
          ) : (
            <Link className="text-link" to="/forgot-password">
              <Trans>Forgot your password?</Trans>
            </Link>
          )}
          <Button type="submit" isPending={loading}>
            <Trans>Sign in</Trans>
          </Button>
          {config && !config.betaHost && (
            <p className="muted">
              <Trans>
                New to Cutroom? <Link to="/register">Create an account</Link>
              </Trans>
            </p>
          )}
        </form>
      </main>
    </div>
  );
}
