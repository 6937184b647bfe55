import { z } from "zod";
import { ProjectStatus } from "./projects";

/**
 * The progress stream (issue 13 "Progress a user can trust"): GET {API_BASE}/events answers
 * `text/event-stream` for the signed-in user (bearer header; the sync worker reads it with fetch,
 * never with a token in the URL). Each `project` event carries one of the user's projects as it is now.
 */
export const PROGRESS_EVENTS_PATH = "/events";

/** A comment line this often keeps proxies from closing a quiet stream. */
export const PROGRESS_HEARTBEAT_MS = 15_000;
/** Open streams per user (each tab's worker holds one); more are refused with 429 and poll instead. */
export const MAX_PROGRESS_STREAMS_PER_USER = 4;

/** The queue and time-left fields, also in the Project JSON so the 60 s poll shows them too. */
export const QueueEstimate = z.object({
  /** Waiting: how many other projects (library uploads included) the runner starts before this one (0 = next); null when not waiting. */
  queue_ahead: z.number().int().min(0).nullable(),
  /** Seconds until it is done, only when measured (the running job's rate, the queue's recent jobs); else null. */
  seconds_left: z.number().min(0).nullable(),
});
export type QueueEstimate = z.infer<typeof QueueEstimate>;

/** One `project` event: the project's progress fields as stored now. */
export const ProjectProgress = QueueEstimate.extend({
  id: z.number().int(),
  status: ProjectStatus,
  is_queued: z.union([z.literal(0), z.literal(1)]),
  working_progress: z.number(),
  working_progress_raw: z.number(),
  deleted_at: z.string().nullable(),
  updated_at: z.string(),
});
export type ProjectProgress = z.infer<typeof ProjectProgress>;

/** The first event of a stream: the heartbeat period, so a client can tell a stalled stream. */
export const StreamHello = z.object({ heartbeat_ms: z.number().int().positive() });
