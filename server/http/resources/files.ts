import type { FastifyInstance } from "fastify";
import send from "@fastify/send";
import { z } from "zod";
import type { ErrorBody } from "../../../api/errors";
import type { FileLinks } from "../../services/file-links";
import type { FileStore } from "../../storage/local";

const Query = z.object({ expires: z.coerce.number().int(), signature: z.string().max(200), download: z.string().max(255).optional() });

/** Media by short-lived signed link (a <video> cannot send a bearer header), with Range support. */
export function fileRoutes(app: FastifyInstance, deps: { links: FileLinks; store: FileStore }) {
  app.get<{ Params: { "*": string } }>("/files/*", { schema: { hide: true } as never }, async (request, reply) => {
    const key = request.params["*"];
    const query = Query.safeParse(request.query);
    if (!query.success || !deps.links.verify(key, query.data.expires, query.data.signature)) {
      return reply.status(404).send({ message: "Not found", code: "not_found" } satisfies ErrorBody);
    }
    try {
      deps.store.pathOf(key); // refuses unsafe keys
    } catch {
      return reply.status(404).send({ message: "Not found", code: "not_found" } satisfies ErrorBody);
    }
    // Relative to the store, so only the key is checked for dotfiles, not where DATA_DIR happens to be.
    const result = await send(request.raw, `/${key}`, { root: deps.store.root, dotfiles: "deny", immutable: true, maxAge: "6h" });
    if (result.type === "error") {
      return reply.status(404).send({ message: "Not found", code: "not_found" } satisfies ErrorBody);
    }
    reply.status(result.statusCode).headers(result.headers as Record<string, string>);
    if (query.data.download) reply.header("content-disposition", `attachment; filename="${query.data.download.replace(/[^\w. -]/g, "_")}"`);
    return reply.send(result.stream);
  });
}
