import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { I18n } from "@lingui/core";
import type { Youtube } from "../../services/youtube";
import { youtubeCallbackPage } from "../../notify/youtube-page";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

const CallbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(256).optional(),
  error: z.string().max(256).optional(),
});

/** Video-site export: SPEC §7 GET /user/youtube/connect and /disconnect, POST /projects/{id}/share/youtube. */
export function youtubeRoutes(app: FastifyInstance, hooks: RouteHooks, youtube: Youtube, i18n: (locale: string) => I18n) {
  registerRoutes(app, hooks, {
    "youtube.status": ({ request }) => youtube.status(currentUser(request)),
    "youtube.connect": ({ request }) => youtube.connectLink(currentUser(request)),
    "youtube.disconnect": ({ request }) => youtube.disconnect(currentUser(request)),
    "projects.shareYoutube": ({ params, body, request }) => youtube.requestExport(currentUser(request), params.id, body),
  });

  // Google's redirect after the consent page (the OAuth redirect URI): a page for the person in that window, not JSON.
  app.get("/user/youtube/callback", { schema: { hide: true } as never }, async (request, reply) => {
    const query = CallbackQuery.safeParse(request.query);
    const outcome = await youtube.callback(query.success ? query.data : {});
    reply.header("cache-control", "no-store").header("referrer-policy", "no-referrer");
    return reply.status(outcome.connected ? 200 : 400).type("text/html; charset=utf-8").send(youtubeCallbackPage(i18n(outcome.locale), outcome));
  });
}
