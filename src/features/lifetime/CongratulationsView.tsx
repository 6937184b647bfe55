import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { useCurrentUser } from "../../app/hooks";
import { Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { lifetimeTierNumber } from "../account/format";
import "./lifetime.css";

/** The payment's confirmation reaches the server a moment after the payment page: asked again this often, this many times. */
const CONFIRM_POLL_MS = 2_000;
const CONFIRM_POLL_TIMES = 30;

/**
 * /congratulations (SPEC §2): after a lifetime deal's payment. The webhook that gives the tier may arrive a
 * little after the browser does, so the user is read again until the tier shows (SPEC §8's pending wording
 * if it takes longer); then the next steps: the welcome page and the account.
 */
export function CongratulationsView() {
  const { t } = useLingui();
  const user = useCurrentUser();
  const tier = user?.ltd_tier ? lifetimeTierNumber(user.ltd_tier) : null;
  const active = !!user?.ltd_tier;
  const [tries, setTries] = useState(0);

  useEffect(() => {
    if (active || tries >= CONFIRM_POLL_TIMES) return;
    const timer = setTimeout(() => {
      void worker.refreshAfterPurchase().finally(() => setTries((n) => n + 1));
    }, tries === 0 ? 0 : CONFIRM_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, tries]);

  if (!active) {
    return (
      <div className="lifetime-page">
        <h1>
          <Trans>Thank you for your purchase</Trans>
        </h1>
        {tries < CONFIRM_POLL_TIMES ? (
          <p role="status">
            <Spinner label={t`Confirming your payment…`} /> <Trans>Confirming your payment…</Trans>
          </p>
        ) : (
          <p className="notice notice-warning" role="status">
            <Trans>Payment pending... try refreshing in a couple of minutes</Trans>
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="lifetime-page">
      <h1>
        <Trans>Congratulations!</Trans>
      </h1>
      <p className="lifetime-active" role="status">
        {tier !== null ? <Trans>Your lifetime deal, Tier {tier}, is active.</Trans> : <Trans>Your lifetime deal is active.</Trans>}
      </p>
      <p>
        <Trans>Your new limits apply from now on, and your videos export at 1080p without the watermark.</Trans>
      </p>
      <div className="lifetime-actions">
        <Link to="/ltd/welcome" className="btn btn-primary">
          <Trans>Set up your account</Trans>
        </Link>
        <Link to="/account" className="btn btn-secondary">
          <Trans>Go to your account</Trans>
        </Link>
      </div>
    </div>
  );
}
