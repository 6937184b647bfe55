import { createFileRoute, redirect } from "@tanstack/react-router";
import { currentUser } from "../db/mirror";
import { safeRedirect } from "../app/guards";
import { LoginView } from "../features/auth/LoginView";

export const Route = createFileRoute("/login")({
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({ redirect: safeRedirect(search.redirect) }),
  beforeLoad: async () => {
    const user = await currentUser();
    if (user?.email_verified_at) throw redirect({ to: "/" });
  },
  component: LoginView,
});
