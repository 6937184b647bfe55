import type { FastifyInstance, FastifyReply, FastifyRequest, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from "fastify";
import { routes, type RouteName } from "../../api/routes";
import type { RouteDef } from "../../api/route";
import type { Db } from "../db";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  pruneIdempotencyKeys,
  releaseIdempotencyKey,
  takeOverIdempotencyKey,
} from "../db/idempotency";
import { DomainError } from "../services/errors";

/** Answers are kept past the background-sync retention (1440 min), then pruned. */
export const IDEMPOTENCY_RETENTION_MS = 2 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
/** A replay that arrives while the first request runs waits this long for its answer. */
const IN_FLIGHT_WAIT_MS = 5_000;
const IN_FLIGHT_POLL_MS = 50;
/** A key still running after this long lost its request (a crash): the next replay runs it again. */
const ABANDONED_MS = 5 * 60_000;
export const MAX_IDEMPOTENCY_KEY = 255;
export const REPLAYED_HEADER = "idempotent-replayed";

/** Answers that hold a one-time secret (handoff codes are stored hashed) are never kept. */
const NEVER_STORED = new Set<RouteName>(["user.handoff"]);

declare module "fastify" {
  interface FastifyRequest {
    /** Set when this request holds an Idempotency-Key whose answer must be stored. */
    idempotencyClaim?: { userId: number; key: string; createdAt: string };
  }
}

/** A row of the contract that changes state for a signed-in user: its answer is replayed by key. */
export function isReplayable(name: string): boolean {
  if (!Object.hasOwn(routes, name) || NEVER_STORED.has(name as RouteName)) return false;
  const def: RouteDef = routes[name as RouteName];
  return def.auth === "user" && (def.mutation ?? def.method !== "GET");
}

/** Never stored, so a retry can succeed: server faults, a lost session, rate limits. */
const storable = (status: number) => status < 500 && status !== 401 && status !== 429;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * ARCHITECTURE "Idempotency": the first request with a key runs and its status and JSON body are
 * stored per (user, key); a replay answers them again with `Idempotent-Replayed: true`. Call before the
 * routes are registered in the same scope: an onRoute hook adds the check after `authenticate`.
 */
export function registerIdempotency(app: FastifyInstance, db: Db) {
  let lastPrune = 0;

  async function pruneNow(now: number) {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    await pruneIdempotencyKeys(db, new Date(now - IDEMPOTENCY_RETENTION_MS).toISOString());
  }

  const replay = (reply: FastifyReply, status: number, body: string) =>
    reply.status(status).header(REPLAYED_HEADER, "true").type("application/json; charset=utf-8").send(body);

  const check: preHandlerAsyncHookHandler = async function (request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers["idempotency-key"];
    if (header === undefined || request.userId === undefined) return;
    const key = String(header).trim();
    if (!key || key.length > MAX_IDEMPOTENCY_KEY) {
      throw new DomainError("bad_request", `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`);
    }
    const userId = request.userId;
    const now = Date.now();
    await pruneNow(now);
    const waitUntil = now + IN_FLIGHT_WAIT_MS;
    for (;;) {
      // Each turn moves on (a claim, an answer, a wait); this only stops a pathological race from spinning.
      if (Date.now() > waitUntil + IN_FLIGHT_WAIT_MS) throw new DomainError("idempotency_in_flight", "The Idempotency-Key is busy");
      const createdAt = new Date().toISOString();
      if (await claimIdempotencyKey(db, { user_id: userId, key, method: request.method, path: request.url, created_at: createdAt })) {
        request.idempotencyClaim = { userId, key, createdAt };
        return;
      }
      const row = await findIdempotencyKey(db, userId, key);
      if (!row) continue; // released meanwhile (its request failed): claim it now
      const age = Date.now() - Date.parse(row.created_at);
      if (age > IDEMPOTENCY_RETENTION_MS) {
        await releaseIdempotencyKey(db, userId, key, row.created_at);
        continue;
      }
      if (row.method !== request.method || row.path !== request.url) {
        throw new DomainError("idempotency_key_reused", "This Idempotency-Key was used for another request");
      }
      if (row.status !== null && row.body !== null) return replay(reply, row.status, row.body);
      if (age > ABANDONED_MS) {
        const retakenAt = new Date().toISOString();
        if (await takeOverIdempotencyKey(db, userId, key, row.created_at, retakenAt)) {
          request.idempotencyClaim = { userId, key, createdAt: retakenAt };
          return;
        }
        continue;
      }
      if (Date.now() >= waitUntil) {
        throw new DomainError("idempotency_in_flight", "The first request with this Idempotency-Key is still running");
      }
      await sleep(IN_FLIGHT_POLL_MS);
    }
  };

  // Error answers are stored too (a refused edit stays refused), once the error handler has written them.
  const store: onSendAsyncHookHandler<unknown> = async function (request, reply, payload) {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    if (storable(reply.statusCode) && typeof payload === "string") {
      await completeIdempotencyKey(db, claim.userId, claim.key, reply.statusCode, payload);
    } else {
      await releaseIdempotencyKey(db, claim.userId, claim.key, claim.createdAt);
    }
    return payload;
  };

  // A request that ends without an answer (the client went away mid-way) must not hold the key.
  const abandon = async (request: FastifyRequest) => {
    const claim = request.idempotencyClaim;
    if (!claim) return;
    request.idempotencyClaim = undefined;
    await releaseIdempotencyKey(db, claim.userId, claim.key, claim.createdAt);
  };

  app.addHook("onRoute", (options) => {
    const name = (options.schema as { operationId?: string } | undefined)?.operationId;
    if (!name || !isReplayable(name)) return;
    const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
    // After authenticate (the route's onRequest), which tells whose key it is.
    options.preHandler = [...list(options.preHandler), check] as never;
    options.onSend = [...list(options.onSend), store] as never;
    options.onResponse = [...list(options.onResponse), abandon] as never;
  });
}
