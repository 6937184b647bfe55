import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { AccountDeleteBody } from "../../../api/account";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import "./profile.css";
import { useFieldErrors } from "../auth/useFieldErrors";
import { failureMessage } from "../errors";
import { startBrowserDownload } from "../preview/DownloadButton";

/** Deleting the account: what goes, then the password, in a dialog that stays open on a wrong password. */
function DeleteAccountDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [deleting, setDeleting] = useState(false);
  const fields = useFieldErrors();

  function close(open: boolean) {
    if (open) return;
    setPassword("");
    fields.clear();
    onOpenChange(false);
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    const parsed = AccountDeleteBody.safeParse({ password });
    if (!parsed.success) return fields.fromIssues(parsed.error.issues);
    fields.clear();
    setDeleting(true);
    const result = await worker.deleteAccount(parsed.data.password);
    setDeleting(false);
    if (result.ok) {
      toast({ variant: "success", title: t`Your account was deleted` });
      await navigate({ to: "/login", search: {} });
      return;
    }
    if (result.failure.kind === "body" && result.failure.body.fields) fields.fromFailure(result.failure);
    else toast({ variant: "danger", title: t`Delete account`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={close}
      title={t`Delete your account?`}
      isDismissable={!deleting}
      actions={
        <>
          <Button variant="secondary" onPress={() => close(false)} isDisabled={deleting} autoFocus>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant="danger" onPress={() => void submit()} isPending={deleting}>
            <Trans>Delete my account</Trans>
          </Button>
        </>
      }
    >
      <form className="account-form" onSubmit={submit} noValidate>
        <p>
          <Trans>
            Your projects, library files, renders and subtitles are deleted from this server, your subscription stops renewing and your saved cards are removed. This cannot be undone.
          </Trans>
        </p>
        <TextField
          label={t`Password`}
          name="delete_password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          errorMessage={fields.errors.password}
          description={t`Enter your password to confirm.`}
        />
      </form>
    </Dialog>
  );
}

/** Issue 16: sign out of other devices, download my data, delete the account. */
export function SecurityCard() {
  const { t, i18n } = useLingui();
  const [signingOut, setSigningOut] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);

  async function signOutOthers() {
    setSigningOut(true);
    const result = await worker.signOutOtherDevices();
    setSigningOut(false);
    if (result.ok) toast({ variant: "success", title: t`Signed out of your other devices`, description: t`This device stays signed in.` });
    else toast({ variant: "danger", title: t`Sign out of other devices`, description: failureMessage(i18n, result.failure) });
  }

  async function downloadData() {
    setExporting(true);
    const result = await worker.dataExportLink();
    setExporting(false);
    if (result.ok) startBrowserDownload(result.data.url, result.data.filename);
    else toast({ variant: "danger", title: t`Download my data`, description: failureMessage(i18n, result.failure) });
  }

  return (
    <section className="card account-card" aria-labelledby="security-title">
      <h2 id="security-title">
        <Trans>Security and data</Trans>
      </h2>
      <div className="account-action">
        <p>
          <Trans>Signed in on a device you no longer use? Sign out everywhere except here.</Trans>
        </p>
        <Button variant="secondary" onPress={() => void signOutOthers()} isPending={signingOut}>
          <Trans>Sign out of other devices</Trans>
        </Button>
      </div>
      <div className="account-action">
        <p>
          <Trans>A zip of your projects with their settings, scenes and subtitles (VTT and SRT), your account settings and your payment history.</Trans>
        </p>
        <Button variant="secondary" onPress={() => void downloadData()} isPending={exporting}>
          <Trans>Download my data</Trans>
        </Button>
      </div>
      <div className="account-action">
        <p>
          <Trans>Delete your account and everything in it.</Trans>
        </p>
        <Button variant="danger" onPress={() => setDeleteOpen(true)}>
          <Trans>Delete account</Trans>
        </Button>
      </div>
      <DeleteAccountDialog isOpen={deleteOpen} onOpenChange={setDeleteOpen} />
    </section>
  );
}
