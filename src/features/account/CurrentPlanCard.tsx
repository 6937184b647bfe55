import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import type { Locale } from "../../../api/language-codes";
import type { PaymentAttempt, SubscriptionInfo } from "../../../api/payments";
import { useConfig } from "../../app/hooks";
import type { UserRow } from "../../db";
import { formatDate } from "../../lib/format";
import { Button } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { cardErrorMessage } from "../billing/card-errors";
import { useConfirmPayment } from "../billing/useConfirmPayment";
import { lifetimeTierNumber, planDisplayName } from "./format";
import { useAccountMeta } from "./hooks";

/**
 * SPEC §2 Account, the current plan: its name, billing cycle, renewal, trial end, a renewal that was
 * cancelled or a downgrade waiting for the period end, a coupon waiting for the next charge and the latest
 * payment's state (SPEC §8 messages). Lifetime users see their tier and renewal date instead.
 */
export function CurrentPlanCard({ user }: { user: UserRow }) {
  const subscription = useAccountMeta("subscription");
  return (
    <section className="card account-card account-plan" aria-labelledby="plan-title">
      <h2 id="plan-title">
        <Trans>Current plan</Trans>
      </h2>
      {user.ltd_tier ? (
        <LifetimePlan user={user} />
      ) : subscription ? (
        <SubscriptionPlan subscription={subscription} locale={user.locale} />
      ) : (
        <>
          <p className="account-plan-name">{planDisplayName(user.plan.nickname)}</p>
          {subscription === null && (
            <p className="muted">
              <Trans>Renewal and payment details show here once Cutroom reaches the server.</Trans>
            </p>
          )}
        </>
      )}
    </section>
  );
}

function LifetimePlan({ user }: { user: UserRow }) {
  const tier = lifetimeTierNumber(user.ltd_tier!);
  const renews = user.ltd_renew_at ? formatDate(user.ltd_renew_at, user.locale) : null;
  return (
    <>
      <p className="account-plan-name">{tier !== null ? <Trans>Lifetime deal, Tier {tier}</Trans> : <Trans>Lifetime deal</Trans>}</p>
      {renews && (
        <p>
          <Trans>Your quotas renew on {renews}.</Trans>
        </p>
      )}
    </>
  );
}

function SubscriptionPlan({ subscription, locale }: { subscription: SubscriptionInfo; locale: Locale }) {
  const date = (value: string) => formatDate(value, locale);
  const gateway = subscription.stripe_subscription;
  const trialing = gateway?.status === "trialing" && subscription.trial_ends_at;
  const cancelling = !!gateway?.cancel_at;
  const free = subscription.plan.amount === 0 || !gateway;
  return (
    <>
      <p className="account-plan-name">
        <span>{planDisplayName(subscription.plan.nickname)}</span>
        {!free && subscription.interval && (
          <span className="badge">{subscription.interval === "year" ? <Trans>Billed yearly</Trans> : <Trans>Billed monthly</Trans>}</span>
        )}
      </p>
      {trialing && (
        <p>
          <Trans>Your free trial ends on {date(subscription.trial_ends_at!)}.</Trans>
        </p>
      )}
      {gateway && cancelling ? (
        <p className="notice notice-warning">
          <Trans>This plan will not renew. It ends on {date(gateway.cancel_at!)}, then your account goes back to Free.</Trans>
        </p>
      ) : gateway?.pending_plan ? (
        <p className="notice notice-neutral">
          <Trans>Your change to a lower plan takes effect on {date(gateway.current_period_end)}.</Trans>
        </p>
      ) : (
        subscription.renews_at && (
          <p>
            <Trans>Renews on {date(subscription.renews_at)}.</Trans>
          </p>
        )
      )}
      {gateway?.coupon && (
        <p>
          <Trans>
            Coupon {gateway.coupon.code}: {gateway.coupon.percent_off}% off your next payment.
          </Trans>
        </p>
      )}
      {subscription.deprecated && (
        <p className="muted">
          <Trans>This plan is no longer offered. You keep it while it renews.</Trans>
        </p>
      )}
      {subscription.latest_payment && <LatestPayment payment={subscription.latest_payment} subscription={subscription} />}
    </>
  );
}

/** SPEC §4 Payment states and §8 messages for the latest charge. */
function LatestPayment({ payment, subscription }: { payment: PaymentAttempt; subscription: SubscriptionInfo }) {
  const { t } = useLingui();
  const config = useConfig();
  const { confirm, element } = useConfirmPayment();
  const [confirming, setConfirming] = useState(false);

  const confirmNow = async () => {
    if (!payment.client_secret) return;
    setConfirming(true);
    try {
      const outcome = await confirm(payment.client_secret, subscription.payment_mode);
      if (outcome === "succeeded") toast({ variant: "success", title: t`Payment confirmed` });
      else toast({ variant: "danger", title: t`Error processing payment`, description: cardErrorMessage("payment_intent_authentication_failure") });
      await Promise.all([worker.refreshSubscription(), worker.refreshUser(), worker.refreshQuotas(), worker.refreshLimits()]);
    } finally {
      setConfirming(false);
    }
  };

  switch (payment.status) {
    case "failed":
      return (
        <div className="notice notice-danger" role="status">
          <p>
            <Trans>Your previous payment attempt failed. You can try to pay again or contact us</Trans>
            {config && (
              <>
                {" "}
                <a href={config.links.contact} target="_blank" rel="noopener noreferrer">
                  <Trans>Contact</Trans>
                </a>
              </>
            )}
          </p>
          {payment.failure_code && <p>{cardErrorMessage(payment.failure_code)}</p>}
        </div>
      );
    case "pending":
    case "processing":
      return (
        <p className="notice notice-neutral" role="status">
          <Trans>Payment pending... try refreshing in a couple of minutes</Trans>
        </p>
      );
    case "requires_action":
      return (
        <div className="notice notice-warning" role="status">
          <p>
            <Trans>Your bank asks you to confirm the latest payment.</Trans>
          </p>
          {payment.client_secret && (
            <Button variant="primary" onPress={() => void confirmNow()} isPending={confirming}>
              <Trans>Confirm payment</Trans>
            </Button>
          )}
          {element}
        </div>
      );
    case "succeeded":
      return null;
  }
}
