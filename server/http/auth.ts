import type { FastifyRequest } from "fastify";
import type { Db } from "../db";
import { DEFAULT_TOKEN_LIFETIME, userIdForToken, type TokenLifetime } from "../db/tokens";
import { DomainError } from "../services/errors";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `authenticate` on routes that need a user. */
    userId?: number;
    apiToken?: string;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : undefined;
}

/** Bearer auth; a revoked, idle or too old token is a 401 like an unknown one (the app signs out, SPEC §8). */
export function authenticator(db: Db, lifetime: TokenLifetime = DEFAULT_TOKEN_LIFETIME) {
  return async function authenticate(request: FastifyRequest) {
    const token = bearerToken(request);
    const userId = token ? await userIdForToken(db, token, lifetime) : undefined;
    if (!token || userId === undefined) throw new DomainError("unauthenticated", "Please authenticate");
    request.userId = userId;
    request.apiToken = token;
  };
}

/** The signed-in user's id; only on routes behind `authenticate`. */
export function currentUser(request: FastifyRequest): number {
  if (request.userId === undefined) throw new DomainError("unauthenticated", "Please authenticate");
  return request.userId;
}
