import { Trans, useLingui } from "@lingui/react/macro";
import { useLocation } from "@tanstack/react-router";
import { useEffect } from "react";
import { useCurrentUser } from "../../app/hooks";
import { usePolling } from "../../app/usePolling";
import { Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { useOnline } from "../storyboard/useOnline";
import { CurrentPlanCard } from "./CurrentPlanCard";
import { NotificationsCard } from "./NotificationsCard";
import { PaymentMethodsCard } from "./PaymentMethodsCard";
import { QuotasCard } from "./QuotasCard";
import { ProfileCard } from "./ProfileCard";
import { SecurityCard } from "./SecurityCard";
import { RedeemLicenceCard } from "./RedeemLicenceCard";
import { LifetimeWelcomeModal } from "./LifetimeWelcomeModal";
import { focusPlanPicker, PLANS_SECTION_ID } from "./plans-anchor";
import { PlanPicker } from "../billing/PlanPicker";
import "./account.css";

/**
 * /account (SPEC §2 Account): the plan picker (not for lifetime users), then a grid of cards — quotas,
 * current plan, payment methods, notifications — and the account's own settings below. What was last
 * fetched stays on screen offline; changing a plan or a card waits for the connection.
 */
export function AccountView() {
  const { t } = useLingui();
  const user = useCurrentUser();
  const online = useOnline();
  const { hash } = useLocation();
  const lifetime = !!user?.ltd_tier;

  usePolling(() =>
    Promise.all([worker.refreshUser(), worker.refreshQuotas(), worker.refreshLimits(), worker.refreshSubscription(), worker.refreshPaymentMethods()]),
  );

  // Upgrade links arrive as /account#plans: bring the plan picker into view once it is on the page.
  useEffect(() => {
    if (hash !== PLANS_SECTION_ID) return;
    let tries = 0;
    const timer = setInterval(() => {
      if (focusPlanPicker() || ++tries > 40) clearInterval(timer);
    }, 100);
    return () => clearInterval(timer);
  }, [hash]);

  if (!user) {
    return (
      <div className="card loading-card">
        <Spinner label={t`Loading your account…`} />
      </div>
    );
  }

  return (
    <div className="account">
      <h1>
        <Trans>Account</Trans>
      </h1>
      {!online && (
        <p className="notice notice-warning" role="status">
          <Trans>You are offline. This page shows what Cutroom last knew; plans and cards can be changed when you are back online.</Trans>
        </p>
      )}
      {/* Lifetime users see their tier and renewal date on the current-plan card, never the plan picker (SPEC §2). */}
      {!lifetime && (
        <section id={PLANS_SECTION_ID} className="account-plans" tabIndex={-1} aria-label={t`Plans`}>
          <PlanPicker />
        </section>
      )}
      <div className="account-grid">
        <QuotasCard user={user} />
        <CurrentPlanCard user={user} />
        <PaymentMethodsCard online={online} />
        <NotificationsCard user={user} />
        <ProfileCard user={user} />
        <SecurityCard />
        <RedeemLicenceCard user={user} online={online} />
      </div>
      {/* SPEC §2: a lifetime user's first visit while show_wizard is set. */}
      <LifetimeWelcomeModal user={user} />
    </div>
  );
}
