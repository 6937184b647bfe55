import { ErrorBody, type ErrorCode } from "../api/errors";

/** Why a call failed, after SPEC §8's status mapping. */
export type Failure =
  /** `code` is set when the server named the rule that refused (a storyboard rule), so the app can word it. */
  | { kind: "bad_request"; code?: ErrorCode }
  | { kind: "signed_out" }
  | { kind: "body"; status: number; body: ErrorBody }
  /** `status` is kept for answers above 500 (502, 503, 504 come from a proxy in front of the server, not from it). */
  | { kind: "internal"; status?: number }
  | { kind: "network" };

export type Result<T> = { ok: true; data: T } | { ok: false; failure: Failure };

/** URLs of the user's own resources: a 403 there means the session is no longer good. */
export const isUserResource = (path: string) => /^\/user(\/|$|\?)/.test(path);

/**
 * SPEC §8: 400 → "Bad request"; 401, and 403 on a user resource → sign out; 406 → the body;
 * 500 → "Internal server error"; anything else → the body.
 */
export function classifyFailure(status: number, path: string, body: unknown): Failure {
  if (status === 400) {
    const parsed = ErrorBody.safeParse(body);
    return parsed.success && parsed.data.code !== "bad_request" ? { kind: "bad_request", code: parsed.data.code } : { kind: "bad_request" };
  }
  if (status === 401 || (status === 403 && isUserResource(path))) return { kind: "signed_out" };
  if (status === 500) return { kind: "internal" };
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) return { kind: "body", status, body: parsed.data };
  if (status > 500) return { kind: "internal", status };
  return { kind: "body", status, body: { message: typeof body === "string" ? body : "", code: "bad_request" } };
}
