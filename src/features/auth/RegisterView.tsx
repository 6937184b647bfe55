import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { LOCALES, type Locale } from "../../../api/language-codes";
import { LOCALE_NAMES } from "../../i18n/locale";
import { AnonymousBar } from "../../app/AnonymousBar";
import { useAnonymousLocale, useConfig } from "../../app/hooks";
import { track } from "../../lib/analytics";
import { REGISTER_REDIRECT_MS, SOCIAL_LINKS } from "../../lib/constants";
import { Button } from "../../ui/Button";
import { Checkbox } from "../../ui/Checkbox";
import { Select } from "../../ui/Select";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { recaptchaToken } from "./recaptcha";
import { useFieldErrors } from "./useFieldErrors";

export { registerSearch, refuseOnBetaHost } from "./register-route";

type Form = {
  email: string;
  confirm_email: string;
  password: string;
  password_confirmation: string;
  first_name: string;
  last_name: string;
  locale: Locale;
  terms: boolean;
};

/** Create account (SPEC §2 Registration, §4 Registration, §5 rules, §8 toasts). */
export function RegisterView({ referral, clickid }: { referral: string | null; clickid: string | null }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const config = useConfig();
  const uiLocale = useAnonymousLocale();
  const [form, setForm] = useState<Form>({
    email: "",
    confirm_email: "",
    password: "",
    password_confirmation: "",
    first_name: "",
    last_name: "",
    locale: uiLocale,
    terms: false,
  });
  const [loading, setLoading] = useState(false);
  const fields = useFieldErrors();
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const set = <K extends keyof Form>(key: K) => (value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  // SPEC §5 pre-sign-up wording: once a confirmation field has been left, it says at once when it does not match.
  const [left, setLeft] = useState({ confirm_email: false, password_confirmation: false });
  const leave = (key: keyof typeof left) => () => setLeft((l) => (l[key] ? l : { ...l, [key]: true }));
  const emailsDiffer = left.confirm_email && form.confirm_email !== "" && form.confirm_email.trim().toLowerCase() !== form.email.trim().toLowerCase();
  const passwordsDiffer = left.password_confirmation && form.password_confirmation !== "" && form.password_confirmation !== form.password;
  const confirmEmailError = fields.errors.confirm_email ?? (emailsDiffer ? t`Emails do not match` : undefined);
  const confirmPasswordError = fields.errors.password_confirmation ?? (passwordsDiffer ? t`Passwords do not match` : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (loading) return;
    setLoading(true);
    const parsed = await fields.check(() => import("../../../api/user").then((m) => m.RegisterForm), form);
    if (!parsed) return setLoading(false);
    fields.clear();
    setLoading(true);
    const { confirm_email: _dropped, ...payload } = parsed;
    let captcha: string | undefined;
    try {
      if (config?.captcha.provider === "recaptcha" && config.captcha.recaptchaSiteKey) captcha = await recaptchaToken(config.captcha.recaptchaSiteKey);
    } catch {
      captcha = "";
    }
    const result = await worker.register({ ...payload, referral, clickid }, captcha);
    if (result.ok && result.data.id) {
      // Issue 18: say where the confirmation link went, not only where the page goes.
      toast({
        variant: "success",
        title: t`User created successfully`,
        description: `${t`Check your mailbox: we sent you a link to confirm your e-mail address.`} ${t`Redirecting to login`}`,
      });
      track("Sign Up", { method: "email", referred: !!referral });
      track("Registration Conversion");
      redirectTimer.current = setTimeout(() => void navigate({ to: "/login" }), REGISTER_REDIRECT_MS);
      return;
    }
    setLoading(false);
    if (!result.ok) fields.fromFailure(result.failure);
    toast({
      variant: "danger",
      title: t`Create account error`,
      description: `${t`Some error occurred while trying to create user`}${result.ok ? "" : ` — ${failureMessage(i18n, result.failure)}`}`,
    });
  }

  const terms = config?.links.terms;
  return (
    <div className="page">
      <AnonymousBar link="login" />
      <main className="auth-page" id="main">
        <form className="card auth-card auth-card-wide" onSubmit={submit} noValidate aria-labelledby="register-title">
          <h1 id="register-title">
            <Trans>Create account</Trans>
          </h1>
          <div className="form-grid">
            <TextField label={t`First name`} name="first_name" autoComplete="given-name" value={form.first_name} onChange={set("first_name")} errorMessage={fields.errors.first_name} />
            <TextField label={t`Last name`} name="last_name" autoComplete="family-name" value={form.last_name} onChange={set("last_name")} errorMessage={fields.errors.last_name} />
            <TextField label={t`Email`} name="email" type="email" autoComplete="email" value={form.email} onChange={set("email")} errorMessage={fields.errors.email} />
            <TextField label={t`Confirm email`} name="confirm_email" type="email" autoComplete="email" value={form.confirm_email} onChange={set("confirm_email")} onBlur={leave("confirm_email")} errorMessage={confirmEmailError} />
            <TextField label={t`Password`} name="password" type="password" autoComplete="new-password" value={form.password} onChange={set("password")} errorMessage={fields.errors.password} />
            <TextField label={t`Confirm password`} name="password_confirmation" type="password" autoComplete="new-password" value={form.password_confirmation} onChange={set("password_confirmation")} onBlur={leave("password_confirmation")} errorMessage={confirmPasswordError} />
            <Select<Locale>
              label={t`Language`}
              name="locale"
              value={form.locale}
              onChange={set("locale")}
              options={LOCALES.map((id) => ({ id, label: LOCALE_NAMES[id] }))}
              errorMessage={fields.errors.locale}
            />
          </div>
          <Checkbox name="terms" isSelected={form.terms} onChange={set("terms")} errorMessage={fields.errors.terms}>
            <Trans>
              I agree to the{" "}
              <a href={terms} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()}>
                terms of use
              </a>
            </Trans>
          </Checkbox>
          <Button type="submit" isPending={loading}>
            <Trans>Create account</Trans>
          </Button>
          <nav className="social-links" aria-label={t`Cutroom on social networks`}>
            {SOCIAL_LINKS.map((link) => (
              <a key={link.name} href={link.href} target="_blank" rel="noopener noreferrer">
                {link.name}
              </a>
            ))}
          </nav>
        </form>
      </main>
    </div>
  );
}
