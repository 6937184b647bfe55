import { API_BASE, buildPath, type CallInput, type CallOutput } from "../api/route";
import { routes, type RouteName, type Routes } from "../api/routes";
import { classifyFailure, type Result } from "./status";

export interface ApiClientOptions {
  baseUrl?: string;
  getToken: () => Promise<string | undefined>;
  /** Called when the server says the session is gone (SPEC §8: 401, 403 on /user…). */
  onSignedOut: () => Promise<void>;
  fetchImpl?: typeof fetch;
  /** Told after every call whether the server could be reached (the storyboard's offline indicator). */
  onReachable?: (reachable: boolean) => void;
}

/** Per call: the outbox gives the key it made when the edit was queued, so every attempt carries the same one. */
export interface CallOptions {
  idempotencyKey?: string;
  /** Give up after this long (a connection that stalls rather than fails), as a network failure. */
  timeoutMs?: number;
}

/** The only place that calls the API: typed by the contract's route table. */
export function createApiClient(options: ApiClientOptions) {
  const fetchImpl = options.fetchImpl ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const base = (options.baseUrl ?? "") + API_BASE;

  return async function call<N extends RouteName>(
    name: N,
    input: CallInput<Routes[N]> = {} as CallInput<Routes[N]>,
    callOptions: CallOptions = {},
  ): Promise<Result<CallOutput<Routes[N]>>> {
    const def = routes[name];
    const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const path = buildPath(def.path, params, query);
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    // ARCHITECTURE "Idempotency": every mutation, the state-changing GETs (hide, show, type…) included.
    const mutation = (def as { mutation?: boolean }).mutation ?? def.method !== "GET";
    if (mutation) headers["idempotency-key"] = callOptions.idempotencyKey ?? crypto.randomUUID();
    const token = await options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;

    let response: Response;
    try {
      const signal = callOptions.timeoutMs ? AbortSignal.timeout(callOptions.timeoutMs) : undefined;
      response = await fetchImpl(base + path, { method: def.method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    } catch {
      options.onReachable?.(false);
      return { ok: false, failure: { kind: "network" } };
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      // The connection dropped in the middle of the answer.
      options.onReachable?.(false);
      return { ok: false, failure: { kind: "network" } };
    }
    options.onReachable?.(true);
    let payload: unknown = text;
    try {
      payload = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text as the body.
    }
    if (response.ok) {
      const parsed = def.response.safeParse(payload);
      if (!parsed.success) return { ok: false, failure: { kind: "internal" } };
      return { ok: true, data: parsed.data as CallOutput<Routes[N]> };
    }
    const failure = classifyFailure(response.status, path, payload);
    if (failure.kind === "signed_out" && def.auth === "user") await options.onSignedOut();
    return { ok: false, failure };
  };
}

export type ApiCall = ReturnType<typeof createApiClient>;
