import { createFileRoute } from "@tanstack/react-router";
import { VerifyEmailView } from "../features/auth/VerifyEmailView";

type Status = "verified" | "expired" | "invalid";
const STATUSES: readonly string[] = ["verified", "expired", "invalid"];

export const Route = createFileRoute("/verify-email")({
  validateSearch: (search: Record<string, unknown>): { status?: Status } => ({
    status: STATUSES.includes(String(search.status)) ? (search.status as Status) : undefined,
  }),
  component: VerifyEmailView,
});
