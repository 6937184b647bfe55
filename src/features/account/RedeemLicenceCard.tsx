import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type FormEvent } from "react";
import { Form } from "react-aria-components";
import type { UserRow } from "../../db";
import { Button } from "../../ui/Button";
import { TextField } from "../../ui/TextField";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { lifetimeTierNumber } from "./format";

/** The marketplace a partner licence came from: the `{product}` of `{product}_tierN` (SPEC §3). */
const licenceProduct = (ltdTier: string) => ltdTier.replace(/_tier\d+$/, "");

/**
 * Issue 16, deals-marketplace licences on /account: a code bought on a deals marketplace is redeemed here
 * for its lifetime tier; once redeemed the card shows the tier and, when the operator set one, the
 * marketplace's page to change tier. Only online: the server checks and spends the code.
 */
export function RedeemLicenceCard({ user, online }: { user: UserRow; online: boolean }) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [upgradeUrl, setUpgradeUrl] = useState<string | null>(null);
  const licence = user.appsumo_license_uuid && user.ltd_tier ? { product: licenceProduct(user.ltd_tier), tier: lifetimeTierNumber(user.ltd_tier) } : null;

  // The upgrade link exists only for a redeemed licence and when the operator configured it (404 otherwise).
  useEffect(() => {
    if (!user.appsumo_license_uuid || !online) return;
    let live = true;
    void worker.licenceUpgradeLink().then((result) => {
      if (live) setUpgradeUrl(result.ok ? result.data.url : null);
    });
    return () => {
      live = false;
    };
  }, [user.appsumo_license_uuid, online]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError(t`Enter your licence code.`);
    setError(null);
    setPending(true);
    try {
      const result = await worker.redeemLicence(code.trim());
      if (!result.ok) return setError(failureMessage(i18n, result.failure));
      setCode("");
      const tier = result.data.ltd_tier ? lifetimeTierNumber(result.data.ltd_tier) : null;
      toast({ variant: "success", title: t`Licence redeemed`, description: tier !== null ? t`Your account now has lifetime Tier ${tier}.` : undefined });
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="card account-card account-licence" aria-labelledby="licence-title">
      <h2 id="licence-title">
        <Trans>Licence code</Trans>
      </h2>
      {licence && (
        <>
          <p className="account-plan-name">
            {licence.tier !== null ? <Trans>{licence.product} licence, Tier {licence.tier}</Trans> : <Trans>{licence.product} licence</Trans>}
          </p>
          {upgradeUrl && (
            <p>
              <a href={upgradeUrl} target="_blank" rel="noopener noreferrer">
                <Trans>Change your licence tier on {licence.product}</Trans>
              </a>
            </p>
          )}
        </>
      )}
      <p className="muted">
        {licence ? (
          <Trans>Have a code for a higher tier? Redeem it here to move up.</Trans>
        ) : (
          <Trans>Bought a lifetime licence on a deals marketplace? Enter its code to unlock your lifetime tier.</Trans>
        )}
      </p>
      <Form className="account-licence-form" onSubmit={(e) => void submit(e)} validationBehavior="aria">
        <TextField
          label={t`Licence code`}
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(null);
          }}
          maxLength={128}
          autoComplete="off"
          spellCheck="false"
          errorMessage={error ?? undefined}
          isDisabled={!online}
        />
        <div>
          <Button type="submit" variant="primary" isPending={pending} isDisabled={!online}>
            <Trans>Redeem</Trans>
          </Button>
        </div>
      </Form>
    </section>
  );
}
