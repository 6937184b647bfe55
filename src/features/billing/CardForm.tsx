import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { StripeCardElement, Stripe } from "@stripe/stripe-js";
import type { PaymentMethod, SetupIntent } from "../../../api/payments";
import { Button, Spinner } from "../../ui/Button";
import { TextField } from "../../ui/TextField";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { cardErrorMessage } from "./card-errors";
import { confirmLocalSetup } from "./local-gateway";
import { parseExpiry } from "./expiry";
import { loadStripeFor } from "./stripe";
import { useConfirmPayment } from "./useConfirmPayment";
import "./billing.css";

export interface CardFormProps {
  /** The card is saved on the account (POST /user/payment/methods answered). */
  onSaved: (method: PaymentMethod) => void;
  /** Shows a Cancel button. */
  onCancel?: () => void;
  submitLabel?: string;
}

/** The local gateway's test cards (server/payments/local-gateway.ts), listed while it answers. */
const TEST_CARDS = ["4242 4242 4242 4242", "4000 0000 0000 0002", "4000 0027 6000 3184", "4000 0000 0000 0341"] as const;

/**
 * The card form (SPEC §5 Payment: a name on the card and valid card details). It asks the server for a
 * setup intent, gives the card to the gateway — Stripe Elements, or the local gateway's own fields — never
 * to the API, completes a 3-D Secure step when the card needs one, then saves the payment method's id.
 * While payments are in test mode it says so (and, with the local gateway, lists the test cards).
 */
export function CardForm({ onSaved, onCancel, submitLabel }: CardFormProps) {
  const { t, i18n } = useLingui();
  const [setup, setSetup] = useState<SetupIntent | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [name, setName] = useState("");
  const [number, setNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvc, setCvc] = useState("");
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<"name" | "number" | "expiry" | "cvc", string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const stripeCard = useRef<{ stripe: Stripe; card: StripeCardElement; complete: boolean } | null>(null);
  const { confirm, element: confirmElement } = useConfirmPayment();

  // A setup intent per form (and a new one after a card was confirmed but could not be saved).
  useEffect(() => {
    let live = true;
    setLoadError(null);
    void worker.paymentSetupIntent().then((result) => {
      if (!live) return;
      if (result.ok) setSetup(result.data);
      else setLoadError(failureMessage(i18n, result.failure));
    });
    return () => {
      live = false;
    };
  }, [attempt, i18n]);

  const mode = setup?.payment_mode;

  function validate(): boolean {
    const errors: typeof fieldErrors = {};
    if (!name.trim()) errors.name = t`Enter the name on the card.`;
    if (mode?.gateway === "local") {
      if (!number.trim()) errors.number = t`Enter the card number.`;
      if (!parseExpiry(expiry)) errors.expiry = t`Enter the expiry date as MM/YY.`;
      if (!cvc.trim()) errors.cvc = t`Enter the security code.`;
    } else if (!stripeCard.current?.complete) {
      setError(t`Enter your card details.`);
      setFieldErrors(errors);
      return false;
    }
    setFieldErrors(errors);
    return Object.keys(errors).length === 0;
  }

  /** Gives the card to the gateway; answers the confirmed payment method's id, or shows why not. */
  async function confirmCard(intent: SetupIntent): Promise<string | null> {
    const paymentMode = intent.payment_mode;
    if (paymentMode.gateway === "stripe") {
      const elements = stripeCard.current;
      if (!elements) return null;
      const result = await elements.stripe.confirmCardSetup(intent.client_secret, {
        payment_method: { card: elements.card, billing_details: { name: name.trim() } },
      });
      if (result.error) {
        setError(cardErrorMessage(result.error.decline_code ?? result.error.code ?? null, result.error.message));
        return null;
      }
      const method = result.setupIntent.payment_method;
      return typeof method === "string" ? method : (method?.id ?? null);
    }
    const expiryDate = parseExpiry(expiry)!;
    const answer = await confirmLocalSetup(paymentMode, intent.client_secret, { number, exp_month: expiryDate.month, exp_year: expiryDate.year, cvc: cvc.trim() }, name.trim());
    if (!answer.ok) {
      setError(answer.code === "network" ? t`We could not reach the card service. Check your connection and try again.` : cardErrorMessage(answer.code, answer.message ?? undefined));
      if (answer.code === "resource_missing") setAttempt((n) => n + 1);
      return null;
    }
    if (answer.data.status === "requires_action") {
      const outcome = await confirm(intent.client_secret, paymentMode);
      if (outcome === "failed") {
        setError(cardErrorMessage("setup_intent_authentication_failure"));
        return null;
      }
    }
    return answer.data.payment_method;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!setup || pending) return;
    setError(null);
    if (!validate()) return;
    setPending(true);
    try {
      const paymentMethod = await confirmCard(setup);
      if (!paymentMethod) return;
      const saved = await worker.addPaymentMethod(paymentMethod);
      if (!saved.ok) {
        setError(failureMessage(i18n, saved.failure));
        // This setup intent is used up: the next try gets a new one.
        setSetup(null);
        setAttempt((n) => n + 1);
        return;
      }
      // A form that stays open takes its next card afresh, with a new setup intent (this one is used).
      setNumber("");
      setExpiry("");
      setCvc("");
      setSetup(null);
      setAttempt((n) => n + 1);
      onSaved(saved.data);
    } finally {
      setPending(false);
    }
  }

  if (!setup) {
    return (
      <div className="card-form">
        {loadError ? (
          <>
            <p className="notice notice-danger" role="alert">
              {loadError}
            </p>
            <div className="actions">
              <Button variant="secondary" onPress={() => setAttempt((n) => n + 1)}>
                <Trans>Try again</Trans>
              </Button>
              {onCancel && (
                <Button variant="ghost" onPress={onCancel}>
                  <Trans>Cancel</Trans>
                </Button>
              )}
            </div>
          </>
        ) : (
          <Spinner label={t`Preparing the card form…`} />
        )}
      </div>
    );
  }

  const paymentMode = setup.payment_mode;
  return (
    <form className="card-form" onSubmit={(e) => void submit(e)} noValidate aria-label={t`Card details`}>
      {paymentMode.mode === "test" && (
        <div className="notice notice-warning card-form-test" role="note">
          <p>
            <strong>
              <Trans>Test mode</Trans>
            </strong>
            {": "}
            <Trans>no real card is charged and no real money moves.</Trans>
          </p>
          {paymentMode.gateway === "local" && (
            <>
              <p>
                <Trans>Use one of these test cards, any future expiry date and any three-digit security code:</Trans>
              </p>
              <ul className="card-form-test-cards">
                <li>
                  <code>{TEST_CARDS[0]}</code> <Trans>succeeds</Trans>
                </li>
                <li>
                  <code>{TEST_CARDS[1]}</code> <Trans>is declined</Trans>
                </li>
                <li>
                  <code>{TEST_CARDS[2]}</code> <Trans>asks for 3-D Secure</Trans>
                </li>
                <li>
                  <code>{TEST_CARDS[3]}</code> <Trans>is saved, then fails when charged</Trans>
                </li>
              </ul>
            </>
          )}
        </div>
      )}
      <TextField
        label={t`Name on card`}
        value={name}
        onChange={setName}
        autoComplete="cc-name"
        isRequired
        maxLength={255}
        errorMessage={fieldErrors.name}
        validationBehavior="aria"
      />
      {paymentMode.gateway === "local" ? (
        <div className="card-form-fields">
          <TextField
            label={t`Card number`}
            value={number}
            onChange={setNumber}
            autoComplete="cc-number"
            inputMode="numeric"
            isRequired
            maxLength={23}
            errorMessage={fieldErrors.number}
            validationBehavior="aria"
          />
          <div className="card-form-row">
            <TextField
              label={t`Expiry (MM/YY)`}
              value={expiry}
              onChange={setExpiry}
              autoComplete="cc-exp"
              inputMode="numeric"
              isRequired
              maxLength={7}
              errorMessage={fieldErrors.expiry}
              validationBehavior="aria"
            />
            <TextField
              label={t`Security code`}
              value={cvc}
              onChange={setCvc}
              autoComplete="cc-csc"
              inputMode="numeric"
              isRequired
              maxLength={4}
              errorMessage={fieldErrors.cvc}
              validationBehavior="aria"
            />
          </div>
        </div>
      ) : (
        <StripeCardField
          publishableKey={paymentMode.publishable_key}
          locale={i18n.locale}
          onReady={(stripe, card) => (stripeCard.current = { stripe, card, complete: false })}
          onChange={(complete, code) => {
            if (stripeCard.current) stripeCard.current.complete = complete;
            setError(code ? cardErrorMessage(code) : null);
          }}
        />
      )}
      {error && (
        <p className="notice notice-danger" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <Button type="submit" variant="primary" isPending={pending}>
          {submitLabel ?? t`Save card`}
        </Button>
        {onCancel && (
          <Button variant="ghost" onPress={onCancel} isDisabled={pending}>
            <Trans>Cancel</Trans>
          </Button>
        )}
      </div>
      {confirmElement}
    </form>
  );
}

/** Stripe's card field (an Elements iframe), mounted once Stripe.js has loaded for this key. */
function StripeCardField(props: {
  publishableKey: string | null;
  locale: string;
  onReady: (stripe: Stripe, card: StripeCardElement) => void;
  onChange: (complete: boolean, errorCode: string | null) => void;
}) {
  const { t } = useLingui();
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const callbacks = useRef(props);
  callbacks.current = props;

  useEffect(() => {
    if (!props.publishableKey) return setState("failed");
    let card: StripeCardElement | null = null;
    let live = true;
    void loadStripeFor(props.publishableKey)
      .catch(() => null)
      .then((stripe) => {
        if (!live) return;
        if (!stripe || !host.current) return setState("failed");
        const elements = stripe.elements({ locale: props.locale as "auto" });
        card = elements.create("card", { hidePostalCode: true, style: { base: { fontSize: "16px" } } });
        card.on("change", (event) => callbacks.current.onChange(event.complete, event.error?.code ?? null));
        card.mount(host.current);
        callbacks.current.onReady(stripe, card);
        setState("ready");
      });
    return () => {
      live = false;
      card?.destroy();
    };
  }, [props.publishableKey, props.locale]);

  return (
    <div className="field">
      <span className="field-label" id="stripe-card-label">
        <Trans>Card details</Trans>
      </span>
      <div ref={host} className="field-input card-form-stripe" aria-labelledby="stripe-card-label" />
      {state === "loading" && <Spinner label={t`Loading the secure card field…`} />}
      {state === "failed" && (
        <p className="notice notice-danger" role="alert">
          <Trans>The secure card field could not load. Check your connection and reload the page.</Trans>
        </p>
      )}
    </div>
  );
}
