import type { FastifyRequest } from "fastify";
import type { Db } from "../db";
import { userIdForToken } from "../db/tokens";
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

export function authenticator(db: Db) {
  return async function authenticate(request: FastifyRequest) {
    const token = bearerToken(request);
    const userId = token ? await userIdForToken(db, token) : undefined;
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
