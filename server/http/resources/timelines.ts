import type { FastifyInstance } from "fastify";
import type { Db } from "../../db";
import { contentDisposition } from "../../services/file-links";
import { projectTimelines } from "../../services/timelines";
import type { FileStore } from "../../storage/local";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** Timelines for desktop editors (issue 13): the file itself, as an attachment named after the project. */
export function timelineRoutes(app: FastifyInstance, hooks: RouteHooks, deps: { db: Db; store: FileStore }) {
  const timelines = projectTimelines(deps.db, deps.store);
  registerRoutes(app, hooks, {
    "projects.timeline": async ({ params, query, request, reply }) => {
      const file = await timelines.file(currentUser(request), params.id, query.format);
      reply.header("content-type", file.contentType).header("content-disposition", contentDisposition(file.fileName)).header("cache-control", "private, no-store");
      return file.body;
    },
  });
}
