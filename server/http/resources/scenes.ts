import type { FastifyInstance } from "fastify";
import type { Scenes } from "../../services/scenes";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** The storyboard and its scenes (SPEC §7 Scenes). */
export function sceneRoutes(app: FastifyInstance, hooks: RouteHooks, scenes: Scenes) {
  registerRoutes(app, hooks, {
    "storyboard.get": ({ params, query, body, request }) => scenes.storyboard(currentUser(request), params.id, query.offset, query.limit, body?.scenesIds),
    "scenes.get": ({ params, request }) => scenes.get(currentUser(request), params.id),
    "scenes.update": ({ params, body, request }) => scenes.update(currentUser(request), params.id, body),
    "scenes.removeLines": ({ params, request }) => scenes.removeLines(currentUser(request), params.id),
    "scenes.splitByLine": ({ params, request }) => scenes.splitByLine(currentUser(request), params.id, params.line),
    "scenes.splitByPosition": ({ params, request }) => scenes.splitByPosition(currentUser(request), params.id, params.position),
    "scenes.mergeNext": ({ params, request }) => scenes.mergeNext(currentUser(request), params.id),
    "scenes.show": ({ params, request }) => scenes.show(currentUser(request), params.id),
    "scenes.hide": ({ params, request }) => scenes.hide(currentUser(request), params.id),
    "scenes.order": ({ params, request }) => scenes.order(currentUser(request), params.id, params.order),
    "scenes.typeDefault": ({ params, request }) => scenes.setType(currentUser(request), params.id, "default"),
    "scenes.type": ({ params, request }) => scenes.setType(currentUser(request), params.id, params.type),
    "scenes.trim": ({ params, body, request }) => scenes.trim(currentUser(request), params.id, body.trim_start, body.trim_end),
    "scenes.duplicate": ({ params, request }) => scenes.duplicate(currentUser(request), params.id),
    "projects.words": ({ params, request }) => scenes.words(currentUser(request), params.id),
    "scenes.cutRange": ({ params, body, request }) => scenes.cutRange(currentUser(request), params.id, body.from, body.to),
    "scenes.removeOverlay": ({ params, request }) => scenes.removeOverlay(currentUser(request), params.id),
  });
}
