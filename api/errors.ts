import { z } from "zod";

/** Machine-readable error codes. The app turns each into a message in the user's language. */
export const ErrorCode = z.enum([
  "bad_request",
  "validation_failed",
  "unauthenticated",
  "forbidden",
  "not_found",
  "rate_limited",
  "invalid_credentials",
  "captcha_failed",
  "already_verified",
  "link_invalid",
  "link_expired",
  "code_invalid",
  // A password reset link that is unknown, used or past its 60 minutes (issue 16).
  "reset_link_invalid",
  "payload_too_large",
  "internal",
  // Uploads and quotas (SPEC §8).
  "no_plan",
  "file_too_big",
  "file_too_long",
  "not_enough_minutes",
  "not_enough_storage",
  "duplicate_name",
  "unsupported_format",
  "media_unreadable",
  "upload_incomplete",
  "media_not_ready",
  "project_busy",
  "project_finished",
  "tier_not_allowed",
  // A user's queued and processing projects are capped (issue 12).
  "too_many_queued",
  // Storyboard rules (SPEC §4 Scenes, §5 Scenes), worded by the app.
  "markers_cross",
  "out_of_bounds",
  "split_needs_two_lines",
  "split_needs_no_text",
  "split_at_edge",
  "line_too_long",
  "not_mergeable",
  // Edit by transcript (issue 14): no words were chosen to cut.
  "cut_empty",
  // Media library (SPEC §2 Media library).
  "media_in_use",
  "not_library_item",
  "overlay_needs_one_scene",
  // Idempotency-Key (ARCHITECTURE "Idempotency"): a key sent again with another call, or while its first call runs.
  "idempotency_key_reused",
  "idempotency_in_flight",
  // Processing waits for a verified email address (issue 12).
  "email_not_verified",
  // tus uploads (issue 12): an offset that does not match the server's, an upload past its expiry.
  "upload_conflict",
  "upload_expired",
  // Downloads (issue 13): a free plan cannot download, a project without a final render has nothing to download.
  "upgrade_required",
  "render_not_ready",
  "range_not_satisfiable",
  // Video-site export (issue 13): not set up on this server, not connected, YouTube's daily quota, an upload YouTube refused.
  "youtube_unavailable",
  "youtube_not_connected",
  "youtube_quota",
  "youtube_upload_failed",
  // The subtitles link (SPEC §7) of a project that has no subtitles file.
  "no_subtitles",
  // A render or a timeline of a storyboard whose scenes are all hidden.
  "nothing_to_render",
  // A final render without its video (exportvideo 0) of a project that has nothing else to export.
  "nothing_to_export",
  // Translation of subtitles (issue 14): why a translated set failed (the set's `error`), from the translation port.
  "translate_unavailable",
  "translate_unauthorized",
  "translate_rejected",
  "translate_rate_limited",
  "translate_service_error",
  "translate_timeout",
  "translate_unreachable",
  "translate_bad_response",
  "translate_engine_failed",
  // Deals-marketplace licences (issue 16): unknown code, spent code, a tier the account already has, a paid subscription still renewing.
  "licence_invalid",
  "licence_used",
  "licence_held",
  "licence_subscription_active",
  // One-time purchases (issue 16): a second lifetime deal; a video already unlocked, or whose plan already exports it at 1080p without the watermark.
  "lifetime_owned",
  "export_unlocked",
  "export_included",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Why a single field was refused; the form shows the matching message under that field. */
export const FieldErrorCode = z.enum([
  "required",
  "too_long",
  "email_invalid",
  "emails_different",
  "password_short",
  "passwords_different",
  "terms_required",
  "email_taken",
  // Issue 16: the current password given to confirm a change is wrong; the new address is the current one.
  "password_wrong",
  "email_unchanged",
  "invalid",
]);
export type FieldErrorCode = z.infer<typeof FieldErrorCode>;

/** The one error body every failing call answers with. */
export const ErrorBody = z.object({
  message: z.string(),
  code: ErrorCode,
  fields: z.record(z.string(), FieldErrorCode).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

const knownFieldCodes = new Set<string>(FieldErrorCode.options);

/** Turns zod issues into `{ field: code }`, keeping the first issue per field. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, FieldErrorCode> {
  const fields: Record<string, FieldErrorCode> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join(".") || "_";
    if (fields[field]) continue;
    fields[field] = knownFieldCodes.has(issue.message) ? (issue.message as FieldErrorCode) : "invalid";
  }
  return fields;
}
