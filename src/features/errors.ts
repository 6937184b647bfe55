import { msg } from "@lingui/core/macro";
import type { I18n, MessageDescriptor } from "@lingui/core";
import type { ErrorCode, FieldErrorCode } from "../../api/errors";
import type { Failure } from "../../workers/status";

const CODE_MESSAGES: Record<ErrorCode, MessageDescriptor> = {
  bad_request: msg`Bad request`,
  validation_failed: msg`Some fields are not valid. Check the form and try again.`,
  unauthenticated: msg`Please authenticate`,
  forbidden: msg`You are not allowed to do that.`,
  not_found: msg`We could not find what you asked for.`,
  rate_limited: msg`Too many attempts. Wait a minute and try again.`,
  invalid_credentials: msg`Invalid e-mail address or password`,
  captcha_failed: msg`We could not confirm you are human. Try again.`,
  already_verified: msg`Your email is already confirmed.`,
  link_invalid: msg`This link is not valid.`,
  link_expired: msg`This link has expired.`,
  code_invalid: msg`This link has expired. Open it again from Cutroom.`,
  reset_link_invalid: msg`This password reset link has expired or was already used. Ask for a new one.`,
  payload_too_large: msg`The request is too large.`,
  internal: msg`Internal server error`,
  no_plan: msg`Your account is not assigned to a subscription plan.`,
  file_too_big: msg`One or more files exceed the single-file size limit.`,
  file_too_long: msg`The uploaded file is too long for your plan.`,
  not_enough_minutes: msg`Not enough processing minutes.`,
  not_enough_storage: msg`Not enough storage.`,
  duplicate_name: msg`A file with this name is already in your library.`,
  unsupported_format: msg`Unsupported format. Choose a video, audio or image file.`,
  media_unreadable: msg`Uploaded file may be corrupted or not be compatible`,
  upload_incomplete: msg`The upload has not finished yet.`,
  media_not_ready: msg`This file is still being processed.`,
  project_busy: msg`This project is busy. Try again when it has finished.`,
  project_finished: msg`This project is finished and read-only. Reopen it to edit it again.`,
  tier_not_allowed: msg`Your plan does not include this resolution. Choose a lower one or upgrade your plan.`,
  too_many_queued: msg`You have too many projects waiting or in progress. Start another when one has finished.`,
  markers_cross: msg`The start marker cannot pass the end marker.`,
  out_of_bounds: msg`The trim goes past the start or the end of the footage.`,
  split_needs_two_lines: msg`Split by text line needs a scene with more than one text line.`,
  split_needs_no_text: msg`Split by position is only for scenes without text.`,
  split_at_edge: msg`A split must leave something on both sides.`,
  line_too_long: msg`A text line has at most 35 characters.`,
  not_mergeable: msg`These scenes cannot be merged: they must come from the same file and follow each other.`,
  cut_empty: msg`Choose at least one word to cut.`,
  media_in_use: msg`This file is used in a project and cannot be deleted.`,
  not_library_item: msg`Only uploaded library files can be removed.`,
  overlay_needs_one_scene: msg`Choose exactly one scene to put over this scene.`,
  idempotency_key_reused: msg`This change was already sent as a different request, so it was not applied.`,
  idempotency_in_flight: msg`This change is still being saved. Try again in a moment.`,
  email_not_verified: msg`Confirm your email address first: open the link we sent you, then try again.`,
  upload_conflict: msg`The upload was interrupted. It will resume from where the server stopped.`,
  upload_expired: msg`This upload has expired. Add the file again.`,
  upgrade_required: msg`Downloading the finished video needs a paid plan. Upgrade to download it.`,
  render_not_ready: msg`This project has no finished video yet. Export it first, then download it.`,
  range_not_satisfiable: msg`The download could not resume from there. Start it again.`,
  youtube_unavailable: msg`Video-site export is temporarily unavailable.`,
  youtube_not_connected: msg`Your YouTube account is not connected, or Cutroom lost access to it. Connect it, then export again.`,
  youtube_quota: msg`YouTube's daily upload limit has been reached. Try again tomorrow.`,
  youtube_upload_failed: msg`YouTube did not accept the upload. Try again in a few minutes.`,
  no_subtitles: msg`This project has no subtitles to download.`,
  nothing_to_render: msg`Every scene is hidden. Show at least one scene first.`,
  nothing_to_export: msg`An export always makes the video. Download the subtitles beside it with Download subtitles.`,
  translate_unavailable: msg`No translation engine for this language is set up on this server. An operator can add one.`,
  translate_unauthorized: msg`The translation service refused this server's key. An operator should check TRANSLATE_API_KEY.`,
  translate_rejected: msg`The translation service refused these subtitles. Try again, or type the lines yourself.`,
  translate_rate_limited: msg`The translation service is busy. Translate again in a few minutes.`,
  translate_service_error: msg`The translation service failed. Translate again in a few minutes.`,
  translate_timeout: msg`The translation service took too long to answer. Translate again in a few minutes.`,
  translate_unreachable: msg`The translation service could not be reached. Try again later, or ask an operator to check TRANSLATE_URL.`,
  translate_bad_response: msg`The translation service gave an answer Cutroom could not read. Try again later.`,
  translate_engine_failed: msg`The translation engine on this server failed. Translate again; if it fails again, ask an operator to check Apertium.`,
  licence_invalid: msg`This licence code is not valid. Check it and try again.`,
  licence_used: msg`This licence code has already been redeemed.`,
  licence_held: msg`Your account already has this lifetime tier or a higher one.`,
  licence_subscription_active: msg`You have a paid subscription. Cancel its renewal first (choose the free plan), then redeem your licence.`,
  lifetime_owned: msg`You already have a lifetime deal. Your plan is on your account page.`,
  export_unlocked: msg`This video already exports at 1080p without the watermark.`,
  export_included: msg`Your plan already exports at 1080p without the watermark.`,
};

/** The message of one error code in the user's language (a failed subtitle set's `error`, issue 14). */
export function errorCodeMessage(i18n: I18n, code: ErrorCode): string {
  return i18n._(CODE_MESSAGES[code]);
}

const FIELD_MESSAGES: Record<FieldErrorCode, MessageDescriptor> = {
  required: msg`This field is required`,
  too_long: msg`This is too long`,
  email_invalid: msg`Enter a valid email address`,
  emails_different: msg`Emails are different`,
  password_short: msg`The password should be at least 8 characters long`,
  passwords_different: msg`Passwords are different`,
  terms_required: msg`Accept the terms of use to continue`,
  email_taken: msg`This email is already registered`,
  password_wrong: msg`This is not your current password`,
  email_unchanged: msg`This is already your email address`,
  invalid: msg`This value is not valid`,
};

/** SPEC §8 in the user's language: what a failed call tells them. */
export function failureMessage(i18n: I18n, failure: Failure): string {
  switch (failure.kind) {
    case "bad_request":
      return i18n._(CODE_MESSAGES[failure.code ?? "bad_request"]);
    case "signed_out":
      return i18n._(CODE_MESSAGES.unauthenticated);
    case "internal":
      return i18n._(CODE_MESSAGES.internal);
    case "network":
      return i18n._(msg`No connection. Check your network and try again.`);
    case "body":
      return i18n._(CODE_MESSAGES[failure.body.code]);
  }
}

export const fieldMessage = (i18n: I18n, code: FieldErrorCode) => i18n._(FIELD_MESSAGES[code]);
/** The message of an error code, for a screen that explains a refusal before it happens. */
export const codeMessage = (code: ErrorCode): MessageDescriptor => CODE_MESSAGES[code];

/** Field errors of a failure (a 422 with `fields`), translated. */
export function failureFields(i18n: I18n, failure: Failure): Record<string, string> {
  if (failure.kind !== "body" || !failure.body.fields) return {};
  return Object.fromEntries(Object.entries(failure.body.fields).map(([field, code]) => [field, fieldMessage(i18n, code)]));
}
