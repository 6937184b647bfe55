import { API_BASE, buildPath, type CallInput, type CallOutput } from "../api/route";
import { routes, type RouteName, type Routes } from "../api/routes";
import { classifyFailure, type Result } from "./status";

export interface ApiClientOptions {
  baseUrl?: string;
  getToken: () => Promise<string | undefined>;
  /** Called when the server says the session is gone (SPEC §8: 401, 403 on /user…). */
  onSignedOut: () => Promise<void>;
  fetchImpl?: typeof fetch;
}

/** The only place that calls the API: typed by the contract's route table. */
export function createApiClient(options: ApiClientOptions) {
  const fetchImpl = options.fetchImpl ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const base = (options.baseUrl ?? "") + API_BASE;

  return async function call<N extends RouteName>(name: N, input: CallInput<Routes[N]> = {} as CallInput<Routes[N]>): Promise<Result<CallOutput<Routes[N]>>> {
    const def = routes[name];
    const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const path = buildPath(def.path, params, query);
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (def.method !== "GET") headers["idempotency-key"] = crypto.randomUUID();
    const token = await options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;

    let response: Response;
    try {
      response = await fetchImpl(base + path, { method: def.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      return { ok: false, failure: { kind: "network" } };
    }
    const text = await response.text();
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
