import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import type { PaymentMethod } from "../../../api/payments";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { CardForm } from "../billing/CardForm";
import { cardBrandName } from "../billing/card-brand";
import { failureMessage } from "../errors";
import { useAccountMeta } from "./hooks";

const brandName = cardBrandName;
const expiry = (method: PaymentMethod) => `${String(method.exp_month).padStart(2, "0")}/${String(method.exp_year).slice(-2)}`;

/** SPEC §2 Account: the saved cards (brand, last four digits, expiry), remove one after a question, add one. */
export function PaymentMethodsCard({ online }: { online: boolean }) {
  const { t, i18n } = useLingui();
  const methods = useAccountMeta("paymentMethods");
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PaymentMethod | null>(null);

  const remove = async (method: PaymentMethod) => {
    const result = await worker.removePaymentMethod(method.id);
    if (result.ok) toast({ variant: "success", title: t`Card removed` });
    else toast({ variant: "danger", title: t`Could not remove the card`, description: failureMessage(i18n, result.failure) });
  };

  return (
    <section className="card account-card" aria-labelledby="methods-title">
      <h2 id="methods-title">
        <Trans>Payment methods</Trans>
      </h2>
      {methods === undefined ? (
        <p className="muted">
          <Trans>Loading…</Trans>
        </p>
      ) : !methods || methods.data.length === 0 ? (
        <p className="muted">
          {methods ? <Trans>No saved cards yet.</Trans> : <Trans>Your saved cards show here once Cutroom reaches the server.</Trans>}
        </p>
      ) : (
        <ul className="account-methods">
          {methods.data.map((method) => (
            <li key={method.id} className="account-method">
              <span className="account-method-card">
                <strong>{brandName(method.brand)}</strong> <span aria-label={t`ending in ${method.last_four}`}>•••• {method.last_four}</span>
                <span className="muted">
                  <Trans>Expires {expiry(method)}</Trans>
                </span>
                {method.name && <span className="muted">{method.name}</span>}
              </span>
              <Button
                variant="ghost"
                onPress={() => setRemoving(method)}
                isDisabled={!online}
                aria-label={t`Remove ${brandName(method.brand)} ending in ${method.last_four}`}
              >
                <Trans>Remove</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {adding ? (
        <CardForm
          onSaved={(method) => {
            setAdding(false);
            toast({ variant: "success", title: t`Card saved`, description: `${brandName(method.brand)} •••• ${method.last_four}` });
          }}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <div className="actions">
          <Button variant="secondary" onPress={() => setAdding(true)} isDisabled={!online}>
            <Trans>Add a card</Trans>
          </Button>
        </div>
      )}
      <ConfirmDialog
        isOpen={!!removing}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t`Remove this card?`}
        confirmLabel={t`Remove card`}
        onConfirm={() => removing && remove(removing)}
      >
        {removing && (
          <p>
            <Trans>
              {brandName(removing.brand)} ending in {removing.last_four} will be removed from your account. A plan that renews with no card left
              goes back to Free.
            </Trans>
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
