import type { z } from "zod";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** One row of the contract: how a call looks on the wire. */
export interface RouteDef {
  method: Method;
  /** Fastify-style path below /api/v1, e.g. `/user/locale/:locale`. */
  path: string;
  /** `user`: needs `Authorization: Bearer <api_token>`. */
  auth: "none" | "user";
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Response status on success (default 200). */
  status?: number;
  /**
   * Whether the call changes state, so an `Idempotency-Key` replays its stored answer. Default: every
   * method but GET; SPEC §7's state-changing GETs say true, POSTs that only read say false.
   */
  mutation?: boolean;
}

export const API_BASE = "/api/v1";

export const route = <const R extends RouteDef>(def: R): R => def;

type Input<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a caller passes for a route: only the parts the route has. */
export type CallInput<R extends RouteDef> = (R["params"] extends z.ZodType ? { params: Input<R["params"]> } : { params?: undefined }) &
  (R["query"] extends z.ZodType ? { query?: Input<R["query"]> } : { query?: undefined }) &
  (R["body"] extends z.ZodType ? { body: Input<R["body"]> } : { body?: undefined });

export type CallOutput<R extends RouteDef> = z.output<R["response"]>;

/** Fills `:name` segments and appends the query string. */
export function buildPath(path: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
  const filled = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}
