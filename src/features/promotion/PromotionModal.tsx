import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import type { PaymentMethod } from "../../../api/payments";
import type { Plan } from "../../../api/plans";
import type { Promotion } from "../../../api/promotion";
import type { UserRow } from "../../db";
import { formatDate } from "../../lib/format";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { useAccountMeta } from "../account/hooks";
import { CardChoice } from "../billing/CardChoice";
import { cardErrorMessage } from "../billing/card-errors";
import { DEFAULT_INTERVAL, IntervalSwitch, PlanCards, usePlans, type BillingInterval } from "../billing/PlanCards";
import { formatPrice, isPaidPlan, planName } from "../billing/price";
import { useConfirmPayment } from "../billing/useConfirmPayment";
import { failureMessage } from "../errors";
import { promotionPlans } from "./promotion-plans";

type Step =
  | { kind: "plans" }
  /** The server's price with the promotion's coupon, then the card that pays. */
  | { kind: "payment"; plan: Plan; code: string; discounted: number; percentOff: number }
  | { kind: "success"; plan: Plan };

/**
 * SPEC §2 Plan selection flow, the promotion modal: a monthly/yearly switch (yearly by default), the plan
 * cards without Free and Basic, the promotion's coupon in a disabled field, a card-confirmation step, and
 * success — closing it reloads the page so every view shows the new plan. Prices come from the server.
 */
export function PromotionModal({ promotion, user, onClose }: { promotion: Promotion; user: UserRow; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const [interval, setInterval] = useState<BillingInterval>(promotion.coupons[DEFAULT_INTERVAL] ? DEFAULT_INTERVAL : "month");
  const plans = usePlans(interval);
  const methods = useAccountMeta("paymentMethods");
  const { confirm, element: confirmElement } = useConfirmPayment();
  const [step, setStep] = useState<Step>({ kind: "plans" });
  const [checking, setChecking] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [addingCard, setAddingCard] = useState(false);
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const coupon = promotion.coupons[interval];
  const cards: PaymentMethod[] = methods?.data ?? [];
  const method = selected ?? cards.at(-1)?.id ?? null;

  useEffect(() => {
    void worker.refreshPaymentMethods();
  }, []);

  const close = () => {
    if (paying) return;
    // SPEC §2: success reloads the page on close.
    if (step.kind === "success") window.location.reload();
    else onClose();
  };

  /** The server prices the plan with the coupon (never the client); a coupon it refuses stops here. */
  const choose = async (plan: Plan) => {
    if (!coupon) return;
    setError(null);
    setChecking(plan.id);
    try {
      const result = await worker.checkCoupon(coupon.code, plan.id);
      if (!result.ok) return setError(failureMessage(i18n, result.failure));
      if (!result.data.coupon.isValid || !result.data.coupon.percent_off) return setError(t`This offer does not apply to this plan.`);
      setStep({ kind: "payment", plan, code: coupon.code, discounted: result.data.plan.discounted_amount, percentOff: result.data.coupon.percent_off });
    } finally {
      setChecking(null);
    }
  };

  const pay = async (chosen: Extract<Step, { kind: "payment" }>) => {
    setError(null);
    if (!method) {
      toast({ variant: "info", title: t`Select a payment method`, description: t`Choose a saved card or add a new one to pay.` });
      return;
    }
    setPaying(true);
    try {
      const result = await worker.updateSubscription(chosen.plan.id, method, chosen.code);
      if (!result.ok) {
        setError(failureMessage(i18n, result.failure));
        toast({ variant: "danger", title: t`Error`, description: t`Error processing payment` });
        return;
      }
      const { change, payment, subscription } = result.data;
      if (change === "requires_action" && payment?.client_secret) {
        const outcome = await confirm(payment.client_secret, subscription.payment_mode);
        await worker.refreshAccount();
        if (outcome === "succeeded") setStep({ kind: "success", plan: chosen.plan });
        else setError(t`Your bank did not confirm the payment. Try again or use another card.`);
        return;
      }
      if (!result.data.subscription_updated) {
        setError(payment?.failure_code || payment?.failure_message ? cardErrorMessage(payment.failure_code, payment.failure_message ?? undefined) : t`payment error`);
        toast({ variant: "danger", title: t`Error`, description: t`payment error` });
        return;
      }
      setStep({ kind: "success", plan: chosen.plan });
    } finally {
      setPaying(false);
    }
  };

  const until = formatDate(promotion.ends_at, user.locale);
  const offered = promotionPlans(plans ?? []);

  return (
    <Dialog
      isOpen
      onOpenChange={(open) => !open && close()}
      isDismissable={!paying && !addingCard}
      size="wide"
      title={step.kind === "success" ? t`Welcome to ${planName(step.plan.nickname)}` : t`Seasonal offer`}
      actions={
        step.kind === "plans" ? (
          <Button variant="ghost" onPress={close}>
            <Trans>Not now</Trans>
          </Button>
        ) : step.kind === "payment" ? (
          addingCard ? undefined : (
            <>
              <Button variant="ghost" onPress={() => setStep({ kind: "plans" })} isDisabled={paying}>
                <Trans>Back</Trans>
              </Button>
              <Button variant="primary" onPress={() => void pay(step)} isPending={paying}>
                <Trans>Confirm and pay</Trans>
              </Button>
            </>
          )
        ) : (
          <Button variant="primary" onPress={close} autoFocus>
            <Trans>Close</Trans>
          </Button>
        )
      }
    >
      <div className="promotion-modal">
        {step.kind === "plans" && (
          <>
            <p>
              <Trans>This offer ends on {until}. The discount applies to your first billing period.</Trans>
            </p>
            {promotion.coupons.year && promotion.coupons.month && <IntervalSwitch value={interval} onChange={setInterval} />}
            <CouponField code={coupon?.code ?? ""} percentOff={coupon?.percent_off ?? null} />
            {plans === undefined || plans === null ? (
              <p className="muted" role="status">
                <Trans>Loading plans…</Trans>
              </p>
            ) : (
              <PlanCards
                plans={offered}
                action={(plan) => (
                  <Button variant={isPaidPlan(plan) ? "primary" : "secondary"} onPress={() => void choose(plan)} isPending={checking === plan.id} isDisabled={!!checking && checking !== plan.id}>
                    <Trans>Choose {planName(plan.nickname)}</Trans>
                  </Button>
                )}
              />
            )}
          </>
        )}
        {step.kind === "payment" && (
          <>
            <p className="plan-flow-steps">
              <Trans>Confirm your payment method</Trans>
            </p>
            <dl className="plan-flow-summary">
              <dt>
                <Trans>Plan</Trans>
              </dt>
              <dd>{planName(step.plan.nickname)}</dd>
              <dt>
                <Trans>Price</Trans>
              </dt>
              <dd>
                <s>{formatPrice(step.plan.amount, i18n.locale)}</s> <strong>{formatPrice(step.discounted, i18n.locale)}</strong>{" "}
                {step.plan.interval === "year" ? <Trans>billed yearly</Trans> : <Trans>per month</Trans>}
              </dd>
            </dl>
            <CouponField code={step.code} percentOff={step.percentOff} />
            <CardChoice cards={cards} selected={method} onSelect={setSelected} adding={addingCard} onAddingChange={setAddingCard} isDisabled={paying} />
          </>
        )}
        {step.kind === "success" && (
          <p className="notice notice-success" role="status">
            <Trans>Your plan is now {planName(step.plan.nickname)}. Close this window to start using it.</Trans>
          </p>
        )}
        {error && (
          <p className="notice notice-danger" role="alert">
            {error}
          </p>
        )}
      </div>
      {confirmElement}
    </Dialog>
  );
}

/** SPEC §2: the coupon field of the promotion is prefilled and disabled (the offer's code, not the user's). */
function CouponField({ code, percentOff }: { code: string; percentOff: number | null }) {
  const { t } = useLingui();
  return (
    <TextField
      label={t`Coupon`}
      value={code}
      isDisabled
      description={percentOff !== null ? t`${percentOff}% off the first billing period.` : undefined}
    />
  );
}
