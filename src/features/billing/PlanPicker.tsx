import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import type { Plan } from "../../../api/plans";
import type { PaymentMethod, SubscriptionInfo } from "../../../api/payments";
import { useCurrentUser } from "../../app/hooks";
import type { UserRow } from "../../db";
import { formatDate } from "../../lib/format";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { useAccountMeta } from "../account/hooks";
import { failureMessage } from "../errors";
import { CardChoice } from "./CardChoice";
import { cardErrorMessage } from "./card-errors";
import { DEFAULT_INTERVAL, IntervalSwitch, MonthlyTime, PlanCards, usePlans, type BillingInterval } from "./PlanCards";
import { formatNumber, formatPrice, isPaidPlan, planName, resolution } from "./price";
import { useConfirmPayment } from "./useConfirmPayment";
import { FREE_PLAN_ID, TRIAL_DAYS, decide, lostOnDowngrade, type Loss } from "./plan-selection";

/** Card brands as their owners write them ("visa" → "Visa"). */

type Flow =
  | { kind: "upgrade"; plan: Plan; step: "details" | "payment" }
  | { kind: "downgrade"; plan: Plan }
  /** A past-due renewal: pay the open invoice of the current plan with a card. */
  | { kind: "retry"; plan: Plan; step: "payment" };

/**
 * SPEC §2 Plan selection flow on /account: the plan cards with the monthly/yearly switch, then choosing a
 * plan — nothing for the current one, a downgrade confirmation (at the period end) for one that costs the
 * same or less, otherwise the upgrade: details, optional coupon, next, a saved or new card, pay. Cancel
 * renewal (Free at the period end) and resume. Lifetime users never see it.
 */
export function PlanPicker() {
  const { t, i18n } = useLingui();
  const user = useCurrentUser();
  const subscription = useAccountMeta("subscription");
  const [interval, setInterval] = useState<BillingInterval>(DEFAULT_INTERVAL);
  const plans = usePlans(interval);
  const monthly = usePlans("month");
  const [flow, setFlow] = useState<Flow | null>(null);
  const [pending, setPending] = useState(false);

  if (!user || user.ltd_tier) return null;
  const currentPlanId = subscription?.stripe_plan ?? user.plan.id;
  const currentPlan = subscription?.plan ?? null;
  const live = subscription?.stripe_subscription ?? null;
  const freePlan = monthly?.find((p) => p.id === FREE_PLAN_ID) ?? null;

  const choose = (plan: Plan) => {
    const decision = decide(plan, currentPlanId, currentPlan?.amount ?? 0);
    if (decision === "none") return;
    // Free plans are not sold: choosing one cancels renewal, which the server does as a move to Free.
    if (decision === "downgrade") setFlow({ kind: "downgrade", plan: isPaidPlan(plan) ? plan : (freePlan ?? plan) });
    else setFlow({ kind: "upgrade", plan, step: "details" });
  };

  const resume = async () => {
    setPending(true);
    const result = await worker.updateSubscription(currentPlanId, null, null);
    setPending(false);
    if (result.ok && result.data.subscription_updated) toast({ variant: "success", title: t`Your plan renews again` });
    else if (result.ok) toast({ variant: "danger", title: t`Error`, description: t`payment error` });
    else toast({ variant: "danger", title: t`Error`, description: failureMessage(i18n, result.failure) });
  };

  return (
    <div className="plan-picker">
      <div className="plan-picker-head">
        <h2>
          <Trans>Plans</Trans>
        </h2>
        <IntervalSwitch value={interval} onChange={setInterval} />
      </div>
      {live?.status === "past_due" && currentPlan && (
        <div className="notice notice-danger" role="alert">
          <p>
            <Trans>Your previous payment attempt failed. You can try to pay again or contact us</Trans>
          </p>
          <Button variant="secondary" onPress={() => setFlow({ kind: "retry", plan: currentPlan, step: "payment" })}>
            <Trans>Pay again</Trans>
          </Button>
        </div>
      )}
      {live?.cancel_at && (
        <div className="notice notice-warning" role="status">
          <p>
            <Trans>Your plan does not renew: you move to Free on {formatDate(live.cancel_at, user.locale)}.</Trans>
          </p>
          <Button variant="secondary" onPress={() => void resume()} isPending={pending}>
            <Trans>Resume renewal</Trans>
          </Button>
        </div>
      )}
      {live?.pending_plan && !live.cancel_at && (
        <p className="notice notice-neutral" role="status">
          <Trans>Your plan changes at the end of this billing period, on {formatDate(live.current_period_end, user.locale)}.</Trans>
        </p>
      )}
      {plans === undefined || (plans === null && subscription === undefined) ? (
        <p className="muted">
          <Trans>Loading plans…</Trans>
        </p>
      ) : !plans ? (
        <p className="notice notice-warning" role="status">
          <Trans>The plans show here once Cutroom reaches the server.</Trans>
        </p>
      ) : (
        <PlanCards
          plans={plans}
          currentPlanId={currentPlanId}
          action={(plan) => {
            const decision = decide(plan, currentPlanId, currentPlan?.amount ?? 0);
            if (decision === "none") return null;
            return (
              <Button variant={decision === "upgrade" ? "primary" : "secondary"} onPress={() => choose(plan)}>
                {decision === "upgrade" ? <Trans>Choose {planName(plan.nickname)}</Trans> : <Trans>Switch to {planName(plan.nickname)}</Trans>}
              </Button>
            );
          }}
        />
      )}
      {live && !live.cancel_at && currentPlan && isPaidPlan(currentPlan) && freePlan && (
        <div>
          <Button variant="ghost" onPress={() => setFlow({ kind: "downgrade", plan: freePlan })}>
            <Trans>Cancel renewal</Trans>
          </Button>
        </div>
      )}
      {flow?.kind === "downgrade" && subscription && (
        <DowngradeDialog plan={flow.plan} subscription={subscription} user={user} onClose={() => setFlow(null)} />
      )}
      {(flow?.kind === "upgrade" || flow?.kind === "retry") && subscription && (
        <UpgradeDialog flow={flow} subscription={subscription} user={user} onStep={(step) => setFlow({ ...flow, step } as Flow)} onClose={() => setFlow(null)} />
      )}
    </div>
  );
}

/** One line per thing the user loses (SPEC §2: "warns of lost features or trial"). */
function LossLine({ loss, locale }: { loss: Loss; locale: string }) {
  switch (loss.kind) {
    case "hours":
      return (
        <Trans>
          AI editing a month: <MonthlyTime minutes={loss.to} /> instead of <MonthlyTime minutes={loss.from} />
        </Trans>
      );
    case "resolution":
      return (
        <Trans>
          Exports up to {resolution(loss.to)} instead of {resolution(loss.from)}
        </Trans>
      );
    case "storage":
      return (
        <Trans>
          Storage: {formatNumber(loss.to, locale)} GB instead of {formatNumber(loss.from, locale)} GB. Your files are kept, but new uploads wait until you are under the limit.
        </Trans>
      );
    case "file":
      return (
        <Trans>
          Longest file: {loss.to} minutes instead of {loss.from}
        </Trans>
      );
    case "paid-features":
      return <Trans>Auto subtitle translation, priority support, and videos without a watermark</Trans>;
  }
}

function DowngradeDialog({ plan, subscription, user, onClose }: { plan: Plan; subscription: SubscriptionInfo; user: UserRow; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const [pending, setPending] = useState(false);
  const live = subscription.stripe_subscription;
  const when = live ? formatDate(live.current_period_end, user.locale) : "";
  const current = planName(subscription.plan.nickname);
  const name = planName(plan.nickname);
  const losses = lostOnDowngrade(subscription.plan, plan);
  const toFree = !isPaidPlan(plan);

  const confirm = async () => {
    setPending(true);
    const result = await worker.updateSubscription(toFree ? FREE_PLAN_ID : plan.id, null, null);
    setPending(false);
    if (!result.ok) return toast({ variant: "danger", title: t`Error`, description: failureMessage(i18n, result.failure) });
    if (!result.data.subscription_updated) return toast({ variant: "danger", title: t`Error`, description: t`payment error` });
    const end = result.data.subscription.stripe_subscription?.current_period_end;
    const date = end ? formatDate(end, user.locale) : when;
    toast({
      variant: "success",
      title: toFree ? t`Renewal cancelled` : t`Plan change scheduled`,
      description: toFree ? t`You keep ${current} until ${date}, then move to Free.` : t`You keep ${current} until ${date}, then move to ${name}.`,
    });
    onClose();
  };

  return (
    <Dialog
      isOpen
      onOpenChange={(open) => !open && !pending && onClose()}
      isDismissable={!pending}
      title={toFree ? t`Cancel renewal?` : t`Switch to ${name}?`}
      actions={
        <>
          <Button variant="ghost" onPress={onClose} isDisabled={pending}>
            <Trans>Keep {current}</Trans>
          </Button>
          <Button variant="danger" onPress={() => void confirm()} isPending={pending}>
            {toFree ? <Trans>Cancel renewal</Trans> : <Trans>Switch to {name}</Trans>}
          </Button>
        </>
      }
    >
      <div className="plan-flow">
        {live?.status === "trialing" ? (
          <p className="notice notice-warning">
            <Trans>
              You are on the free trial of {current}. It ends on {when} with this change, and the free trial is offered only once.
            </Trans>
          </p>
        ) : (
          <p>
            {toFree ? (
              <Trans>Your plan stops renewing. You keep {current} until {when}, then move to Free.</Trans>
            ) : (
              <Trans>The change takes effect at the end of this billing period, on {when}. Until then you keep {current}.</Trans>
            )}
          </p>
        )}
        {losses.length > 0 && (
          <>
            <p>
              <Trans>From then on you lose:</Trans>
            </p>
            <ul>
              {losses.map((loss) => (
                <li key={loss.kind}>
                  <LossLine loss={loss} locale={i18n.locale} />
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </Dialog>
  );
}

type CouponState = { status: "none" } | { status: "unchecked"; code: string } | { status: "checking"; code: string } | { status: "invalid"; code: string } | { status: "valid"; code: string; percentOff: number; discounted: number };

function UpgradeDialog({
  flow,
  subscription,
  user,
  onStep,
  onClose,
}: {
  flow: Extract<Flow, { kind: "upgrade" | "retry" }>;
  subscription: SubscriptionInfo;
  user: UserRow;
  onStep: (step: "details" | "payment") => void;
  onClose: () => void;
}) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const methods = useAccountMeta("paymentMethods");
  const { confirm, element: confirmElement } = useConfirmPayment();
  const [coupon, setCoupon] = useState<CouponState>({ status: "none" });
  const [couponText, setCouponText] = useState("");
  const [selected, setSelected] = useState<string | null>(null);
  const [addingCard, setAddingCard] = useState(false);
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { plan } = flow;
  const name = planName(plan.nickname);
  const live = subscription.stripe_subscription;
  const trial = flow.kind === "upgrade" && subscription.trial_available && !live;
  const cards: PaymentMethod[] = methods?.data ?? [];
  const method = selected ?? cards.at(-1)?.id ?? null;
  const price = formatPrice(plan.amount, i18n.locale);
  const trialEnd = formatDate(new Date(Date.now() + TRIAL_DAYS * 86_400_000), user.locale);

  const editCoupon = (text: string) => {
    setCouponText(text);
    // SPEC §5: an empty code clears the coupon; another code must be checked again.
    setCoupon(text.trim() ? { status: "unchecked", code: text.trim() } : { status: "none" });
  };

  const applyCoupon = async () => {
    const code = couponText.trim();
    if (!code) return setCoupon({ status: "none" });
    setCoupon({ status: "checking", code });
    const result = await worker.checkCoupon(code, plan.id);
    // A coupon that fails to load is marked invalid too (SPEC §5).
    if (result.ok && result.data.coupon.isValid && result.data.coupon.percent_off)
      setCoupon({ status: "valid", code, percentOff: result.data.coupon.percent_off, discounted: result.data.plan.discounted_amount });
    else setCoupon({ status: "invalid", code });
  };

  const pay = async () => {
    setError(null);
    if (isPaidPlan(plan) && !method) {
      toast({ variant: "info", title: t`Select a payment method`, description: t`Choose a saved card or add a new one to pay.` });
      return;
    }
    setPaying(true);
    try {
      const result = await worker.updateSubscription(plan.id, method, coupon.status === "valid" ? coupon.code : null);
      if (!result.ok) {
        setError(failureMessage(i18n, result.failure));
        toast({ variant: "danger", title: t`Error`, description: t`Error processing payment` });
        return;
      }
      const { change, payment, subscription: after } = result.data;
      if (change === "requires_action" && payment?.client_secret) {
        const outcome = await confirm(payment.client_secret, after.payment_mode);
        await worker.refreshAccount();
        onClose();
        void navigate({ to: "/payment/$status", params: { status: outcome === "succeeded" ? "processing" : "failed" }, search: { payment: payment.id } });
        return;
      }
      if (!result.data.subscription_updated) {
        if (payment?.failure_code || payment?.failure_message) setError(cardErrorMessage(payment.failure_code, payment.failure_message ?? undefined));
        toast({ variant: "danger", title: t`Error`, description: t`payment error` });
        return;
      }
      onClose();
      if (payment && payment.status !== "succeeded") {
        void navigate({ to: "/payment/$status", params: { status: "processing" }, search: { payment: payment.id } });
      } else {
        void navigate({ to: "/payment/$status", params: { status: "success" }, search: payment ? { payment: payment.id } : {} });
      }
    } finally {
      setPaying(false);
    }
  };

  const showNext = coupon.status === "none" || coupon.status === "valid";
  const details = flow.step === "details";

  return (
    <Dialog
      isOpen
      onOpenChange={(open) => !open && !paying && onClose()}
      isDismissable={!paying && !addingCard}
      title={flow.kind === "retry" ? t`Pay for ${name}` : t`Upgrade to ${name}`}
      size="wide"
      actions={
        addingCard ? undefined : details ? (
          <>
            <Button variant="ghost" onPress={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            {showNext && (
              <Button variant="primary" onPress={() => onStep("payment")}>
                <Trans>Next</Trans>
              </Button>
            )}
          </>
        ) : (
          <>
            {flow.kind === "upgrade" && (
              <Button variant="ghost" onPress={() => onStep("details")} isDisabled={paying}>
                <Trans>Back</Trans>
              </Button>
            )}
            <Button variant="primary" onPress={() => void pay()} isPending={paying}>
              {trial ? <Trans>Start free trial</Trans> : <Trans>Pay</Trans>}
            </Button>
          </>
        )
      }
    >
      <div className="plan-flow">
        <p className="plan-flow-steps">{details ? <Trans>Step 1 of 2: plan details</Trans> : <Trans>Step 2 of 2: payment</Trans>}</p>
        <dl className="plan-flow-summary">
          <dt>
            <Trans>Plan</Trans>
          </dt>
          <dd>{name}</dd>
          <dt>
            <Trans>Price</Trans>
          </dt>
          <dd>
            {coupon.status === "valid" ? (
              <>
                <s>{price}</s> {formatPrice(coupon.discounted, i18n.locale)}
              </>
            ) : (
              price
            )}{" "}
            {plan.interval === "year" ? <Trans>billed yearly</Trans> : <Trans>per month</Trans>}
          </dd>
        </dl>
        {trial ? (
          <p>
            <Trans>
              Your first {TRIAL_DAYS} days are a free trial: nothing is charged until {trialEnd}.
            </Trans>
          </p>
        ) : live?.status === "trialing" ? (
          <p>
            <Trans>Your free trial continues with {name}; the first charge is at the end of the trial.</Trans>
          </p>
        ) : live && flow.kind === "upgrade" ? (
          <p>
            <Trans>The upgrade starts now. You pay the difference for the rest of this billing period (prorated).</Trans>
          </p>
        ) : null}
        {details ? (
          <div className="plan-flow-coupon">
            <TextField
              label={t`Coupon (optional)`}
              value={couponText}
              onChange={editCoupon}
              maxLength={64}
              autoComplete="off"
              errorMessage={coupon.status === "invalid" ? t`This coupon is not valid.` : undefined}
              description={coupon.status === "valid" ? t`${coupon.percentOff}% off the first billing period only.` : undefined}
              onKeyDown={(e) => {
                if (e.key === "Enter") void applyCoupon();
              }}
            />
            {couponText.trim() && coupon.status !== "valid" && (
              <Button variant="secondary" onPress={() => void applyCoupon()} isPending={coupon.status === "checking"}>
                <Trans>Apply</Trans>
              </Button>
            )}
          </div>
        ) : (
          <>
            {coupon.status === "valid" && (
              <p>
                <Trans>
                  Coupon {coupon.code}: {coupon.percentOff}% off the first billing period only.
                </Trans>
              </p>
            )}
            <CardChoice cards={cards} selected={method} onSelect={setSelected} adding={addingCard} onAddingChange={setAddingCard} />
            {error && (
              <p className="notice notice-danger" role="alert">
                {error}
              </p>
            )}
          </>
        )}
      </div>
      {confirmElement}
    </Dialog>
  );
}
