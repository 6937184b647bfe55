import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useRef, useState, type ReactNode } from "react";
import type { PaymentMode } from "../../../api/payments";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";
import { cardErrorMessage } from "./card-errors";
import { authenticateLocal } from "./local-gateway";
import { loadStripeFor } from "./stripe";

export type ConfirmOutcome = "succeeded" | "failed";

interface Challenge {
  clientSecret: string;
  mode: PaymentMode;
  resolve: (outcome: ConfirmOutcome) => void;
}

/**
 * The 3-D Secure step of a payment or a card setup (a client secret whose intent "requires_action").
 * With Stripe, Stripe.js shows the bank's page (confirmCardPayment / confirmCardSetup). With the local
 * gateway nothing real is asked, so a test-mode dialog stands for the bank: Complete or Fail authentication.
 * Render `element` somewhere in the calling view.
 */
export function useConfirmPayment(): { confirm: (clientSecret: string, mode: PaymentMode) => Promise<ConfirmOutcome>; element: ReactNode } {
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [pending, setPending] = useState<"complete" | "fail" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<Challenge | null>(null);

  const confirm = useCallback(async (clientSecret: string, mode: PaymentMode): Promise<ConfirmOutcome> => {
    if (mode.gateway === "stripe") {
      if (!mode.publishable_key) return "failed";
      const stripe = await loadStripeFor(mode.publishable_key).catch(() => null);
      if (!stripe) return "failed";
      if (clientSecret.startsWith("seti_")) {
        const result = await stripe.confirmCardSetup(clientSecret);
        return !result.error && result.setupIntent.status === "succeeded" ? "succeeded" : "failed";
      }
      const result = await stripe.confirmCardPayment(clientSecret);
      // "processing": the bank said yes and the charge is on its way; the webhook settles it.
      return !result.error && (result.paymentIntent.status === "succeeded" || result.paymentIntent.status === "processing") ? "succeeded" : "failed";
    }
    return new Promise<ConfirmOutcome>((resolve) => {
      const next = { clientSecret, mode, resolve };
      current.current = next;
      setError(null);
      setChallenge(next);
    });
  }, []);

  const finish = (outcome: ConfirmOutcome) => {
    current.current?.resolve(outcome);
    current.current = null;
    setChallenge(null);
    setPending(null);
  };

  const answer = async (outcome: "complete" | "fail") => {
    const open = current.current;
    if (!open) return;
    setPending(outcome);
    setError(null);
    const result = await authenticateLocal(open.mode, open.clientSecret, outcome);
    if (!result.ok) {
      setPending(null);
      // Nothing left to confirm (expired, or already answered): the caller reads the payment's state again.
      if (result.code === "resource_missing") return finish("failed");
      setError(cardErrorMessage(result.code === "network" ? "processing_error" : result.code, result.message ?? undefined));
      return;
    }
    finish(result.data.status === "succeeded" ? "succeeded" : "failed");
  };

  const element = (
    <LocalChallengeDialog
      isOpen={!!challenge}
      pending={pending}
      error={error}
      onAnswer={(outcome) => void answer(outcome)}
      onDismiss={() => finish("failed")}
    />
  );
  return { confirm, element };
}

function LocalChallengeDialog(props: { isOpen: boolean; pending: "complete" | "fail" | null; error: string | null; onAnswer: (outcome: "complete" | "fail") => void; onDismiss: () => void }) {
  const { t } = useLingui();
  return (
    <Dialog
      isOpen={props.isOpen}
      onOpenChange={(open) => !open && props.onDismiss()}
      title={t`Confirm with your bank (test mode)`}
      isDismissable={!props.pending}
      actions={
        <>
          <Button variant="secondary" onPress={() => props.onAnswer("fail")} isPending={props.pending === "fail"} isDisabled={!!props.pending}>
            <Trans>Fail authentication</Trans>
          </Button>
          <Button variant="primary" onPress={() => props.onAnswer("complete")} isPending={props.pending === "complete"} isDisabled={!!props.pending} autoFocus>
            <Trans>Complete authentication</Trans>
          </Button>
        </>
      }
    >
      <p className="notice notice-warning">
        <Trans>Test mode: no real bank is asked and no real money moves.</Trans>
      </p>
      <p>
        <Trans>This card needs 3-D Secure. A real bank would now ask you to confirm the payment; choose what it answers.</Trans>
      </p>
      {props.error && (
        <p className="notice notice-danger" role="alert">
          {props.error}
        </p>
      )}
    </Dialog>
  );
}
