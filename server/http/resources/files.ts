import type { FastifyInstance } from "fastify";
import send from "@fastify/send";
import { z } from "zod";
import { fileNotFound as notFound, redirectToBucket, replySendError } from "../send-file";
import { contentDisposition, type FileLinks } from "../../services/file-links";
import type { FileStore } from "../../storage/local";

const Query = z.object({ expires: z.coerce.number().int(), signature: z.string().max(200), download: z.string().max(255).optional() });


/**
 * Media by short-lived signed link (a <video> cannot send a bearer header), with Range support.
 * A link with `download` is a download link: its file name is signed with it and sent as
 * `Content-Disposition: attachment`, so a plain browser link saves the file under that name.
 */
export function fileRoutes(app: FastifyInstance, deps: { links: FileLinks; store: FileStore }) {
  app.get<{ Params: { "*": string } }>("/files/*", { schema: { hide: true } as never }, async (request, reply) => {
    const key = request.params["*"];
    const query = Query.safeParse(request.query);
    if (!query.success) return reply.status(404).send(notFound);
    const { expires, signature, download } = query.data;
    const valid = download === undefined ? deps.links.verify(key, expires, signature) : deps.links.verifyDownload(key, download, expires, signature);
    if (!valid) return reply.status(404).send(notFound);
    try {
      deps.store.pathOf(key); // refuses unsafe keys
    } catch {
      return reply.status(404).send(notFound);
    }
    if (deps.store.kind === "s3") return redirectToBucket(reply, deps.store, key, download === undefined ? undefined : contentDisposition(download));
    // Relative to the store, so only the key is checked for dotfiles, not where DATA_DIR happens to be.
    const result = await send(request.raw, `/${key}`, {
      root: deps.store.root,
      dotfiles: "deny",
      immutable: true,
      maxAge: download === undefined ? "6h" : 0,
    });
    if (result.type === "error") return replySendError(reply, result);
    reply.status(result.statusCode).headers(result.headers as Record<string, string>);
    if (download !== undefined) {
      reply.header("content-disposition", contentDisposition(download));
      reply.header("cache-control", "private, no-store");
    }
    return reply.send(result.stream);
  });
}
