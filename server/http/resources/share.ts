import type { FastifyInstance, FastifyRequest } from "fastify";
import send from "@fastify/send";
import { z } from "zod";
import type { ErrorBody } from "../../../api/errors";
import type { Sharing } from "../../services/sharing";
import type { FileStore } from "../../storage/local";
import { bearerToken, currentUser } from "../auth";
import { redirectToBucket } from "../send-file";
import { registerRoutes, type RouteHooks } from "../register";

const MediaQuery = z.object({ expires: z.coerce.number().int(), signature: z.string().max(200) });
const notFound = { message: "This video is not available", code: "not_found" } satisfies ErrorBody;
/** Unlisted and private pages stay out of search engines; public ones may be indexed. */
const NOINDEX = "noindex, nofollow";

/** Share links open a page to whoever has them: logs keep only their first characters. */
export const maskShareTokens = (url: string) => url.replace(/\/(share|watch)\/([A-Za-z0-9_-]{4})[^/?#]*/g, "/$1/$2…");

/** Share pages (SPEC §6): the owner's calls, the watch page's content and its media. */
export function shareRoutes(app: FastifyInstance, hooks: RouteHooks, deps: { sharing: Sharing; store: Pick<FileStore, "root" | "pathOf" | "kind" | "signedGet"> }) {
  const { sharing } = deps;

  /** The signed-in viewer if the call carries a good bearer token; a bad or missing one is simply a visitor. */
  async function viewer(request: FastifyRequest): Promise<number | undefined> {
    if (!bearerToken(request)) return undefined;
    try {
      await hooks.authenticate(request);
      return request.userId;
    } catch {
      return undefined;
    }
  }

  registerRoutes(app, hooks, {
    "projects.share": ({ params, body, request }) => sharing.share(currentUser(request), params.id, body),
    "projects.unshare": ({ params, request }) => sharing.unshare(currentUser(request), params.id),
    "share.get": async ({ params, request, reply }) => {
      // JSON answers are no-store (protocol-errors.ts): the page's signed links are never kept by a cache.
      reply.header("x-robots-tag", NOINDEX);
      return sharing.page(params.token, await viewer(request));
    },
  });

  // The page's video, poster and subtitle track, by short-lived signed link below the share link (Range for seeking).
  app.get<{ Params: { token: string; file: string } }>("/share/:token/:file", { schema: { hide: true } as never }, async (request, reply) => {
    const { token, file } = request.params;
    const query = MediaQuery.safeParse(request.query);
    if (!query.success || (file !== "video" && file !== "poster" && file !== "subtitles")) return reply.status(404).send(notFound);
    const found = await sharing.mediaKey(token, file, query.data.expires, query.data.signature);
    if (!found) return reply.status(404).send(notFound);
    try {
      deps.store.pathOf(found.key);
    } catch {
      return reply.status(404).send(notFound);
    }
    if (deps.store.kind === "s3") return redirectToBucket(reply, deps.store, found.key);
    const result = await send(request.raw, `/${found.key}`, { root: deps.store.root, dotfiles: "deny", maxAge: 0 });
    if (result.type === "error") return reply.status(result.statusCode === 416 ? 416 : 404).send(notFound);
    reply.status(result.statusCode).headers(result.headers as Record<string, string>);
    reply.header("cache-control", "private, max-age=3600");
    if (!found.indexable) reply.header("x-robots-tag", NOINDEX);
    return reply.send(result.stream);
  });
}

/**
 * The watch page's HTML (the app shell at /watch/{token}) says whether search engines may index it: only a
 * public page that is showing may be; unlisted, private and unavailable ones say noindex.
 */
export function watchPageHeaders(app: FastifyInstance, sharing: Sharing) {
  app.addHook("onRequest", async (request, reply) => {
    const match = /^\/watch\/([^/?#]+)/.exec(request.url);
    if (!match || (request.method !== "GET" && request.method !== "HEAD")) return;
    let indexable = false;
    try {
      indexable = await sharing.indexable(decodeURIComponent(match[1]!));
    } catch {
      // A malformed link is not a page.
    }
    if (!indexable) reply.header("x-robots-tag", NOINDEX);
  });
}
