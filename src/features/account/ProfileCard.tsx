import { Trans, useLingui } from "@lingui/react/macro";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState, type FormEvent } from "react";
import { EmailChangeBody, PasswordChangeBody } from "../../../api/account";
import { RenameBody } from "../../../api/user";
import { db, type UserRow } from "../../db";
import { Button } from "../../ui/Button";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import "./profile.css";
import { useFieldErrors } from "../auth/useFieldErrors";
import { failureMessage } from "../errors";
import type { Failure } from "../../../workers/status";

/** A failure with field messages shows them under the fields; any other goes to a toast. */
function useFailure(title: string) {
  const { i18n } = useLingui();
  return (fields: ReturnType<typeof useFieldErrors>, failure: Failure) => {
    if (failure.kind === "body" && failure.body.fields) fields.fromFailure(failure);
    else toast({ variant: "danger", title, description: failureMessage(i18n, failure) });
  };
}

function NameForm({ user }: { user: UserRow }) {
  const { t } = useLingui();
  const [first, setFirst] = useState(user.first_name);
  const [last, setLast] = useState(user.last_name);
  const [saving, setSaving] = useState(false);
  const fields = useFieldErrors();
  const fail = useFailure(t`Change name`);
  const unchanged = first.trim() === user.first_name && last.trim() === user.last_name;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = RenameBody.safeParse({ first_name: first, last_name: last });
    if (!parsed.success) return fields.fromIssues(parsed.error.issues);
    fields.clear();
    setSaving(true);
    const result = await worker.renameUser(parsed.data.first_name, parsed.data.last_name);
    setSaving(false);
    if (result.ok) toast({ variant: "success", title: t`Settings updated` });
    else fail(fields, result.failure);
  }

  return (
    <form className="account-form" onSubmit={submit} noValidate aria-labelledby="profile-name-title">
      <h3 id="profile-name-title">
        <Trans>Name</Trans>
      </h3>
      <div className="account-form-row">
        <TextField label={t`First name`} name="first_name" autoComplete="given-name" value={first} onChange={setFirst} errorMessage={fields.errors.first_name} />
        <TextField label={t`Last name`} name="last_name" autoComplete="family-name" value={last} onChange={setLast} errorMessage={fields.errors.last_name} />
      </div>
      <Button type="submit" variant="secondary" isPending={saving} isDisabled={unchanged}>
        <Trans>Save name</Trans>
      </Button>
    </form>
  );
}

function EmailForm({ user }: { user: UserRow }) {
  const { t, i18n } = useLingui();
  const pending = useLiveQuery(async () => {
    const row = await db.meta.get("pendingEmail");
    return row?.key === "pendingEmail" ? row.value : null;
  });
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [saving, setSaving] = useState(false);
  const fields = useFieldErrors();
  const fail = useFailure(t`Change email`);

  useEffect(() => {
    void worker.refreshPendingEmail();
  }, [user.email]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = EmailChangeBody.safeParse({ email, password });
    if (!parsed.success) return fields.fromIssues(parsed.error.issues);
    fields.clear();
    setSaving(true);
    const result = await worker.requestEmailChange(parsed.data.email, parsed.data.password);
    setSaving(false);
    if (!result.ok) return fail(fields, result.failure);
    setEmail("");
    setPassword("");
    toast({ variant: "success", title: t`Check your mailbox`, description: t`Open the link we sent to your new address to finish the change.` });
  }

  async function cancel() {
    const result = await worker.cancelEmailChange();
    if (!result.ok) toast({ variant: "danger", title: t`Change email`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <form className="account-form" onSubmit={submit} noValidate aria-labelledby="profile-email-title">
      <h3 id="profile-email-title">
        <Trans>Email</Trans>
      </h3>
      <p>
        <Trans>
          Your account's address is <strong className="account-email">{user.email}</strong>.
        </Trans>
      </p>
      {pending?.email && (
        <div className="notice notice-warning" role="status">
          <p>
            <Trans>
              Waiting for confirmation: we sent a link to <strong className="account-email">{pending.email}</strong>. Your address changes once it is opened.
            </Trans>
          </p>
          <Button variant="secondary" onPress={() => void cancel()}>
            <Trans>Cancel the change</Trans>
          </Button>
        </div>
      )}
      <TextField label={t`New email`} name="new_email" type="email" autoComplete="email" value={email} onChange={setEmail} errorMessage={fields.errors.email} />
      <TextField
        label={t`Current password`}
        name="email_password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        errorMessage={fields.errors.password}
      />
      <Button type="submit" variant="secondary" isPending={saving}>
        <Trans>Change email</Trans>
      </Button>
    </form>
  );
}

function PasswordForm() {
  const { t } = useLingui();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [saving, setSaving] = useState(false);
  const fields = useFieldErrors();
  const fail = useFailure(t`Change password`);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = PasswordChangeBody.safeParse({ current_password: current, password, password_confirmation: confirmation });
    if (!parsed.success) return fields.fromIssues(parsed.error.issues);
    fields.clear();
    setSaving(true);
    const result = await worker.changePassword(parsed.data);
    setSaving(false);
    if (!result.ok) return fail(fields, result.failure);
    setCurrent("");
    setPassword("");
    setConfirmation("");
    toast({ variant: "success", title: t`Password changed`, description: t`Your other devices were signed out.` });
  }

  return (
    <form className="account-form" onSubmit={submit} noValidate aria-labelledby="profile-password-title">
      <h3 id="profile-password-title">
        <Trans>Password</Trans>
      </h3>
      <TextField
        label={t`Current password`}
        name="current_password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={setCurrent}
        errorMessage={fields.errors.current_password}
      />
      <TextField label={t`New password`} name="password" type="password" autoComplete="new-password" value={password} onChange={setPassword} errorMessage={fields.errors.password} />
      <TextField
        label={t`Confirm new password`}
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={setConfirmation}
        errorMessage={fields.errors.password_confirmation}
      />
      <Button type="submit" variant="secondary" isPending={saving}>
        <Trans>Change password</Trans>
      </Button>
    </form>
  );
}

/** Issue 16: the account's name, e-mail address (confirmed by a link to the new one) and password. */
export function ProfileCard({ user }: { user: UserRow }) {
  return (
    <section className="card account-card account-profile" aria-labelledby="profile-title">
      <h2 id="profile-title">
        <Trans>Profile</Trans>
      </h2>
      <NameForm user={user} />
      <EmailForm user={user} />
      <PasswordForm />
    </section>
  );
}
