import { createFileRoute } from "@tanstack/react-router";
import { EMAIL_CHANGE_STATUSES, type EmailChangeStatus } from "../../api/email-change";
import { EmailChangedView } from "../features/auth/EmailChangedView";

export const Route = createFileRoute("/email-changed")({
  validateSearch: (search: Record<string, unknown>): { status?: EmailChangeStatus } => ({
    status: (EMAIL_CHANGE_STATUSES as readonly string[]).includes(String(search.status)) ? (search.status as EmailChangeStatus) : undefined,
  }),
  component: EmailChangedView,
});
