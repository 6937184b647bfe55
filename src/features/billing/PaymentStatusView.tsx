import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { useConfig } from "../../app/hooks";
import { usePolling } from "../../app/usePolling";
import { Button, Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { useAccountMeta } from "../account/hooks";
import { cardErrorMessage } from "./card-errors";
import { planName } from "./price";
import { settledStatus, type PaymentStatus } from "./plan-selection";
import "./plans.css";

/** How often the processing page asks whether the payment has settled. */
export const PAYMENT_POLL_MS = 2_000;
/** After this long still processing, the page says the payment is pending (SPEC §8). */
export const PAYMENT_SETTLE_MS = 60_000;

/**
 * The payment status pages (SPEC §2, §4 Payment): processing while the latest payment settles (the
 * subscription is asked again every 2 s), then success, failed or pending, each with the way back to /account.
 */
export function PaymentStatusView({ status, paymentId }: { status: PaymentStatus; paymentId: number | null }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const subscription = useAccountMeta("subscription");
  const config = useConfig();
  const started = useRef(Date.now());
  const [fresh, setFresh] = useState(false);

  // A new wait (Refresh from the pending page) starts its own clock.
  useEffect(() => {
    started.current = Date.now();
    setFresh(false);
  }, [status]);

  // Every status page reads the subscription again once (and the user, quotas and limits with it).
  usePolling(() => worker.refreshAccount().then(() => setFresh(true)), status, status === "processing" ? PAYMENT_POLL_MS : undefined);

  const latest = subscription?.latest_payment ?? null;
  const payment = paymentId === null ? latest : latest?.id === paymentId ? latest : null;

  useEffect(() => {
    if (status !== "processing" || !fresh || !subscription) return;
    // Another payment than ours is the newest: ours is not known yet, keep asking.
    if (paymentId !== null && latest?.id !== paymentId && latest && latest.id < paymentId) return;
    const next = settledStatus(payment) ?? (Date.now() - started.current > PAYMENT_SETTLE_MS ? "pending" : null);
    if (next) void navigate({ to: "/payment/$status", params: { status: next }, search: paymentId ? { payment: paymentId } : {}, replace: true });
  }, [status, fresh, subscription, payment, latest, paymentId, navigate]);

  const back = (
    <Link to="/account" className="btn btn-primary">
      <Trans>Back to your account</Trans>
    </Link>
  );

  return (
    <div className="card payment-status" role="status" aria-live="polite">
      {status === "processing" && (
        <>
          <h1>
            <Trans>Processing your payment</Trans>
          </h1>
          <Spinner label={t`Processing your payment`} />
          <p>
            <Trans>This takes a few seconds. Please keep this page open.</Trans>
          </p>
        </>
      )}
      {status === "success" && (
        <>
          <h1>{subscription?.stripe_subscription?.status === "trialing" ? <Trans>Your free trial has started</Trans> : <Trans>Payment successful</Trans>}</h1>
          {subscription && (
            <p>
              <Trans>You are now on {planName(subscription.plan.nickname)}. Your new limits apply right away.</Trans>
            </p>
          )}
          {back}
        </>
      )}
      {status === "failed" && (
        <>
          <h1>
            <Trans>Payment failed</Trans>
          </h1>
          <p>
            <Trans>Your previous payment attempt failed. You can try to pay again or contact us</Trans>
          </p>
          {payment?.failure_code && (
            <p className="notice notice-danger">{cardErrorMessage(payment.failure_code, payment.failure_message ?? undefined)}</p>
          )}
          <div className="actions">
            {back}
            {config && (
              <a className="btn btn-ghost" href={config.links.contact}>
                <Trans>Contact us</Trans>
              </a>
            )}
          </div>
        </>
      )}
      {status === "pending" && (
        <>
          <h1>
            <Trans>Payment pending</Trans>
          </h1>
          <p>
            <Trans>Payment pending... try refreshing in a couple of minutes</Trans>
          </p>
          <div className="actions">
            <Button
              variant="secondary"
              onPress={() => void navigate({ to: "/payment/$status", params: { status: "processing" }, search: paymentId ? { payment: paymentId } : {}, replace: true })}
            >
              <Trans>Refresh</Trans>
            </Button>
            {back}
          </div>
        </>
      )}
    </div>
  );
}
