import { createFileRoute, notFound } from "@tanstack/react-router";
import { PaymentStatusView } from "../../features/billing/PaymentStatusView";
import { PAYMENT_STATUSES, type PaymentStatus } from "../../features/billing/plan-selection";

/** SPEC §2/§4 Payment: processing, success, failed, pending — after a plan is paid for on /account. */
export const Route = createFileRoute("/_app/payment/$status")({
  validateSearch: (search: Record<string, unknown>): { payment?: number } => {
    const payment = Number(search.payment);
    return Number.isInteger(payment) && payment > 0 ? { payment } : {};
  },
  beforeLoad: ({ params }) => {
    if (!PAYMENT_STATUSES.includes(params.status as PaymentStatus)) throw notFound();
  },
  component: function PaymentStatusRoute() {
    const { status } = Route.useParams();
    const { payment } = Route.useSearch();
    return <PaymentStatusView status={status as PaymentStatus} paymentId={payment ?? null} />;
  },
});
