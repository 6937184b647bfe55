import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** Dates are ISO-8601 strings so the SQL stays portable between SQLite and PostgreSQL. */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  locale: string;
  email_verified_at: string | null;
  plan_id: string;
  render_notifications: number;
  show_wizard: number;
  ltd_tier: string | null;
  ltd_renew_at: string | null;
  appsumo_license_uuid: string | null;
  stripe_id: string | null;
  referral: string | null;
  clickid: string | null;
  total_used_storage: number;
  created_at: string;
  updated_at: string;
}

/** Issue 16 (migration 0025): a mailed single-use link (password reset, new e-mail address), kept as a hash. */
export interface AccountTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: "password_reset" | "email_change";
  token_hash: string;
  new_email: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface PlansTable {
  id: string;
  nickname: string;
  amount: number;
  original_amount: number;
  interval: string | null;
  active: number;
  coupon: string | null;
  metadata: string;
  features: string;
  position: number;
}

export interface HandoffCodesTable {
  code_hash: string;
  user_id: number;
  expires_at: string;
  used_at: string | null;
}

export interface CaptchaSpentTable {
  signature: string;
  expires_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface Database {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  plans: PlansTable;
  handoff_codes: HandoffCodesTable;
  captcha_spent: CaptchaSpentTable;
  settings: SettingsTable;
  media_files: MediaFilesTable;
  projects: ProjectsTable;
  project_media: ProjectMediaTable;
  scenes: ScenesTable;
  jobs: JobsTable;
  idempotency_keys: IdempotencyKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  youtube_connections: YoutubeConnectionsTable;
  youtube_auth_requests: YoutubeAuthRequestsTable;
  subtitle_sets: SubtitleSetsTable;
  songs: SongsTable;
  subscriptions: SubscriptionsTable;
  payment_methods: PaymentMethodsTable;
  coupons: CouponsTable;
  webhook_events: WebhookEventsTable;
  payments: PaymentsTable;
  local_gateway_objects: LocalGatewayObjectsTable;
  account_tokens: AccountTokensTable;
  checkout_sessions: CheckoutSessionsTable;
  licences: LicencesTable;
  media_faces: MediaFacesTable;
}

/** Migration 0028 (issue 17): the faces followed across a video's samples (JSON tracks, jobs/steps/faces.ts) and their pictures. */
export interface MediaFacesTable {
  media_file_id: number;
  sample_fps: number;
  tracks: string;
  thumbs: Generated<string>;
  created_at: string;
}

/** Issue 16 (migration 0027): deals-marketplace licence codes, kept as hashes. */
export interface LicencesTable {
  id: Generated<number>;
  code_hash: string;
  uuid: string;
  product: string;
  tier: number;
  status: "available" | "redeemed";
  redeemed_by: number | null;
  redeemed_at: string | null;
  created_at: string;
  updated_at: string;
}
export type LicenceRow = Selectable<LicencesTable>;

/** Issue 16 (migration 0026): a one-time purchase's checkout session (a lifetime deal, or one project's export). */
export interface CheckoutSessionsTable {
  /** The gateway's session id. */
  id: string;
  user_id: number;
  kind: "ltd" | "video";
  /** The lifetime plan sold (ltd_tier1…3); null for a video. */
  plan_id: string | null;
  /** The project unlocked (video); null for a lifetime deal. */
  project_id: number | null;
  amount: number;
  gateway: string;
  status: "open" | "complete";
  created_at: string;
  completed_at: string | null;
}
export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;

/** Issue 16 (migration 0024): our mirror of the gateway's subscription, one row per user. */
export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  plan_id: string;
  pending_plan_id: string | null;
  status: "trialing" | "active" | "past_due" | "incomplete" | "canceled";
  trial_ends_at: string | null;
  current_period_start: string;
  current_period_end: string;
  cancel_at: string | null;
  coupon_code: string | null;
  coupon_percent_off: number | null;
  gateway: string;
  gateway_subscription_id: string | null;
  trial_used: Generated<number>;
  created_at: string;
  updated_at: string;
}
export type SubscriptionRow = Selectable<SubscriptionsTable>;

export interface PaymentMethodsTable {
  id: Generated<number>;
  user_id: number;
  gateway_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  name: string | null;
  created_at: string;
}
export type PaymentMethodRow = Selectable<PaymentMethodsTable>;

export interface CouponsTable {
  id: Generated<number>;
  code: string;
  percent_off: number;
  valid: number;
  duration: Generated<string>;
  plans: string | null;
  created_at: string;
  updated_at: string;
}
export type CouponRow = Selectable<CouponsTable>;

export interface WebhookEventsTable {
  id: string;
  type: string;
  gateway: string;
  received_at: string;
  processed_at: string | null;
}

export interface PaymentsTable {
  id: Generated<number>;
  user_id: number;
  plan_id: string;
  gateway_invoice_id: string;
  gateway_intent_id: string | null;
  amount: number;
  currency: Generated<string>;
  percent_off: number | null;
  coupon_code: string | null;
  reason: "subscription_create" | "subscription_update" | "subscription_cycle";
  status: "processing" | "succeeded" | "failed" | "requires_action" | "pending";
  failure_code: string | null;
  failure_message: string | null;
  client_secret: string | null;
  created_at: string;
  updated_at: string;
}
export type PaymentRow = Selectable<PaymentsTable>;

export interface LocalGatewayObjectsTable {
  id: string;
  kind: string;
  customer: string | null;
  data: string;
  created_at: string;
  updated_at: string;
}

/** Background music (migration 0023): the shipped catalogue and the operator's MUSIC_DIR; tag lists are JSON string arrays. */
export interface SongsTable {
  id: Generated<number>;
  source: "catalogue" | "library";
  key: string;
  title: string;
  author: string;
  genre_tags: string;
  instrument_tags: string;
  video_theme_tags: string;
  licence_id: string;
  attribution: string | null;
  duration_ms: number;
  loop_start_ms: number | null;
  loop_end_ms: number | null;
  energy: number | null;
  tempo: number | null;
  /** What the sync last read of the file (defaults 0: written by hand, read again on the next pass). */
  file_size: Generated<number>;
  file_mtime_ms: Generated<number>;
  available: number;
  created_at: string;
  updated_at: string;
}

/** A project's subtitle set in one locale (migration 0019); `translations` is JSON { [key]: { source, text, edited } }. */
export interface SubtitleSetsTable {
  id: Generated<number>;
  project_id: number;
  user_id: number;
  locale: string;
  original: number;
  status: string;
  engine: string | null;
  draft: number;
  reason: string | null;
  error: string | null;
  detail: string | null;
  translations: string;
  created_at: string;
  updated_at: string;
}

/** A user's YouTube link (migration 0016): `tokens` is sealed JSON { access_token, refresh_token, expires_at }. */
export interface YoutubeConnectionsTable {
  user_id: number;
  tokens: string;
  channel: string | null;
  created_at: string;
  updated_at: string;
}

/** An OAuth request waiting for Google's answer: the state is kept hashed, the PKCE verifier sealed. */
export interface YoutubeAuthRequestsTable {
  state_hash: string;
  user_id: number;
  verifier: string;
  expires_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type PlanRow = Selectable<PlansTable>;

export interface MediaFilesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  kind: "video" | "audio" | "image";
  type: string;
  mime: string | null;
  size_bytes: number;
  duration_seconds: number;
  width: number | null;
  height: number | null;
  fps: number | null;
  has_audio: number;
  has_speech: number;
  language: string | null;
  storage_key: string;
  proxy_key: string | null;
  thumbnail_key: string | null;
  analysis: string | null;
  /** The demuxer every ffmpeg run reads the file with (`-f`); null for files stored before migration 0008. */
  container: string | null;
  /** Migration 0018: the recognised words (JSON StoredTranscript, server/jobs/transcribe.ts); null until transcribed. */
  transcript: Generated<string | null>;
  status: "processing" | "ready" | "failed";
  progress: number;
  raw_preview_render: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ProjectsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  title: string | null;
  locale: string | null;
  type: string;
  status: string;
  failure: string | null;
  is_new: number;
  is_queued: number;
  cuts_project: number;
  audioonly: number;
  thumbnail_key: string | null;
  duration_in_seconds: number;
  duration_out_seconds: number;
  total_filesize: number;
  scenes_count: number;
  working_progress: number;
  working_progress_raw: number;
  raw_preview_render: number;
  raw_preview_key: string | null;
  export_key: string | null;
  final_render: number;
  removed_length: number;
  jump_cuts_created: number;
  subtitles_lines_count: number;
  settings: string;
  /** JSON: the features the last render applied. */
  applied_features: Generated<string>;
  /** SPEC §4 Needs-render: 1 after any edit since the last render request. */
  needs_render: Generated<number>;
  /** Goes up with every write the storyboard's answer depends on (migration 0029's triggers). */
  storyboard_version: Generated<number>;
  /** The size the last render was made at (issue 13: by tier, never above the source). Migration 0012. */
  export_width: Generated<number | null>;
  export_height: Generated<number | null>;
  /** A library-type project's one file (SPEC §3 Project type 'library'); null for other projects. */
  library_media_file_id: Generated<number | null>;
  /** Share page (migration 0014): privacy, the share token's nonce (token = HMAC of it) and the token's hash. */
  privacy: Generated<string>;
  share_nonce: Generated<string | null>;
  share_token_hash: Generated<string | null>;
  /** The export form's video name (null: the project's name) and description. */
  video_name: Generated<string | null>;
  description: Generated<string>;
  /** Video-site export (migration 0016): null, 'exporting' or 'done'; the uploaded video; the last failure's code; the upload in progress (sealed JSON). */
  youtube_export: Generated<string | null>;
  youtube_video_id: Generated<string | null>;
  youtube_error: Generated<string | null>;
  youtube_upload: Generated<string | null>;
  /** Migration 0018: why the project has no subtitles (JSON SubtitlesUnavailable), and 1 when its lines are draft captions. */
  subtitles_unavailable: Generated<string | null>;
  subtitles_draft: Generated<number>;
  /** Migration 0022: 1 from Preview Ready until the spoken words are recognised and their lines filled into the scenes (a `transcribe` job). */
  subtitles_pending: Generated<number>;
  /** Migration 0026: when the watermark-free 1080p export of this project was bought (SPEC §6 one-time fee); null otherwise. */
  export_unlocked_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ProjectMediaTable {
  project_id: number;
  media_file_id: number;
  position: number;
  role: "intro" | "main" | "outro";
}

export interface ScenesTable {
  id: Generated<number>;
  project_id: number;
  media_file_id: number | null;
  order: number;
  type: string;
  visibility: number;
  start: number;
  end: number;
  trim_start: number;
  trim_end: number;
  trim_start_default: number;
  trim_end_default: number;
  trim_start_raw: number;
  trim_end_raw: number;
  thumbnail_key: string | null;
  text: string;
  media_audio: string;
  music_type: string;
  /** 0 force out, 1 auto, 2 force in. */
  punch_in: Generated<number>;
  punch_in_status: Generated<number>;
  crop: Generated<number>;
  /** JSON: FaceBox[]. */
  selected_faces: Generated<string>;
  /** An overlay scene points at the scene it sits over; main scenes have null. */
  parent_scene_id: number | null;
  overscene_type: string | null;
  overscene_fade: Generated<number>;
  overscene_overflow: Generated<number>;
  overscene_bg: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface JobsTable {
  id: string;
  type: string;
  payload: string;
  group_key: string | null;
  priority: number;
  seq: number;
  status: "queued" | "running" | "done" | "failed" | "cancelled";
  attempts: number;
  max_attempts: number;
  run_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** Whom the job works for (a user id); the runner takes turns between owners within a priority. Migration 0009. */
  owner: string | null;
  /** When it was last claimed: the owner served least recently goes first. */
  claimed_at: string | null;
  /** Order of claims (fair scheduling reads each owner's last one); null until first claimed. */
  claim_seq: number | null;
}

/** The stored answer to an Idempotency-Key; `status` is null while the first request runs. */
export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  method: string;
  path: string;
  status: number | null;
  body: string | null;
  created_at: string;
}

export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  device: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}
