import { createFileRoute } from "@tanstack/react-router";
import { Trans } from "@lingui/react/macro";
import { publicConfig } from "../db/mirror";
import { PricingView } from "../features/billing/PricingView";

/**
 * SPEC §2: /pricing is replaced at once by the marketing site's pricing page — when the operator set one
 * (PRICING_URL). Without it, /pricing shows the in-app pricing view (no left menu).
 */
export const Route = createFileRoute("/pricing")({
  beforeLoad: async () => {
    const target = (await publicConfig())?.links.pricing;
    if (target) window.location.replace(target);
    return { external: !!target };
  },
  component: function PricingRoute() {
    const { external } = Route.useRouteContext();
    return external ? (
      <main className="centered-page" id="main">
        <p>
          <Trans>Opening the pricing page…</Trans>
        </p>
      </main>
    ) : (
      <PricingView />
    );
  },
});
