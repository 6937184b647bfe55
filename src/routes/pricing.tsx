import { createFileRoute } from "@tanstack/react-router";
import { Trans } from "@lingui/react/macro";
import { db } from "../db";

/** SPEC §2: /pricing is replaced at once by the marketing site's pricing page. */
export const Route = createFileRoute("/pricing")({
  beforeLoad: async () => {
    const target = (await db.config())?.links.pricing;
    if (target) window.location.replace(target);
  },
  component: () => (
    <main className="centered-page" id="main">
      <p>
        <Trans>Opening the pricing page…</Trans>
      </p>
    </main>
  ),
});
