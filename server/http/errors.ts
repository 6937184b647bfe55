import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { FieldErrorCode, type ErrorBody, type ErrorCode } from "../../api/errors";
import { DomainError } from "../services/errors";

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  rate_limited: 429,
  invalid_credentials: 422,
  captcha_failed: 422,
  already_verified: 409,
  link_invalid: 400,
  link_expired: 410,
  code_invalid: 422,
  reset_link_invalid: 410,
  payload_too_large: 413,
  internal: 500,
  no_plan: 422,
  file_too_big: 413,
  file_too_long: 422,
  not_enough_minutes: 422,
  not_enough_storage: 422,
  duplicate_name: 409,
  unsupported_format: 415,
  media_unreadable: 422,
  upload_incomplete: 409,
  media_not_ready: 409,
  project_busy: 409,
  project_finished: 409,
  tier_not_allowed: 422,
  too_many_queued: 409,
  markers_cross: 400,
  out_of_bounds: 400,
  split_needs_two_lines: 400,
  split_needs_no_text: 400,
  split_at_edge: 400,
  line_too_long: 400,
  not_mergeable: 400,
  cut_empty: 400,
  media_in_use: 409,
  not_library_item: 409,
  overlay_needs_one_scene: 400,
  idempotency_key_reused: 422,
  idempotency_in_flight: 409,
  email_not_verified: 403,
  upload_conflict: 409,
  upload_expired: 410,
  upgrade_required: 402,
  render_not_ready: 409,
  range_not_satisfiable: 416,
  // Never 403 on /user/…: the app signs out on that (SPEC §8). Quota and upload failures reach the user on the project.
  youtube_unavailable: 409,
  youtube_not_connected: 409,
  youtube_quota: 429,
  youtube_upload_failed: 502,
  no_subtitles: 404,
  nothing_to_render: 422,
  nothing_to_export: 422,
  // A translated set's failure (issue 14), kept on the set; never 401/403, which the app reads as signed out.
  translate_unavailable: 409,
  translate_unauthorized: 502,
  translate_rejected: 502,
  translate_rate_limited: 503,
  translate_service_error: 502,
  translate_timeout: 504,
  translate_unreachable: 502,
  translate_bad_response: 502,
  translate_engine_failed: 502,
  licence_invalid: 422,
  licence_used: 409,
  licence_held: 409,
  licence_subscription_active: 409,
  lifetime_owned: 409,
  export_unlocked: 409,
  export_included: 409,
};

export const statusOf = (code: ErrorCode) => STATUS[code];

const fieldCodes = new Set<string>(FieldErrorCode.options);

/** One error body for every failure; no stack trace leaves the server. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status: number;
    let body: ErrorBody;
    if (error instanceof DomainError) {
      status = STATUS[error.code];
      body = { message: error.message, code: error.code, ...(error.fields ? { fields: error.fields } : {}) };
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, FieldErrorCode> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, "").replace(/\//g, ".") || "_";
        fields[field] ??= fieldCodes.has(issue.message ?? "") ? (issue.message as FieldErrorCode) : "invalid";
      }
      const inBody = error.validationContext === "body";
      status = inBody ? 422 : 400;
      body = { message: inBody ? "Some fields are not valid" : "Bad request", code: inBody ? "validation_failed" : "bad_request", fields };
    } else if (error.statusCode === 429) {
      status = 429;
      body = { message: "Too many attempts. Wait a minute and try again.", code: "rate_limited" };
    } else if (error.statusCode === 413) {
      status = 413;
      body = { message: "The request is too large", code: "payload_too_large" };
    } else if (["22003", "22P02", "22021"].includes((error as { code?: unknown }).code as string)) {
      // PostgreSQL (issue 19) refuses a number past 64 bits (an id from the URL, say) and a NUL character in
      // text, which SQLite takes: the client's fault, never a 500.
      status = 400;
      body = { message: "Bad request", code: "bad_request" };
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, wrong content type, and other client faults.
      status = 400;
      body = { message: "Bad request", code: "bad_request" };
    } else {
      request.log.error({ err: error }, "unhandled error");
      status = 500;
      body = { message: "Internal server error", code: "internal" };
    }
    if (status < 500) request.log.info({ code: body.code, status }, "request refused");
    return reply.status(status).send(body);
  });

}
