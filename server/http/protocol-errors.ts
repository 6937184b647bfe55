import http from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorBody, ErrorCode } from "../../api/errors";

/**
 * The faults Fastify and Node answer before any route or error handler runs, in the one error shape
 * (issue 12 item 11): a bad %-escape, an over-long path parameter, a request Node's parser refuses.
 */

/** Fastify's `frameworkErrors` option: FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH, FST_ERR_ASYNC_CONSTRAINT. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const message = error.code === "FST_ERR_MAX_PARAM_LENGTH" ? "A part of the address is too long" : "The address is not valid";
  return reply
    .status(400)
    .header("cache-control", "no-store")
    .send({ message, code: "bad_request" } satisfies ErrorBody);
}

/** Fastify's `clientErrorHandler` option (Node's `clientError`): a JSON answer, then the socket closes. */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  let status = 400;
  let code: ErrorCode = "bad_request";
  let message = "Bad request";
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    status = 408;
    message = "The request took too long";
  } else if (error.code === "HPE_HEADER_OVERFLOW") {
    status = 431;
    code = "payload_too_large";
    message = "The request headers are too large";
  }
  this.log.debug({ code: error.code }, "client error");
  if (socket.writable) {
    const body = JSON.stringify({ message, code } satisfies ErrorBody);
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Issue 12 item 16: a JSON answer (success or error, signed in or not: sign-in answers carry tokens too)
 * is never kept by a cache. Signed file links (media, not JSON) and the static app keep their
 * own caching.
 */
export function registerNoStore(app: FastifyInstance) {
  app.addHook("onSend", async (_request, reply, payload) => {
    const type = String(reply.getHeader("content-type") ?? "");
    if (type.startsWith("application/json") && !reply.hasHeader("cache-control")) {
      reply.header("cache-control", "no-store");
    }
    return payload;
  });
}
