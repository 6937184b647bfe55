import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, type ReactNode } from "react";
import { ToggleButton, ToggleButtonGroup } from "react-aria-components";
import type { Plan } from "../../../api/plans";
import { db, type MetaRow } from "../../db";
import { worker } from "../../worker";
import { formatPrice, isPaidPlan, isProfessional, monthlyTime, originalCents, planName } from "./price";
import "./plans.css";

export type BillingInterval = "month" | "year";
/** SPEC §9: billing default annual. */
export const DEFAULT_INTERVAL: BillingInterval = "year";

/** The plans on sale for an interval, from the mirror (undefined while reading, null before the first answer); asked again when the interval changes. */
export function usePlans(interval: BillingInterval): Plan[] | null | undefined {
  useEffect(() => {
    void worker.refreshPlans(interval);
  }, [interval]);
  return useLiveQuery(
    async () => {
      const row = (await db.meta.get(`plans:${interval}`)) as Extract<MetaRow, { key: `plans:${BillingInterval}` }> | undefined;
      return row ? row.value.plans : null;
    },
    [interval],
    undefined,
  );
}

/** SPEC §2: the monthly/yearly switch (yearly by default). */
export function IntervalSwitch({ value, onChange }: { value: BillingInterval; onChange: (interval: BillingInterval) => void }) {
  const { t } = useLingui();
  return (
    <ToggleButtonGroup
      className="interval-switch"
      aria-label={t`Billing period`}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={(keys) => {
        const [key] = [...keys];
        if (key === "month" || key === "year") onChange(key);
      }}
    >
      <ToggleButton id="month" className="interval-option">
        <Trans>Monthly</Trans>
      </ToggleButton>
      <ToggleButton id="year" className="interval-option">
        <Trans>Yearly</Trans>
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

/** Monthly minutes as SPEC §9 shows them: "30 hours" from 120 minutes, else "90 minutes". */
export function MonthlyTime({ minutes }: { minutes: number }) {
  const time = monthlyTime(minutes);
  const value = Math.round(time.value * 10) / 10;
  return time.unit === "hours" ? <Plural value={value} one="# hour" other="# hours" /> : <Plural value={value} one="# minute" other="# minutes" />;
}

/** A short line under the plan's name, by the plan's name; plans an operator names otherwise have none. */
function PlanTip({ plan }: { plan: Plan }) {
  const name = planName(plan.nickname).toLowerCase();
  let tip: ReactNode = null;
  if (!isPaidPlan(plan)) tip = <Trans>Try every automatic edit at no cost.</Trans>;
  else if (name === "starter") tip = <Trans>For creators getting started.</Trans>;
  else if (name === "standard") tip = <Trans>For creators who publish every week.</Trans>;
  else if (name.startsWith("professional")) tip = <Trans>For professionals who publish every day.</Trans>;
  return tip ? <p className="plan-tip">{tip}</p> : null;
}

/** SPEC §2 Pricing view: what every plan includes, and what paid plans add. */
export function PlanFeatures({ plan }: { plan: Plan }) {
  const paid = isPaidPlan(plan);
  return (
    <ul className="plan-features">
      <li>
        <Trans>Auto-cut silences</Trans>
      </li>
      <li>
        <Trans>Smart background music</Trans>
      </li>
      <li>
        <Trans>Auto subtitles</Trans>
      </li>
      <li>
        <Trans>AI storyboard</Trans>
      </li>
      <li>
        <Trans>YouTube integration</Trans>
      </li>
      {paid ? (
        <>
          <li>
            <Trans>Auto subtitle translation</Trans>
          </li>
          <li>
            <Trans>Priority support</Trans>
          </li>
        </>
      ) : (
        <li>
          <Trans>Auto subtitle translation for a limited period</Trans>
        </li>
      )}
    </ul>
  );
}

/** A plan's price: what is charged (US$ from cents, two decimals), the original amount struck through when higher, and the billing note. */
export function PlanPrice({ plan }: { plan: Plan }) {
  const { i18n } = useLingui();
  const original = originalCents(plan);
  return (
    <p className="plan-price">
      {original !== null && (
        <s className="plan-price-original">
          <span className="visually-hidden">
            <Trans>Before:</Trans>{" "}
          </span>
          {formatPrice(original, i18n.locale)}
        </s>
      )}
      <strong className="plan-price-amount">{formatPrice(plan.amount, i18n.locale)}</strong>
      {isPaidPlan(plan) && (
        <span className="plan-price-note">{plan.interval === "year" ? <Trans>billed yearly</Trans> : <Trans>per month</Trans>}</span>
      )}
    </p>
  );
}

export interface PlanCardsProps {
  plans: readonly Plan[];
  /** The subscription's stripe_plan: that card gets the my-current-plan badge. */
  currentPlanId?: string | null;
  /** The call to action under each card (choose, sign up, try for free…). */
  action?: (plan: Plan) => ReactNode;
}

/** SPEC §2 plan cards, shared by the pricing view and /account: name, tip, price, badge, features, action. */
export function PlanCards({ plans, currentPlanId, action }: PlanCardsProps) {
  return (
    <ul className="plan-cards">
      {plans.map((plan) => {
        const current = plan.id === currentPlanId;
        const highlighted = isProfessional(plan);
        return (
          <li key={plan.id} className={`card plan-card${highlighted ? " plan-card-highlight" : ""}${current ? " plan-card-current" : ""}`} aria-current={current ? "true" : undefined}>
            <div className="plan-card-head">
              <h3 className="plan-name">{planName(plan.nickname)}</h3>
              {current && (
                <span className="badge plan-current-badge">
                  <Trans>My current plan</Trans>
                </span>
              )}
            </div>
            <PlanTip plan={plan} />
            <PlanPrice plan={plan} />
            <PlanFeatures plan={plan} />
            {action && <div className="plan-card-action">{action(plan)}</div>}
          </li>
        );
      })}
    </ul>
  );
}
