import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { LOCALES, type Locale } from "../../../api/language-codes";
import { RenameBody } from "../../../api/user";
import { useConfig, useCurrentUser } from "../../app/hooks";
import { Button, Spinner } from "../../ui/Button";
import { Checkbox } from "../../ui/Checkbox";
import { Select } from "../../ui/Select";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import "./lifetime.css";

/**
 * The lifetime welcome page (SPEC §2 "Other pages": first name, last name, language, terms): a new lifetime
 * user confirms their name and language and accepts the terms of use, then goes to /account, where the
 * welcome modal greets them. Saved through the existing routes (PUT /user/rename, POST /user/locale).
 */
export function LifetimeWelcomeView() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const config = useConfig();
  const [firstName, setFirstName] = useState<string | null>(null);
  const [lastName, setLastName] = useState<string | null>(null);
  const [locale, setLocale] = useState<Locale | null>(null);
  const [terms, setTerms] = useState(false);
  const [errors, setErrors] = useState<{ first_name?: string; last_name?: string; terms?: string }>({});
  const [saving, setSaving] = useState(false);
  if (!user) return <Spinner label={t`Loading your account…`} />;

  const first = firstName ?? user.first_name;
  const last = lastName ?? user.last_name;
  const language = locale ?? user.locale;
  const languageNames: Record<Locale, string> = {
    en: t`English`,
    "pt-BR": t`Portuguese`,
    es: t`Spanish`,
    it: t`Italian`,
    fr: t`French`,
    de: t`German`,
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const parsed = RenameBody.safeParse({ first_name: first, last_name: last });
    const next: typeof errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as "first_name" | "last_name";
        next[field] ??= issue.message === "too_long" ? t`This is too long.` : t`Required`;
      }
    }
    if (!terms) next.terms = t`Accept the terms of use to continue.`;
    setErrors(next);
    if (!parsed.success || !terms) return;
    setSaving(true);
    const renamed = await worker.renameUser(parsed.data.first_name, parsed.data.last_name);
    const localeSaved = renamed.ok && language !== user!.locale ? await worker.setLocale(language) : renamed;
    setSaving(false);
    if (!renamed.ok || !localeSaved.ok) {
      const failure = !renamed.ok ? renamed.failure : !localeSaved.ok ? localeSaved.failure : null;
      toast({ variant: "danger", title: t`Could not save`, description: failure ? failureMessage(i18n, failure) : undefined });
      return;
    }
    void navigate({ to: "/account" });
  }

  return (
    <div className="lifetime-page">
      <form className="card lifetime-welcome" onSubmit={submit} noValidate aria-labelledby="lifetime-welcome-title">
        <h1 id="lifetime-welcome-title">
          <Trans>Welcome to your lifetime deal</Trans>
        </h1>
        <p>
          <Trans>Check how we should call you and the language Cutroom speaks to you in.</Trans>
        </p>
        <div className="form-grid">
          <TextField label={t`First name`} name="first_name" autoComplete="given-name" value={first} onChange={setFirstName} errorMessage={errors.first_name} />
          <TextField label={t`Last name`} name="last_name" autoComplete="family-name" value={last} onChange={setLastName} errorMessage={errors.last_name} />
          <Select<Locale> label={t`Language`} name="locale" value={language} onChange={setLocale} options={LOCALES.map((id) => ({ id, label: languageNames[id] }))} />
        </div>
        <Checkbox name="terms" isSelected={terms} onChange={setTerms} errorMessage={errors.terms}>
          <Trans>
            I agree to the{" "}
            <a href={config?.links.terms} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()}>
              terms of use
            </a>
          </Trans>
        </Checkbox>
        <Button type="submit" isPending={saving}>
          <Trans>Save and continue</Trans>
        </Button>
      </form>
    </div>
  );
}
