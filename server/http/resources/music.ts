import type { FastifyInstance } from "fastify";
import send from "@fastify/send";
import { z } from "zod";
import { fileNotFound as notFound, replySendError } from "../send-file";
import type { Music } from "../../services/music";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

const DemoQuery = z.object({
  v: z.string().max(40).optional(),
  expires: z.coerce.number().int().optional(),
  signature: z.string().max(200).optional(),
});
const DemoParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** Background music (issue 15): the catalogue, one song, picking one for a project; and each song's demo file. */
export function musicRoutes(app: FastifyInstance, hooks: RouteHooks, music: Music) {
  registerRoutes(app, hooks, {
    "bgms.list": ({ query }) => music.list(query),
    "bgms.get": ({ params }) => music.get(params.id),
    "bgms.pick": ({ params, body, request }) => music.pick(currentUser(request), params.id, body),
  });

  // An <audio> element sends no bearer header: catalogue demos are public (CC0/CC-BY files, versioned URLs cached
  // for good), an operator's songs need the signed link GET /bgms gave. Range requests are answered (seeking).
  app.get<{ Params: { id: string } }>("/bgms/:id/demo", { schema: { hide: true } as never }, async (request, reply) => {
    const params = DemoParams.safeParse(request.params);
    const query = DemoQuery.safeParse(request.query);
    if (!params.success || !query.success) return reply.status(404).send(notFound);
    const found = await music.demoFile(params.data.id, query.data);
    if (!found) return reply.status(404).send(notFound);
    const result = await send(request.raw, `/${found.file}`, {
      root: found.root,
      dotfiles: "allow",
      immutable: found.catalogue && Boolean(query.data.v),
      maxAge: found.catalogue && query.data.v ? "365d" : "6h",
    });
    if (result.type === "error") return replySendError(reply, result);
    reply.status(result.statusCode).headers(result.headers as Record<string, string>);
    reply.header("content-type", found.type);
    reply.header("cache-control", found.catalogue ? (query.data.v ? "public, max-age=31536000, immutable" : "public, max-age=3600") : "private, max-age=21600");
    return reply.send(result.stream);
  });
}
