import type { FastifyInstance } from "fastify";
import type { Library } from "../../services/library";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** The media library (SPEC §7 library). */
export function libraryRoutes(app: FastifyInstance, hooks: RouteHooks, library: Library) {
  registerRoutes(app, hooks, {
    "library.create": async ({ body, request }) => ({ status: "success" as const, media_file: await library.createFromUpload(currentUser(request), body) }),
    "library.signedS3": ({ request }) => library.signedPost(currentUser(request)),
    "library.list": ({ query, request }) => library.list(currentUser(request), query.page, query.type),
    "library.get": ({ params, request }) => library.get(currentUser(request), params.id),
    "library.search": ({ query, request }) => library.search(currentUser(request), query.type, query.query, query.page),
    "library.scenes": ({ params, query, request }) => library.scenes(currentUser(request), params.id, query.page),
    "library.searchScenes": ({ params, query, request }) => library.searchScenes(currentUser(request), params.id, query.query, query.page),
  });
}
