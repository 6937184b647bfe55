import type { FastifyInstance } from "fastify";
import type { SubtitleSets } from "../../services/subtitle-sets";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** Subtitle sets and translation (SPEC §7 autosubtitles, translate, PUT /subtitles/{id}; issue 14). */
export function subtitleRoutes(app: FastifyInstance, hooks: RouteHooks, sets: SubtitleSets) {
  registerRoutes(app, hooks, {
    "subtitles.list": ({ params, query, request }) => sets.list(currentUser(request), params.id, query?.ready ?? false),
    "subtitles.options": ({ params, request }) => sets.options(currentUser(request), params.id),
    "subtitles.translate": ({ params, body, request }) => sets.translate(currentUser(request), params.id, body.locale),
    "subtitles.update": ({ params, body, request }) => sets.update(currentUser(request), params.id, body),
  });
}
