import type { FastifyInstance } from "fastify";
import type { Projects } from "../../services/projects";
import type { StoryboardEdits } from "../../services/storyboard-edits";
import { DomainError } from "../../services/errors";
import { SUBTITLE_LANGUAGES } from "../../../api/locales";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** Projects (SPEC §7 Projects). */
export function projectRoutes(app: FastifyInstance, hooks: RouteHooks, projects: Projects, edits: StoryboardEdits) {
  registerRoutes(app, hooks, {
    "projects.create": ({ body, request }) => projects.create(currentUser(request), body),
    "projects.list": ({ query, request }) =>
      query.count ? projects.count(currentUser(request)) : projects.list(currentUser(request), query.page ?? 1),
    "projects.get": ({ params, request }) => projects.get(currentUser(request), params.id),
    "projects.highlights": ({ params, request }) => projects.highlights(currentUser(request), params.id),
    "projects.update": ({ params, body, request }) => projects.update(currentUser(request), params.id, body),
    "projects.delete": ({ params, request }) => projects.remove(currentUser(request), params.id),
    "projects.dequeue": ({ params, request }) => projects.dequeue(currentUser(request), params.id),
    "projects.restart": ({ params, request }) => projects.restart(currentUser(request), params.id),
    "projects.render": ({ params, body, request }) => projects.render(currentUser(request), params.id, body),
    "projects.renderRaw": ({ params, request }) => projects.renderRaw(currentUser(request), params.id),
    "projects.recreateStoryboard": ({ params, body, request }) => projects.recreateStoryboard(currentUser(request), params.id, body),
    "projects.resetVolumes": ({ params, query, request }) => projects.resetVolumes(currentUser(request), params.id, query.autoduck),
    "projects.reopen": ({ params, request }) => projects.reopen(currentUser(request), params.id),
    "projects.import": ({ params, body, request }) => edits.import(currentUser(request), params.id, body),
    "projects.importOverlay": ({ params, body, request }) => edits.importOverlay(currentUser(request), params.id, body),
    "projects.cuts": ({ params, body, request }) => edits.cuts(currentUser(request), params.id, body),
  });

  /**
   * Direct links on the web host (SPEC §7 downloadrender and subtitles under /projects/{id}/): for the owner, a
   * short-lived signed link that a plain browser link can open (no bearer header) and that names the file. A
   * client that asks for JSON (the sync worker, the app's /projects/{id}/downloadrender page) gets
   * `{ url, filename, expires_at }`; anything else is redirected to the link.
   */
  const directLink = (path: string, link: (userId: number, id: number, query: Record<string, unknown>) => Promise<{ url: string }>) =>
    app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(path, { preHandler: hooks.authenticate, schema: { hide: true } as never }, async (request, reply) => {
      const id = Number(request.params.id);
      if (!Number.isSafeInteger(id) || id < 1) return reply.status(404).send({ message: "No such project", code: "not_found" });
      const answer = await link(currentUser(request), id, request.query ?? {});
      reply.header("cache-control", "private, no-store");
      if (request.headers.accept?.includes("application/json")) return answer;
      return reply.redirect(answer.url, 302);
    });
  directLink("/projects/:id/downloadrender", (userId, id) => projects.downloadLink(userId, id));
  // WebVTT by default; `?format=srt` for SubRip (issue 14). Any other format is refused.
  directLink("/projects/:id/subtitles", (userId, id, query) => {
    const format = query.format === undefined ? "vtt" : query.format;
    if (format !== "vtt" && format !== "srt") throw new DomainError("validation_failed", "format must be vtt or srt", { format: "invalid" });
    // `?locale=` (issue 14): a translation's subtitles; one of SPEC §9's languages.
    const locale = query.locale === undefined || query.locale === "" ? undefined : query.locale;
    if (locale !== undefined && !(SUBTITLE_LANGUAGES as readonly unknown[]).includes(locale)) throw new DomainError("validation_failed", "locale must be a subtitle language", { locale: "invalid" });
    return projects.subtitlesLink(userId, id, format, Date.now(), locale as string | undefined);
  });
}
