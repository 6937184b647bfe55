import type { Stripe } from "@stripe/stripe-js";

const loaded = new Map<string, Promise<Stripe | null>>();

/**
 * Stripe.js for a publishable key, loaded on first use only (ARCHITECTURE "Payments": the `pure` entry adds
 * Stripe's script when called, never at import), so nothing of Stripe reaches a browser while the local
 * gateway answers.
 */
export function loadStripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = import("@stripe/stripe-js/pure").then(({ loadStripe }) => loadStripe(publishableKey));
    // A failed load (offline) may be tried again later.
    stripe.catch(() => loaded.delete(publishableKey));
    loaded.set(publishableKey, stripe);
  }
  return stripe;
}
