import { createFileRoute } from "@tanstack/react-router";
import { LifetimeBuyView } from "../../features/lifetime/LifetimeBuyView";

/** SPEC §2: /ltd/buy/{tier?}, the lifetime-deal purchase with an optional tier (tier1, tier2, tier3). */
export const Route = createFileRoute("/_app/ltd/buy/{-$tier}")({
  component: function LifetimeBuyRoute() {
    const { tier } = Route.useParams();
    return <LifetimeBuyView tier={tier} />;
  },
});
