import type { FastifyInstance } from "fastify";
import type { Projects } from "../../services/projects";
import type { StoryboardEdits } from "../../services/storyboard-edits";
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

  // The download link of a render: signed, short-lived, and only for the owner.
  app.get<{ Params: { id: string } }>("/projects/:id/downloadrender", { preHandler: hooks.authenticate, schema: { hide: true } as never }, async (request, reply) => {
    const project = await projects.get(currentUser(request), Number(request.params.id));
    if (!project.export_url) return reply.status(404).send({ message: "This project has no render yet", code: "not_found" });
    const filename = `${project.name.replace(/[^\w. -]/g, "_") || "cutroom"}.mp4`;
    return reply.redirect(`${project.export_url}&download=${encodeURIComponent(filename)}`, 302);
  });
}
