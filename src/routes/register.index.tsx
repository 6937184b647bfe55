import { createFileRoute } from "@tanstack/react-router";
import { RegisterView, registerSearch, refuseOnBetaHost } from "../features/auth/RegisterView";

export const Route = createFileRoute("/register/")({
  validateSearch: registerSearch,
  beforeLoad: refuseOnBetaHost,
  component: () => <RegisterView referral={null} clickid={Route.useSearch().irclickid ?? null} />,
});
