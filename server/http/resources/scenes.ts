import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { Storyboard } from "../../../api/scenes";
import { routes } from "../../../api/routes";
import type { Scenes } from "../../services/scenes";
import { currentUser } from "../auth";
import { PreparedAnswers, PreparedJson } from "../prepared-answers";
import { registerRoutes, type RouteHooks } from "../register";

/** Issue 19: memory an API process gives to storyboard slices kept ready (a 250-scene slice is ~0.2 MB). */
const KEPT_STORYBOARD_BYTES = 64 * 1024 * 1024;

/** The storyboard and its scenes (SPEC §7 Scenes). */
export function sceneRoutes(app: FastifyInstance, hooks: RouteHooks, scenes: Scenes) {
  const storyboards = new PreparedAnswers<z.input<typeof Storyboard>>(KEPT_STORYBOARD_BYTES);
  registerRoutes(app, hooks, {
    "storyboard.get": async ({ params, query, body, request }) => {
      const userId = currentUser(request);
      if (body?.scenesIds?.length) return scenes.storyboard(userId, params.id, query.offset, query.limit, body.scenesIds);
      // A slice is read, checked, serialized and compressed again only when its stamp moves (any edit, from any process).
      const stamp = await scenes.storyboardStamp(userId, params.id);
      return storyboards.get(`${params.id}:${query.offset}:${query.limit}`, stamp, async () =>
        PreparedJson.of(routes["storyboard.get"].response, await scenes.storyboard(userId, params.id, query.offset, query.limit), request),
      );
    },
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
