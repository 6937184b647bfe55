import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { ToggleButton, ToggleButtonGroup } from "react-aria-components";
import type { Plan } from "../../../api/plans";
import { LOCALES, type Locale } from "../../../api/language-codes";
import { setAnonymousLocale, useAnonymousLocale, useConfig, useCurrentUser } from "../../app/hooks";
import { Logo } from "../../app/Logo";
import { signOut } from "../../app/session";
import { Avatar } from "../../app/UserMenu";
import type { UserRow } from "../../db";
import { LOCALE_NAMES } from "../../i18n/locale";
import { Button } from "../../ui/Button";
import { Select } from "../../ui/Select";
import { worker } from "../../worker";
import { useAccountMeta } from "../account/hooks";
import { DEFAULT_INTERVAL, IntervalSwitch, MonthlyTime, PlanCards, PlanFeatures, usePlans, type BillingInterval } from "./PlanCards";
import { formatNumber, isPaidPlan, isProfessional, maxFileSizeGb, planName, resolution, yearlyHoursFactor } from "./price";
import "./plans.css";

/** SPEC §2 Pricing view: the anonymous visitor's language switch offers English and Portuguese. */
const PRICING_VISITOR_LOCALES: readonly Locale[] = ["en", "pt-BR"];

/**
 * The in-app pricing view (SPEC §2 Pricing view), shown at /pricing when no external pricing page is set:
 * its own top bar (no left menu), the monthly/yearly switch with the annual banner, the plan cards with their
 * calls to action, and the comparison table. Every price and limit comes from GET /payment/plans.
 */
export function PricingView() {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const [interval, setInterval] = useState<BillingInterval>(DEFAULT_INTERVAL);
  const monthly = usePlans("month");
  const yearly = usePlans("year");
  const plans = interval === "year" ? yearly : monthly;
  const factor = monthly && yearly ? yearlyHoursFactor(monthly, yearly) : null;
  const shownFactor = factor ? formatNumber(factor, i18n.locale) : "";
  const subscription = useAccountMeta("subscription");

  // A signed-in visitor's plan (for the current-plan badge and whether the trial is still offered).
  const userId = user?.id;
  useEffect(() => {
    if (userId) void worker.refreshSubscription();
  }, [userId]);

  const currentPlanId = user ? (subscription?.stripe_plan ?? user.plan.id) : null;
  // A signed-in user who already used the trial is not promised one.
  const trialOffered = !user || subscription?.trial_available !== false;

  return (
    <>
      {user ? <SignedInPricingBar user={user} /> : user === null ? <VisitorPricingBar /> : null}
      <main className="pricing" id="main">
        <div className="pricing-intro">
          <h1>
            <Trans>Plans and pricing</Trans>
          </h1>
          <IntervalSwitch value={interval} onChange={setInterval} />
          {factor && (
            <p className="pricing-banner">
              <Trans>Yearly plans give up to {shownFactor} times more hours of AI editing every month.</Trans>
            </p>
          )}
        </div>
        {plans === undefined ? (
          <p className="muted">
            <Trans>Loading plans…</Trans>
          </p>
        ) : !plans ? (
          <p className="notice notice-warning" role="status">
            <Trans>The plans could not be loaded. Check your connection and try again.</Trans>
          </p>
        ) : (
          <>
            <PlanCards plans={plans} currentPlanId={currentPlanId} action={(plan) => <PricingAction plan={plan} user={user ?? null} trialOffered={trialOffered} />} />
            <ComparisonTable plans={plans} caption={t`Compare plans`} />
          </>
        )}
      </main>
    </>
  );
}

/** SPEC §2: visitors get sign-up-free on free plans and try-for-free (to /register) on paid ones; signed-in users try-for-free to /account on paid plans. */
function PricingAction({ plan, user, trialOffered }: { plan: Plan; user: UserRow | null; trialOffered: boolean }) {
  const config = useConfig();
  if (user) {
    if (!isPaidPlan(plan)) return null;
    return (
      <Link to="/account" hash="plans" className="btn btn-primary">
        {trialOffered ? <Trans>Try for free</Trans> : <Trans>Choose {planName(plan.nickname)}</Trans>}
      </Link>
    );
  }
  // The beta host takes no registrations: its visitors sign in instead.
  if (config?.betaHost) {
    return (
      <Link to="/login" className="btn btn-secondary">
        <Trans>Sign in</Trans>
      </Link>
    );
  }
  return isPaidPlan(plan) ? (
    <Link to="/register" className="btn btn-primary">
      <Trans>Try for free</Trans>
    </Link>
  ) : (
    <Link to="/register" className="btn btn-secondary">
      <Trans>Sign up free</Trans>
    </Link>
  );
}

/** SPEC §2: one column per plan; rows minutes a month, resolution, storage, longest file, largest file, features. */
function ComparisonTable({ plans, caption }: { plans: readonly Plan[]; caption: string }) {
  const { i18n } = useLingui();
  const col = (plan: Plan) => (isProfessional(plan) ? "plan-col-highlight" : undefined);
  return (
    <div className="pricing-table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="pricing-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <td />
            {plans.map((plan) => (
              <th key={plan.id} scope="col" className={col(plan)}>
                {planName(plan.nickname)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">
              <Trans>AI editing per month</Trans>
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={col(plan)}>
                <MonthlyTime minutes={plan.metadata.monthly_minutes} />
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">
              <Trans>Resolution</Trans>
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={col(plan)}>
                {resolution(plan.metadata.video_tier)}
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">
              <Trans>Storage</Trans>
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={col(plan)}>
                {formatNumber(plan.metadata.storage_gb, i18n.locale)} GB
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">
              <Trans>Longest file</Trans>
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={col(plan)}>
                <Trans>{plan.metadata.upload_max_length_minutes} minutes</Trans>
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">
              <Trans>Largest file</Trans>
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={col(plan)}>
                {formatNumber(maxFileSizeGb(plan.metadata.upload_max_size_mb), i18n.locale)} GB
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">
              <Trans>Included features</Trans>
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={col(plan)}>
                <PlanFeatures plan={plan} />
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** SPEC §2: for visitors, a home link, a return-to-app link, a sign-in link and English/Portuguese. */
function VisitorPricingBar() {
  const { t } = useLingui();
  const locale = useAnonymousLocale();
  return (
    <header className="top-bar">
      <Logo />
      <nav className="pricing-top-links" aria-label={t`Pricing page`}>
        <Link to="/" className="btn btn-ghost">
          <Trans>Home</Trans>
        </Link>
        <Link to="/open" className="btn btn-ghost">
          <Trans>Return to the app</Trans>
        </Link>
        <Link to="/login" className="btn btn-ghost">
          <Trans>Sign in</Trans>
        </Link>
        <ToggleButtonGroup
          className="interval-switch"
          aria-label={t`Language`}
          selectionMode="single"
          disallowEmptySelection
          selectedKeys={[PRICING_VISITOR_LOCALES.includes(locale) ? locale : "en"]}
          onSelectionChange={(keys) => {
            const [key] = [...keys];
            if (key) setAnonymousLocale(key as Locale);
          }}
        >
          {PRICING_VISITOR_LOCALES.map((id) => (
            <ToggleButton key={id} id={id} className="interval-option" lang={id}>
              {id === "en" ? "English" : "Português"}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </nav>
    </header>
  );
}

/** SPEC §2: signed-in users see their avatar, name, email, language choice and exit. */
function SignedInPricingBar({ user }: { user: UserRow }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <header className="top-bar">
      <Logo />
      <div className="top-bar-end">
        <span className="pricing-user">
          <Avatar user={user} />
          <span className="pricing-user-text">
            <strong>{user.name}</strong>
            <span className="muted">{user.email}</span>
          </span>
        </span>
        <div className="compact-select">
          <Select<Locale>
            label={t`Language`}
            value={user.locale}
            onChange={(locale) => void worker.setLocale(locale)}
            options={LOCALES.map((id) => ({ id, label: LOCALE_NAMES[id] }))}
          />
        </div>
        <Button variant="ghost" onPress={() => void signOut().then(() => navigate({ to: "/login", search: {} }))}>
          <Trans>Exit</Trans>
        </Button>
      </div>
    </header>
  );
}
