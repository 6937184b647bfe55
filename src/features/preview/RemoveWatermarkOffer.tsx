import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import type { Project } from "../../../api/projects";
import { useCurrentUser } from "../../app/hooks";
import { formatUsd } from "../../lib/format";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import "../lifetime/lifetime.css";

/**
 * SPEC §2 preview "Remove watermark" and §6 (a free user's watermark-free 1080p for one project, one-time fee):
 * for free users, the offer to remove the watermark from this video alone (its checkout session, then its
 * payment page) beside a link to the plans on /account. A project already bought says so instead.
 */
export function RemoveWatermarkOffer({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const [amount, setAmount] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  const free = !!user && user.video_tier < 1 && !user.ltd_tier;
  const unlocked = project.export_unlocked === 1;

  useEffect(() => {
    if (!free || unlocked) return;
    let live = true;
    void worker.checkoutOffers().then((result) => {
      if (live && result.ok) setAmount(result.data.video_export.amount);
    });
    return () => {
      live = false;
    };
  }, [free, unlocked]);

  if (!free) return null;
  if (unlocked) {
    return (
      <p className="field-description">
        <Trans>This video exports at 1080p without the watermark.</Trans>
      </p>
    );
  }

  const buy = async () => {
    setPending(true);
    const result = await worker.startVideoCheckout(project.id);
    if (result.ok) {
      window.location.assign(result.data.url);
      return;
    }
    setPending(false);
    toast({ variant: "danger", title: t`Could not open the payment page`, description: failureMessage(i18n, result.failure) });
  };

  const price = amount !== null ? formatUsd(amount) : null;
  return (
    <div className="watermark-offer">
      <Button variant="primary" onPress={() => void buy()} isPending={pending} isDisabled={price === null}>
        {price ? <Trans>Remove watermark for this video (one-time {price})</Trans> : <Trans>Remove watermark</Trans>}
      </Button>
      <Link to="/account" hash="plans">
        <Trans>or see the plans</Trans>
      </Link>
    </div>
  );
}
