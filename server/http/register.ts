import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { ErrorBody } from "../../api/errors";
import { routes, type RouteName, type Routes } from "../../api/routes";
import type { RouteDef } from "../../api/route";
import { PreparedJson } from "./prepared-answers";

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<R extends RouteDef> {
  params: Parsed<R["params"]>;
  query: Parsed<R["query"]>;
  body: Parsed<R["body"]>;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Answer<R extends RouteDef> = z.input<R["response"]>;
/** A handler answers the response, or the same made ready beforehand (prepared-answers.ts) for a read served often. */
export type Handler<N extends RouteName> = (input: HandlerInput<Routes[N]>) => Promise<Answer<Routes[N]> | PreparedJson<Answer<Routes[N]>>>;
export type Handlers<N extends RouteName> = { [K in N]: Handler<K> };

export interface RouteHooks {
  authenticate: (request: FastifyRequest) => Promise<void>;
  /** Extra per-route options (rate limits), by route name. */
  options?: Partial<Record<RouteName, RouteShorthandOptions["config"]>>;
}

/** Registers handlers for rows of the contract; method, path, schemas and auth come from the row. */
export function registerRoutes<N extends RouteName>(app: FastifyInstance, hooks: RouteHooks, handlers: Handlers<N>) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const name of Object.keys(handlers) as N[]) {
    const def: RouteDef = routes[name];
    const handler = handlers[name] as Handler<N>;
    const successStatus = def.status ?? 200;
    typed.route({
      method: def.method,
      url: def.path,
      config: hooks.options?.[name],
      schema: {
        operationId: name,
        summary: def.summary,
        tags: [name.split(".")[0]!],
        ...(def.auth === "user" ? { security: [{ bearer: [] }] } : {}),
        ...(def.params ? { params: def.params } : {}),
        ...(def.query ? { querystring: def.query } : {}),
        ...(def.body ? { body: def.body } : {}),
        response: { [successStatus]: def.response, "4xx": ErrorBody, "5xx": ErrorBody },
      },
      // Before the body is parsed or validated: an anonymous call is a 401 whatever it sends (issue 12 authorisation matrix).
      onRequest: def.auth === "user" ? hooks.authenticate : undefined,
      handler: async (request, reply) => {
        const result = await handler({
          params: request.params as never,
          query: request.query as never,
          body: request.body as never,
          request,
          reply,
        });
        if (result instanceof PreparedJson) return result.send(request, reply, successStatus);
        return reply.status(successStatus).send(result);
      },
    });
  }
}
