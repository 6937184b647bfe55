import type { FastifyInstance } from "fastify";
import type { Db } from "../../db";
import { createWaveforms } from "../../services/waveform";
import type { FileStore } from "../../storage/local";
import { currentUser } from "../auth";
import { registerRoutes, type RouteHooks } from "../register";

/** A media file's waveform and silences (issue 14: the trim and split dialogs). */
export function mediaRoutes(app: FastifyInstance, hooks: RouteHooks, deps: { db: Db; store: FileStore }) {
  const waveforms = createWaveforms(deps);
  registerRoutes(app, hooks, {
    // JSON answers are never kept by HTTP caches (issue 12 item 16): the sync worker keeps the peaks in its mirror.
    "media.waveform": ({ params, request }) => waveforms.get(currentUser(request), params.id),
  });
}
