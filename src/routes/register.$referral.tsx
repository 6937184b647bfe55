import { createFileRoute } from "@tanstack/react-router";
import { RegisterView } from "../features/auth/RegisterView";
import { registerSearch, refuseOnBetaHost } from "../features/auth/register-route";

export const Route = createFileRoute("/register/$referral")({
  validateSearch: registerSearch,
  beforeLoad: refuseOnBetaHost,
  component: function RegisterWithReferral() {
    const { referral } = Route.useParams();
    const { irclickid } = Route.useSearch();
    return <RegisterView referral={referral} clickid={irclickid ?? null} />;
  },
});
