import { createFileRoute } from "@tanstack/react-router";
import { RegisterView } from "../features/auth/RegisterView";
import { registerSearch, refuseOnBetaHost } from "../features/auth/register-route";

export const Route = createFileRoute("/register/")({
  validateSearch: registerSearch,
  beforeLoad: refuseOnBetaHost,
  component: () => <RegisterView referral={null} clickid={Route.useSearch().irclickid ?? null} />,
});
