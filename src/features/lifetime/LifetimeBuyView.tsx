import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { LIFETIME_TIERS, lifetimePlanId, type CheckoutSession, type LifetimeTier } from "../../../api/checkout";
import type { Plan } from "../../../api/plans";
import type { Failure } from "../../../workers/status";
import { useCurrentUser } from "../../app/hooks";
import { track } from "../../lib/analytics";
import { CHECKOUT_REDIRECT_MS } from "../../lib/constants";
import { Button, Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { failureMessage } from "../errors";
import { LifetimeLimits, LifetimePrice, tierTitle } from "./LifetimeTierCard";
import "./lifetime.css";

export const isLifetimeTier = (value: string | undefined): value is LifetimeTier => !!value && (LIFETIME_TIERS as readonly string[]).includes(value);

type Session = { tier: LifetimeTier; state: "loading" } | { tier: LifetimeTier; state: "ready"; session: CheckoutSession } | { tier: LifetimeTier; state: "failed"; failure: Failure };

/**
 * /ltd/buy/{tier?} (SPEC §2 Lifetime-deal purchase): Tier 1, 2 and 3 with their limits and prices from the
 * server's catalogue. With a tier in the address, its checkout session is opened and its payment page opens
 * 2 s after it loads (SPEC §9), with the seconds shown and a button to go at once. A user who already has a
 * lifetime deal goes to /account.
 */
export function LifetimeBuyView({ tier: requested }: { tier: string | undefined }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const tier = isLifetimeTier(requested) ? requested : null;
  const [plans, setPlans] = useState<Plan[] | null>(null);
  const [offersFailure, setOffersFailure] = useState<Failure | null>(null);
  const [session, setSession] = useState<Session | null>(null);
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  // "Try again" on the same tier opens a new session.
  const [attempt, setAttempt] = useState(0);
  const owned = !!user?.ltd_tier;

  useEffect(() => {
    if (owned) void navigate({ to: "/account", replace: true });
  }, [owned, navigate]);

  useEffect(() => {
    let live = true;
    void worker.checkoutOffers().then((result) => {
      if (!live) return;
      if (result.ok) setPlans(result.data.lifetime);
      else setOffersFailure(result.failure);
    });
    return () => {
      live = false;
    };
  }, []);

  // The tier in the address: its checkout session, once the user is known not to own a lifetime deal.
  useEffect(() => {
    if (!tier || !user || user.ltd_tier) return;
    let live = true;
    setSession({ tier, state: "loading" });
    setSecondsLeft(null);
    void worker.startLifetimeCheckout(tier).then((result) => {
      if (!live) return;
      if (result.ok) setSession({ tier, state: "ready", session: result.data });
      else if (result.failure.kind === "body" && result.failure.body.code === "lifetime_owned") void navigate({ to: "/account", replace: true });
      else setSession({ tier, state: "failed", failure: result.failure });
    });
    return () => {
      live = false;
    };
    // The mirror's user object is new on every write: only who it is and whether it has a lifetime deal matter here.
  }, [tier, attempt, user?.id, user?.ltd_tier, navigate]);

  // SPEC §9: the payment page 2 s after the session loads; the seconds left are shown.
  const readyUrl = session?.state === "ready" ? session.session.url : null;
  useEffect(() => {
    if (!readyUrl) return;
    const started = Date.now();
    setSecondsLeft(Math.ceil(CHECKOUT_REDIRECT_MS / 1000));
    const tick = setInterval(() => setSecondsLeft(Math.max(0, Math.ceil((CHECKOUT_REDIRECT_MS - (Date.now() - started)) / 1000))), 250);
    const go = setTimeout(() => window.location.assign(readyUrl), CHECKOUT_REDIRECT_MS);
    return () => {
      clearInterval(tick);
      clearTimeout(go);
    };
  }, [readyUrl]);

  const buy = (choice: LifetimeTier) => {
    track("Lifetime Deal Buy Now Clicked", { tier: choice });
    if (choice === tier) setAttempt((n) => n + 1);
    else void navigate({ to: "/ltd/buy/{-$tier}", params: { tier: choice } });
  };

  if (owned) return <Spinner label={t`Opening your account…`} />;

  return (
    <div className="lifetime-page">
      <h1>
        <Trans>Lifetime deal</Trans>
      </h1>
      <p>
        <Trans>Pay once and keep your tier for life: no subscription, nothing renews.</Trans>
      </p>
      {session && <SessionStatus session={session} secondsLeft={secondsLeft} onRetry={() => buy(session.tier)} />}
      {offersFailure && (
        <p className="notice notice-danger" role="alert">
          {failureMessage(i18n, offersFailure)}
        </p>
      )}
      {!plans && !offersFailure && <Spinner label={t`Loading the lifetime tiers…`} />}
      {plans && (
        <ul className="lifetime-tiers" aria-label={t`Lifetime tiers`}>
          {LIFETIME_TIERS.map((id) => {
            const plan = plans.find((p) => p.id === lifetimePlanId(id));
            if (!plan) return null;
            const title = tierTitle(plan);
            const selected = id === tier;
            return (
              <li key={id} className={`card lifetime-tier${selected ? " lifetime-tier-selected" : ""}`} aria-current={selected ? "true" : undefined}>
                <h2>
                  <Trans>Tier {title}</Trans>
                </h2>
                {selected && (
                  <span className="badge">
                    <Trans>Selected</Trans>
                  </span>
                )}
                <LifetimePrice plan={plan} />
                <LifetimeLimits plan={plan} />
                <Button variant={selected ? "primary" : "secondary"} onPress={() => buy(id)} isDisabled={selected && session?.state !== "failed"} aria-label={t`Buy Tier ${title} now`}>
                  <Trans>Buy now</Trans>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <p>
        <Link to="/account">
          <Trans>Back to your account</Trans>
        </Link>
      </p>
    </div>
  );
}

function SessionStatus({ session, secondsLeft, onRetry }: { session: Session; secondsLeft: number | null; onRetry: () => void }) {
  const { t, i18n } = useLingui();
  if (session.state === "loading") {
    return (
      <div className="card lifetime-status" role="status">
        <Spinner label={t`Preparing the payment page…`} /> <Trans>Preparing the payment page…</Trans>
      </div>
    );
  }
  if (session.state === "failed") {
    return (
      <div className="card lifetime-status" role="alert">
        <p>{failureMessage(i18n, session.failure)}</p>
        <Button variant="secondary" onPress={onRetry}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  const seconds = secondsLeft ?? 0;
  return (
    <div className="card lifetime-status" role="status">
      <p>
        <Trans>Opening the payment page in {seconds} s…</Trans>
      </p>
      <Button onPress={() => window.location.assign(session.session.url)}>
        <Trans>Go to payment now</Trans>
      </Button>
    </div>
  );
}
