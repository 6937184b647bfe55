import type { FastifyInstance } from "fastify";
import { PROGRESS_EVENTS_PATH, PROGRESS_HEARTBEAT_MS, type ProjectProgress } from "../../../api/progress";
import type { ProgressHub } from "../../services/progress-hub";
import { DomainError } from "../../services/errors";
import { currentUser } from "../auth";
import type { RouteHooks } from "../register";

/**
 * GET /events (issue 13): a server-sent event stream of the signed-in user's project progress. Bearer
 * auth like every call (the sync worker reads it with fetch; no token in a URL). `project` events carry a
 * project's progress as stored; a comment every PROGRESS_HEARTBEAT_MS keeps proxies from closing it.
 */
export function eventRoutes(app: FastifyInstance, hooks: Pick<RouteHooks, "authenticate">, hub: ProgressHub, heartbeatMs = PROGRESS_HEARTBEAT_MS) {
  app.get(PROGRESS_EVENTS_PATH, { onRequest: hooks.authenticate, schema: { hide: true } as never }, async (request, reply) => {
    const userId = currentUser(request);
    const raw = reply.raw;
    let open = true;
    let heartbeat: NodeJS.Timeout | undefined;
    const write = (text: string) => {
      if (open && !raw.destroyed) raw.write(text);
    };
    const finish = () => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      unsubscribe?.();
      raw.end();
    };
    let unsubscribe: (() => void) | undefined;
    // Headers first (helmet's are already on the raw response), then the stream is ours.
    const sink = {
      send: (event: ProjectProgress) => write(`event: project\ndata: ${JSON.stringify(event)}\n\n`),
      end: finish,
    };
    const pending: ProjectProgress[] = [];
    let started = false;
    unsubscribe = await hub.subscribe(userId, {
      // The first snapshot arrives before the headers are written: held until then.
      send: (event) => (started ? sink.send(event) : void pending.push(event)),
      end: () => finish(),
    });
    if (!unsubscribe) throw new DomainError("rate_limited", "Too many progress streams are open for this account; close another tab or wait for it to refresh");
    reply.hijack();
    raw.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-store",
      connection: "keep-alive",
      // nginx and similar proxies would hold the events back in a buffer.
      "x-accel-buffering": "no",
    });
    write(`event: hello\ndata: ${JSON.stringify({ heartbeat_ms: heartbeatMs })}\n\n`);
    started = true;
    for (const event of pending.splice(0)) sink.send(event);
    heartbeat = setInterval(() => write(": keep-alive\n\n"), heartbeatMs);
    heartbeat.unref();
    // The client went away (tab closed, network lost): the hub lets go of this stream.
    raw.on("close", finish);
    if (raw.destroyed) finish();
  });
}
