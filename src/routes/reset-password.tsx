import { createFileRoute } from "@tanstack/react-router";
import { ResetPasswordView } from "../features/auth/ResetPasswordView";

export const Route = createFileRoute("/reset-password")({
  validateSearch: (search: Record<string, unknown>): { token?: string } => ({
    token: typeof search.token === "string" && search.token.length <= 200 ? search.token : undefined,
  }),
  component: ResetPasswordView,
});
