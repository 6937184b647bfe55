import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import type { Project } from "../../../api/projects";
import { watchPath, type Privacy } from "../../../api/share";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { RadioGroup } from "../../ui/RadioGroup";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { PRIVACY_OPTIONS } from "./privacy";
import "./share.css";

/**
 * The share page of a finished project (SPEC §6 "private, public or unlisted"): who can watch it, its link with
 * Copy, and Revoke, which ends the link for everyone (sharing again makes a new one). The page shows the final
 * render while the project is Render Ready; reopening takes it down until the next export.
 */
export function SharePanel({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const [pending, setPending] = useState<Privacy | "revoke" | null>(null);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  if (project.status !== "Render Ready" || !project.final_render) return null;

  const privacy = project.privacy ?? "private";
  const link = project.share_token ? new URL(watchPath(project.share_token), window.location.origin).href : null;

  const share = async (choice: Privacy) => {
    setPending(choice);
    const result = await worker.shareProject(project.id, { privacy: choice });
    setPending(null);
    if (!result.ok) toast({ variant: "danger", title: t`Could not change who can watch`, description: failureMessage(i18n, result.failure) });
  };
  const revoke = async () => {
    const result = await worker.unshareProject(project.id);
    if (result.ok) toast({ variant: "success", title: t`The link no longer works` });
    else toast({ variant: "danger", title: t`Could not revoke the link`, description: failureMessage(i18n, result.failure) });
  };
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      toast({ variant: "success", title: t`Link copied`, description: link });
    } catch {
      toast({ variant: "info", title: t`Copy this link to share`, description: link });
    }
  };

  return (
    <section className="card share-panel" aria-labelledby={`share-${project.id}`}>
      <h2 id={`share-${project.id}`}>
        <Trans>Share page</Trans>
      </h2>
      <RadioGroup<Privacy>
        label={t`Who can watch`}
        name="share-privacy"
        value={privacy}
        onChange={(choice) => void share(choice)}
        options={PRIVACY_OPTIONS.map((o) => ({ id: o.id, label: i18n._(o.label), description: i18n._(o.description) }))}
      />
      {link ? (
        <>
          <div className="share-link">
            <input readOnly value={link} aria-label={t`Link to the share page`} onFocus={(e) => e.currentTarget.select()} />
            <Button variant="secondary" onPress={() => void copy()}>
              <Trans>Copy link</Trans>
            </Button>
            <a className="btn btn-secondary" href={link} target="_blank" rel="noopener noreferrer">
              <Trans>Open</Trans>
            </a>
            <Button variant="danger" onPress={() => setConfirmRevoke(true)}>
              <Trans>Revoke link</Trans>
            </Button>
          </div>
          {privacy === "private" && (
            <p className="field-description">
              <Trans>The page is private: the link works only for you while you are signed in.</Trans>
            </p>
          )}
        </>
      ) : (
        <div className="share-link">
          <p className="field-description">
            <Trans>No link yet. Make one, then choose who can watch.</Trans>
          </p>
          <Button variant="primary" isPending={pending === privacy} onPress={() => void share(privacy)}>
            <Trans>Make a link</Trans>
          </Button>
        </div>
      )}
      <ConfirmDialog
        isOpen={confirmRevoke}
        onOpenChange={setConfirmRevoke}
        title={t`Revoke the link?`}
        confirmLabel={t`Revoke link`}
        onConfirm={revoke}
      >
        <Trans>The link stops working for everyone who has it. Sharing again makes a new link.</Trans>
      </ConfirmDialog>
    </section>
  );
}
