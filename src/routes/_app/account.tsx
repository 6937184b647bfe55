import { createFileRoute } from "@tanstack/react-router";
import { currentUser, publicConfig } from "../../db/mirror";
import { AccountView } from "../../features/account/AccountView";
import { externalBillingRedirect } from "../../features/account/billing-redirect";

export const Route = createFileRoute("/_app/account")({
  beforeLoad: async () => {
    const [config, user] = await Promise.all([publicConfig(), currentUser()]);
    const target = externalBillingRedirect(config, user);
    if (target) window.location.replace(target);
  },
  component: AccountView,
});
