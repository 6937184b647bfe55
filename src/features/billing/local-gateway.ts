import type { PaymentMode } from "../../../api/payments";

/**
 * The card form's client for the local gateway's own endpoints (server/http/resources/payments.ts), which
 * stand where Stripe.js would be: card details go there, to the test gateway, never to the API.
 * Answers and refusals have Stripe's shapes: `{ status, payment_method }` or `{ error: { code, message } }`.
 */
export type GatewayAnswer<T> = { ok: true; data: T } | { ok: false; code: string | null; message: string | null };

export interface LocalCard {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

export interface ConfirmedSetup {
  id: string;
  status: "succeeded" | "requires_action" | "requires_payment_method";
  payment_method: string | null;
}

export interface Authenticated {
  id: string;
  status: string;
  last_error: { code: string; message: string } | null;
}

async function post<T>(url: string, body: unknown): Promise<GatewayAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) });
  } catch {
    return { ok: false, code: "network", message: null };
  }
  const answer = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string }; code?: string } | null;
  if (response.ok && answer) return { ok: true, data: answer as T };
  if (response.status === 429) return { ok: false, code: "rate_limited", message: null };
  return { ok: false, code: answer?.error?.code ?? null, message: answer?.error?.message ?? null };
}

/**
 * The local gateway is served by this same server, so its path is asked on the page's own origin: a
 * self-hoster who opens the app by another address than PUBLIC_URL (a LAN address, a proxy) still reaches it,
 * and the page's CSP (connect-src 'self') allows it.
 */
const base = (mode: PaymentMode) => new URL(mode.local_gateway_url ?? "/local-gateway/v1", window.location.origin).pathname.replace(/\/$/, "");

export const confirmLocalSetup = (mode: PaymentMode, clientSecret: string, card: LocalCard, name: string) =>
  post<ConfirmedSetup>(`${base(mode)}/setup_intents/confirm`, { client_secret: clientSecret, card, billing_details: { name } });

/** The test gateway's 3-D Secure step: what the bank would answer. */
export const authenticateLocal = (mode: PaymentMode, clientSecret: string, outcome: "complete" | "fail") =>
  post<Authenticated>(`${base(mode)}/intents/authenticate`, { client_secret: clientSecret, outcome });
